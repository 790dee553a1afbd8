/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * shm_ring.c - the node ring (see shm.h): piece k of call seq in cell
 * k % ncells, stamped (seq, k) when valid; a writer acquires a free cell,
 * copies and publishes; readers wait for the stamp, copy out and release;
 * a cell is free again once every node process has released it.
 */
#include "ctx/shm_impl.h"

#include <stdatomic.h>

static int cell_free(void *arg)
{
    cell_wait_t *w = arg;
    return atomic_load_explicit(&w->cell->released, memory_order_acquire) >= w->shm->node_size;
}

static int cell_valid(void *arg)
{
    cell_wait_t *w = arg;
    return atomic_load_explicit(&w->cell->stamp, memory_order_acquire) == w->stamp;
}

char *pc_shm_acquire(pc_shm_t *shm, size_t k)
{
    cell_wait_t w = {shm, cell_of(shm, k), 0};
    pc_wait(shm, cell_free, &w);
    return data_of(shm, k);
}

char *pc_shm_try_acquire(pc_shm_t *shm, size_t k)
{
    cell_wait_t w = {shm, cell_of(shm, k), 0};
    return cell_free(&w) ? data_of(shm, k) : NULL;
}

void pc_shm_publish_released(pc_shm_t *shm, unsigned long seq, size_t k, size_t len, uint32_t released0)
{
    cell_t *c = cell_of(shm, k);
    c->len = (uint32_t)len;
    atomic_store_explicit(&c->released, released0, memory_order_relaxed);
    atomic_store_explicit(&c->stamp, stamp_of(seq, k), memory_order_release);
    pc_shm_notify(shm);
}

void pc_shm_publish(pc_shm_t *shm, unsigned long seq, size_t k, size_t len) { pc_shm_publish_released(shm, seq, k, len, 0); }

const char *pc_shm_wait_piece(pc_shm_t *shm, unsigned long seq, size_t k)
{
    cell_wait_t w = {shm, cell_of(shm, k), stamp_of(seq, k)};
    pc_wait(shm, cell_valid, &w);
    return data_of(shm, k);
}

const char *pc_shm_test_piece(pc_shm_t *shm, unsigned long seq, size_t k)
{
    cell_wait_t w = {shm, cell_of(shm, k), stamp_of(seq, k)};
    return cell_valid(&w) ? data_of(shm, k) : NULL;
}

void pc_shm_release(pc_shm_t *shm, size_t k)
{
    atomic_fetch_add_explicit(&cell_of(shm, k)->released, 1, memory_order_acq_rel);
    pc_shm_notify(shm);
}

void pc_shm_ring_put(pc_shm_t *shm, unsigned long seq, const char *buf, size_t bytes, size_t first, size_t last,
                     int releases)
{
    for (size_t k = first; k < last; k++) {
        size_t len = piece_len(shm, bytes, k);
        pc_shm_copy(pc_shm_acquire(shm, k), buf + k * shm->cell_size, len, shm);
        pc_shm_publish(shm, seq, k, len);
        for (int i = 0; i < releases; i++) /* per piece: a ring smaller than the message keeps flowing */
            pc_shm_release(shm, k);
    }
}

void pc_shm_ring_get(pc_shm_t *shm, unsigned long seq, char *buf, size_t bytes, size_t first, size_t last,
                     int releases)
{
    for (size_t k = first; k < last; k++) {
        pc_shm_copy(buf + k * shm->cell_size, pc_shm_wait_piece(shm, seq, k), piece_len(shm, bytes, k), shm);
        for (int i = 0; i < releases; i++) pc_shm_release(shm, k);
    }
}

void pc_shm_get_pieces(pc_shm_t *shm, unsigned long seq, char *buf, size_t bytes, size_t first, size_t last)
{
    pc_shm_ring_get(shm, seq, buf, bytes, first, last, 1);
}

void pc_shm_release_pieces(pc_shm_t *shm, size_t first, size_t last)
{
    for (size_t k = first; k < last; k++) pc_shm_release(shm, k);
}
