/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * shm_segment.c - the node segment's life (see shm.h): creation on first use
 * (MPI_Win_allocate_shared on the node communicator through node_window.h,
 * laid out as shm_impl.h says, initialized by node rank 0), the node's
 * agreement on single copy (ctx/cma.h), its sizes, the reduction area (a
 * second window made by the first reduction), and freeing both.
 */
#include "ctx/shm_impl.h"
#include "core/log.h"
#include "core/params.h"
#include "ctx/cma.h"
#include "ctx/node_window.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#ifdef PAPCOLL_SMPI
#include <simgrid/cond.h>
#include <simgrid/mutex.h>
#endif

/* Whether every pair of node processes can single-copy: each process probes
 * every peer's probe word (cma.h), and the node agrees (MIN) so that all
 * choose the same.  Only when PAPCOLL_NODE_PROTOCOL may use it. */
static int detect_single_copy(pc_shm_t *shm, const pc_params_t *p)
{
    shm->single_copy = 0;
    if (p->node_protocol_kind == PC_NODE_PROTOCOL_RING) return MPI_SUCCESS;
    const char *why = NULL;
    int ok = pc_cma_prepare(&why), failed_peer = -1;
    for (uint32_t r = 0; ok && r < shm->node_size; r++)
        if ((int)r != shm->node_rank && !pc_cma_probe(shm->slots[r].pid, shm->slots[r].probe)) ok = 0, failed_peer = (int)r;
    int all = 0;
    int rc = PMPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, shm->node_comm);
    if (rc != MPI_SUCCESS) return rc;
    shm->single_copy = all;
    if (!all && why) pc_log(PC_LOG_INFO, "node protocol: %s: the node ring only", why);
    else if (!all && failed_peer >= 0)
        pc_log(PC_LOG_INFO, "node protocol: cannot single-copy from node process %d (process_vm_readv): the node ring only",
               failed_peer);
    return MPI_SUCCESS;
}

int pc_shm_get(pc_comm_t *ctx, pc_shm_t **out)
{
    if (ctx->shm) {
        *out = ctx->shm;
        return MPI_SUCCESS;
    }
    const pc_params_t *p = pc_params();
    pc_shm_t *shm = calloc(1, sizeof *shm);
    if (!shm) return MPI_ERR_NO_MEM;
    shm->cell_size = round_up(p->shm_cell ? p->shm_cell : 1, PC_CACHE_LINE);
    shm->ncells = p->shm_size / shm->cell_size;
    if (shm->ncells < 2) shm->ncells = 2;
    shm->node_size = (uint32_t)ctx->node_size;
    shm->progress_comm = ctx->comm;
    shm->node_comm = ctx->node;
    shm->node_rank = ctx->node_rank;
    shm->membw = p->sim_membw > 0 ? (double)p->sim_membw : 1e10;
    shm->poison = p->shm_poison != 0;
    size_t cells_off = round_up(sizeof(header_t), PC_CACHE_LINE);
    size_t slots_off = cells_off + shm->ncells * sizeof(cell_t);
    size_t data_off = slots_off + (size_t)ctx->node_size * sizeof(slot_t);
    size_t total = data_off + shm->ncells * shm->cell_size;

    int rc = pc_node_window_allocate(ctx->node, total, &shm->segment);
    if (rc != MPI_SUCCESS) {
        free(shm);
        return rc;
    }
    char *base = shm->segment.base;
    shm->hdr = (header_t *)base;
    shm->cells = (cell_t *)(base + cells_off);
    shm->slots = (slot_t *)(base + slots_off);
    shm->data = base + data_off;
    shm->direct = malloc((size_t)ctx->node_size * sizeof *shm->direct);
    if (!shm->direct) {
        pc_node_window_free(&shm->segment);
        free(shm);
        return MPI_ERR_NO_MEM;
    }
    slot_t *mine = &shm->slots[ctx->node_rank]; /* each process initializes its own slot */
    memset(mine, 0, sizeof *mine);
    mine->pid = pc_cma_self();
    mine->probe = (uint64_t)(uintptr_t)pc_cma_probe_word();
    if (ctx->node_rank == 0) {
        memset(base, 0, slots_off);
        if (shm->poison) memset(shm->data, PC_SHM_POISON_BYTE, shm->ncells * shm->cell_size);
        atomic_store(&shm->hdr->claimed_seq, 0);
        atomic_store(&shm->hdr->barrier_arrivals, 0);
        atomic_store(&shm->hdr->release, 0);
        for (int g = 0; g < PC_SHM_GATES; g++) atomic_store(&shm->hdr->gate[g].passes, 0);
        for (size_t i = 0; i < shm->ncells; i++) {
            atomic_store(&shm->cells[i].stamp, 0);
            atomic_store(&shm->cells[i].released, shm->node_size); /* free */
        }
#ifdef PAPCOLL_SMPI
        shm->hdr->mutex = sg_mutex_init();
        shm->hdr->changed = sg_cond_init();
#endif
    }
    atomic_thread_fence(memory_order_seq_cst);
    rc = PMPI_Barrier(ctx->node); /* the header is initialized before anyone uses it */
    if (rc == MPI_SUCCESS) rc = detect_single_copy(shm, p);
    if (rc != MPI_SUCCESS) {
        pc_shm_free(shm);
        return rc;
    }
    ctx->shm = shm;
    *out = shm;
    return MPI_SUCCESS;
}

void pc_shm_free(pc_shm_t *shm)
{
    if (!shm) return;
    pc_node_window_free(&shm->area_window);
#ifdef PAPCOLL_SMPI
    /* node rank 0 made them; everyone is past its last use after the barrier inside Win_free */
    sg_mutex_t m = shm->hdr->mutex;
    sg_cond_t c = shm->hdr->changed;
    pc_node_window_free(&shm->segment);
    if (shm->node_rank == 0) {
        sg_cond_destroy(c);
        sg_mutex_destroy(m);
    }
#else
    pc_node_window_free(&shm->segment);
#endif
    free(shm->direct);
    free(shm);
}

size_t pc_shm_cell_size(const pc_shm_t *shm) { return shm->cell_size; }
size_t pc_shm_ncells(const pc_shm_t *shm) { return shm->ncells; }

size_t pc_shm_pieces(const pc_shm_t *shm, size_t bytes) { return (bytes + shm->cell_size - 1) / shm->cell_size; }

int pc_shm_area(pc_shm_t *shm, size_t control, size_t bytes, char **base)
{
    if (shm->area_window.base) {
        *base = shm->area_window.base;
        return shm->area_bytes >= bytes ? MPI_SUCCESS : MPI_ERR_INTERN;
    }
    size_t total = round_up(bytes ? bytes : 1, PC_CACHE_LINE);
    int rc = pc_node_window_allocate(shm->node_comm, total, &shm->area_window);
    if (rc == MPI_SUCCESS && shm->node_rank == 0) {
        size_t zeroed = control < total ? control : total;
        memset(shm->area_window.base, 0, zeroed);
        if (shm->poison) memset(shm->area_window.base + zeroed, PC_SHM_POISON_BYTE, total - zeroed);
    }
    atomic_thread_fence(memory_order_seq_cst);
    if (rc == MPI_SUCCESS) rc = PMPI_Barrier(shm->node_comm); /* zeroed before anyone uses it */
    if (rc != MPI_SUCCESS) {
        pc_node_window_free(&shm->area_window);
        return rc;
    }
    shm->area_bytes = total;
    *base = shm->area_window.base;
    return MPI_SUCCESS;
}

uint64_t pc_shm_area_use(pc_shm_t *shm) { return shm->area_uses++; }
