/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * reduce_scatter_gather - Rabenseifner's reduce: a reduce-scatter by
 * recursive halving (each process ends with one fully reduced block of
 * count / p' elements), then a binomial gather of the blocks to the root.
 * p not a power of two: with p' the largest power of two <= p and
 * r = p - p', the odd ranks below 2r first hand their data to rank - 1 and
 * sit out (fold); if the root is one of them, rank 0 passes it its block
 * after the reduce-scatter and the root takes rank 0's place in the gather.
 *
 *   halving (p' = 4, blocks 0..3)          gather to root 0
 *   step 0:  0<->1  2<->3  halves [0,2)|[2,4)   2->0 [1,2)   3->1 [3,4)
 *   step 1:  0<->2  1<->3  quarters             1->0 [2,4)
 *
 * Cost (Hockney, gamma: local reduction time per byte), p a power of two:
 *   2 log2(p) alpha + 2 ((p-1)/p) m beta + ((p-1)/p) m gamma
 * (MPICH); otherwise one more alpha + m beta + m gamma for the fold (and
 * alpha + m/p' beta when the root sat out).  Against binomial's
 * log2(p) m (beta + gamma), the bandwidth and combination terms no longer
 * grow with p: the long-message reduce of MPICH and Open MPI.
 * Late arrival: every halving step pairs processes across the whole
 * communicator, so nothing completes before the last process arrives, and
 * after it arrives the whole reduce-scatter (log2 p' steps) and gather
 * still run; early processes wait in their first exchange with a late
 * partner (Parsons 2015 §3.7.4 leaves it out of its imbalance study for
 * that all-to-all dependence).
 * Limitations: commutative ops only (blocks are combined in halving order,
 * not rank order).  Blocks of ceil(count / p') elements: with count < p'
 * some blocks are empty and their exchanges carry nothing.  Memory: two
 * buffers of count elements (one at the root, which uses its receive
 * buffer).
 * Source: MPICH src/mpi/coll/reduce/reduce_intra_reduce_scatter_gather.c;
 * R. Rabenseifner, "Optimization of collective reduction operations",
 * ICCS 2004; Open MPI coll_base_reduce.c (redscat_gather).
 */
#include "reduce/reduce.h"
#include "sched/blocks.h"

#include <stdlib.h>

/* Communicator rank of process `newrank` of the power-of-two group: the
 * first r pairs are represented by their even member. */
static int real_rank(long newrank, int rem) { return (int)(newrank < rem ? newrank * 2 : newrank + rem); }

/* Elements of blocks [range.lo, range.hi) of `nblocks`: offset and count. */
static size_t range_offset(const pc_call_t *a, int nblocks, pc_block_range_t range)
{
    return pc_block_offset((size_t)a->count, nblocks, range.lo);
}
static long range_count(const pc_call_t *a, int nblocks, pc_block_range_t range)
{
    return (long)pc_blocks_len((size_t)a->count, nblocks, range.lo, range.hi - range.lo);
}

int pc_reduce_reduce_scatter_gather(const pc_call_t *a)
{
    int p = a->ctx->size, rank = a->ctx->rank, root = a->root, rc = MPI_SUCCESS;
    int pof2 = 1;
    while (pof2 <= p / 2) pof2 *= 2;
    int rem = p - pof2;
    int root_sat_out = root < 2 * rem && root % 2; /* the root is folded into root - 1 */
    long newrank, newroot;
    pc_block_range_t shared[64], held = {0, pof2};
    int steps = 0;
    void *acc, *tmp, *acc_base = NULL, *tmp_base = NULL;

    if (a->count == 0) return MPI_SUCCESS;
    acc = rank == root ? a->recvbuf : pc_red_alloc(a, a->count, &acc_base);
    tmp = pc_red_alloc(a, a->count, &tmp_base);
    if (!acc || !tmp) {
        rc = MPI_ERR_NO_MEM;
        goto out;
    }
    rc = pc_red_copy(a, acc, a->sendbuf, a->count);
    if (rc != MPI_SUCCESS) goto out;

    /* fold: odd ranks below 2 rem hand their data to rank - 1 and sit out */
    if (rank < 2 * rem) {
        if (rank % 2) {
            rc = pc_red_send(a, acc, a->count, rank - 1, PC_TAG_REDUCE_FOLD);
            newrank = -1;
        } else {
            rc = pc_red_recv(a, tmp, a->count, rank + 1, PC_TAG_REDUCE_FOLD);
            if (rc == MPI_SUCCESS) rc = pc_red_local(a, tmp, acc, a->count);
            newrank = rank / 2;
        }
    } else {
        newrank = rank - rem;
    }
    if (rc != MPI_SUCCESS) goto out;

    /* reduce-scatter by recursive halving: keep one half, send the other,
     * combine what the partner sends of mine */
    if (newrank >= 0) {
        steps = pc_halving_ranges(newrank, pof2, shared);
        for (int j = 0; j < steps && rc == MPI_SUCCESS; j++) {
            int dst = real_rank(newrank ^ (1L << j), rem);
            pc_block_range_t keep = pc_halving_keep(shared[j], newrank, j);
            pc_block_range_t give = pc_halving_give(shared[j], newrank, j);
            size_t keep_off = range_offset(a, pof2, keep);
            long keep_n = range_count(a, pof2, keep);
            rc = pc_red_sendrecv(a, pc_red_at(a, acc, (long)range_offset(a, pof2, give)), range_count(a, pof2, give),
                                 dst, pc_red_at(a, tmp, (long)keep_off), keep_n, dst, PC_TAG_REDUCE_SCATTER);
            if (rc == MPI_SUCCESS)
                rc = pc_red_local(a, pc_red_at(a, tmp, (long)keep_off), pc_red_at(a, acc, (long)keep_off), keep_n);
            held = keep;
        }
    }
    if (rc != MPI_SUCCESS) goto out;

    /* a root that sat out takes the place of newrank 0 (rank 0) */
    if (root_sat_out) {
        newroot = 0;
        if (rank == root) {
            steps = pc_halving_ranges(0, pof2, shared);
            held = steps ? pc_halving_keep(shared[steps - 1], 0, steps - 1) : held;
            rc = pc_red_recv(a, pc_red_at(a, acc, (long)range_offset(a, pof2, held)), range_count(a, pof2, held), 0,
                             PC_TAG_REDUCE_TO_ROOT);
            newrank = 0;
        } else if (newrank == 0) {
            rc = pc_red_send(a, pc_red_at(a, acc, (long)range_offset(a, pof2, held)), range_count(a, pof2, held), root,
                             PC_TAG_REDUCE_TO_ROOT);
            newrank = -1;
        }
    } else {
        newroot = root < 2 * rem ? root / 2 : root - rem;
    }

    /* binomial gather, the halving steps backwards: the partner farther from
     * the root (by the bits above j) sends what it holds and is done */
    for (int j = steps - 1; j >= 0 && newrank >= 0 && rc == MPI_SUCCESS; j--) {
        long newdst = newrank ^ (1L << j);
        int dst = newdst == 0 && root_sat_out ? root : real_rank(newdst, rem);
        if ((newdst >> j) == (newroot >> j)) {
            rc = pc_red_send(a, pc_red_at(a, acc, (long)range_offset(a, pof2, held)), range_count(a, pof2, held), dst,
                             PC_TAG_REDUCE_GATHER);
            break;
        }
        pc_block_range_t give = pc_halving_give(shared[j], newrank, j);
        rc = pc_red_recv(a, pc_red_at(a, acc, (long)range_offset(a, pof2, give)), range_count(a, pof2, give), dst,
                         PC_TAG_REDUCE_GATHER);
        held = shared[j];
    }
out:
    free(acc_base);
    free(tmp_base);
    return rc;
}
