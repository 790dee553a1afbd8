/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * rabenseifner - Rabenseifner's allreduce: a reduce-scatter by recursive
 * halving (each process ends with one fully reduced block of count / p'
 * elements), then an allgather by recursive doubling that runs the halving
 * steps backwards (MPICH's reduce_scatter_allgather).  p not a power of
 * two: with p' the largest power of two <= p and r = p - p', the even ranks
 * below 2r first hand their data to rank + 1 (fold) and get the result back
 * from it at the end (unfold).
 *
 *   halving (p' = 4, blocks 0..3)           doubling
 *   step 0:  0<->1  2<->3  halves [0,2)|[2,4)     step 1 again: quarters -> halves
 *   step 1:  0<->2  1<->3  quarters: 0 [0,1) 2 [1,2) 1 [2,3) 3 [3,4)
 *                                                  step 0 again: halves -> all
 *
 * Cost (Hockney, gamma: local reduction time per byte), p a power of two:
 *   2 log2(p) alpha + 2 ((p-1)/p) m beta + ((p-1)/p) m gamma
 * (MPICH); otherwise 2 alpha + 2 m beta + m gamma more for the fold and
 * unfold.  Bandwidth-optimal with logarithmic latency: the long-message
 * allreduce of MPICH and Open MPI.
 * Late arrival: every step pairs processes across the whole communicator,
 * so every process waits for the last arrival, after which all 2 log2 p'
 * steps (and the unfold) still run.
 * Limitations: commutative ops only (blocks are combined in halving order,
 * not rank order).  Blocks of ceil(count / p') elements (sched/blocks.h):
 * with count < p' some blocks are empty and their exchanges carry nothing.
 * Memory: one buffer of count elements.
 * Source: MPICH src/mpi/coll/allreduce/allreduce_intra_reduce_scatter_allgather.c;
 * R. Rabenseifner, "Optimization of collective reduction operations",
 * ICCS 2004; Open MPI coll_base_allreduce.c (redscat_allgather).
 */
#include "allreduce/allreduce.h"
#include "sched/blocks.h"

#include <stdlib.h>

/* Element offset and count of blocks [range.lo, range.hi) of nblocks. */
static void *range_at(const pc_call_t *a, void *buf, int nblocks, pc_block_range_t range)
{
    return pc_red_at(a, buf, (long)pc_block_offset((size_t)a->count, nblocks, range.lo));
}
static long range_count(const pc_call_t *a, int nblocks, pc_block_range_t range)
{
    return (long)pc_blocks_len((size_t)a->count, nblocks, range.lo, range.hi - range.lo);
}

/* Communicator rank of process `newrank` of the power-of-two group: the
 * first rem pairs are represented by their odd member. */
/* Process newrank of the power-of-two group of pof2: reduce-scatter by
 * recursive halving (keep one half, send the other, combine what the
 * partner sends of mine), then allgather by recursive doubling (the same
 * steps backwards, swapping halves).  tmp: count elements. */
static int halving_doubling(const pc_call_t *a, long newrank, int pof2, int rem, void *acc, void *tmp)
{
    pc_block_range_t shared[64];
    int steps = pc_halving_ranges(newrank, pof2, shared), rc = MPI_SUCCESS;
    for (int j = 0; j < steps && rc == MPI_SUCCESS; j++) {
        int dst = pc_red_fold_rank(newrank ^ (1L << j), rem);
        pc_block_range_t keep = pc_halving_keep(shared[j], newrank, j);
        pc_block_range_t give = pc_halving_give(shared[j], newrank, j);
        rc = pc_red_sendrecv(a, range_at(a, acc, pof2, give), range_count(a, pof2, give), dst,
                             range_at(a, tmp, pof2, keep), range_count(a, pof2, keep), dst, PC_TAG_ALLREDUCE_SCATTER);
        if (rc == MPI_SUCCESS)
            rc = pc_red_local(a, range_at(a, tmp, pof2, keep), range_at(a, acc, pof2, keep), range_count(a, pof2, keep));
    }
    for (int j = steps - 1; j >= 0 && rc == MPI_SUCCESS; j--) {
        int dst = pc_red_fold_rank(newrank ^ (1L << j), rem);
        pc_block_range_t keep = pc_halving_keep(shared[j], newrank, j);
        pc_block_range_t give = pc_halving_give(shared[j], newrank, j);
        rc = pc_red_sendrecv(a, range_at(a, acc, pof2, keep), range_count(a, pof2, keep), dst,
                             range_at(a, acc, pof2, give), range_count(a, pof2, give), dst, PC_TAG_ALLREDUCE_GATHER);
    }
    return rc;
}

int pc_allreduce_rabenseifner(const pc_call_t *a)
{
    int p = a->ctx->size, rc = MPI_SUCCESS;
    int pof2 = pc_red_pof2(p), rem = p - pof2;
    long newrank;
    void *acc = a->recvbuf, *tmp, *tmp_base = NULL;

    if (a->count == 0) return MPI_SUCCESS;
    if (!(tmp = pc_red_alloc(a, a->count, &tmp_base))) return MPI_ERR_NO_MEM;
    rc = pc_red_copy(a, acc, a->sendbuf, a->count);
    if (rc != MPI_SUCCESS) goto out;

    /* fold: even ranks below 2 rem hand their data to rank + 1 and sit out */
    rc = pc_red_fold(a, acc, tmp, rem, PC_TAG_ALLREDUCE_FOLD, &newrank);
    if (rc == MPI_SUCCESS && newrank >= 0) rc = halving_doubling(a, newrank, pof2, rem, acc, tmp);

    /* unfold: the result back to the even ranks that sat out */
    if (rc == MPI_SUCCESS) rc = pc_red_unfold(a, acc, rem, PC_TAG_ALLREDUCE_UNFOLD);
out:
    free(tmp_base);
    return rc;
}
