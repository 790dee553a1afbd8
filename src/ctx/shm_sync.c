/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * shm_sync.c - the node's synchronization words in the segment header (see
 * shm.h): the first-arriver claim of a call's node leader, the node barrier
 * and its halves (arrive, wait), the node release of a call, and the gates.
 */
#include "ctx/shm_impl.h"
#include "core/phase.h"

#include <stdatomic.h>

int pc_shm_claim(pc_shm_t *shm, unsigned long seq)
{
    uint64_t v = atomic_load(&shm->hdr->claimed_seq);
    while (v < seq)
        if (atomic_compare_exchange_weak(&shm->hdr->claimed_seq, &v, seq)) {
            pc_shm_notify(shm);
            pc_phase_mark_leader();
            return 1;
        }
    return 0;
}

void pc_shm_barrier(pc_shm_t *shm)
{
    pc_shm_arrive(shm);
    pc_shm_wait_arrived(shm);
}

int pc_shm_arrive(pc_shm_t *shm)
{
    uint64_t target = ++shm->barrier_epoch * shm->node_size;
    uint64_t before = atomic_fetch_add_explicit(&shm->hdr->barrier_arrivals, 1, memory_order_acq_rel);
    pc_shm_notify(shm);
    return before + 1 == target;
}

void pc_shm_wait_arrived(pc_shm_t *shm)
{
    pc_wait_at_least(shm, &shm->hdr->barrier_arrivals, shm->barrier_epoch * shm->node_size);
}

void pc_shm_give_release(pc_shm_t *shm, unsigned long seq)
{
    atomic_store_explicit(&shm->hdr->release, (uint64_t)seq, memory_order_release);
    pc_shm_notify(shm);
}

void pc_shm_wait_release(pc_shm_t *shm, unsigned long seq)
{
    pc_wait_at_least(shm, &shm->hdr->release, (uint64_t)seq);
}

void pc_shm_gates_begin(pc_shm_t *shm) { shm->gate_epoch++; }

int pc_shm_gate_pass(pc_shm_t *shm, int g)
{
    uint64_t before = atomic_fetch_add_explicit(&shm->hdr->gate[g].passes, 1, memory_order_acq_rel);
    return before + 1 == 2 * shm->gate_epoch;
}
