/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * iallreduce_rabenseifner - MPI_Iallreduce as a schedule of Rabenseifner's
 * allreduce: a reduce-scatter by recursive halving (each process ends with
 * one fully reduced block of about count / p' elements), then an allgather
 * by recursive doubling running the halving rounds backwards.  p not a
 * power of two: the fold and unfold of recursive_doubling around it.
 *
 *   halving (p' = 4)                         doubling
 *   round 0: 0<->1 2<->3 swap halves          round 2: 0<->2 1<->3 quarters
 *   round 1: 0<->2 1<->3 swap quarters        round 3: 0<->1 2<->3 halves
 *
 * Cost (Hockney, gamma per byte reduced), p a power of two:
 *   2 log2(p) alpha + 2 ((p-1)/p) m beta + ((p-1)/p) m gamma;
 * otherwise 2 alpha + 2 m beta + m gamma more (fold, unfold).  Bandwidth-
 * optimal: the large-message choice.
 * Late arrival: as recursive_doubling, every round pairs processes across
 * the communicator: after the last arrival 2 log2(p') rounds remain, run
 * inside the program's completion calls.
 * Limitations: commutative ops, count >= p' (front.c otherwise takes
 * recursive_doubling, logged).  Memory: one temporary of count elements.
 * Source: R. Rabenseifner, "Optimization of collective reduction
 * operations", ICCS 2004 (Rabenseifner 2004); MPICH's
 * allreduce_intra_reduce_scatter_allgather; as a schedule: Hoefler et al. 2007.
 */
#include "nbc/nbc.h"

#include "coll/reduction.h" /* pc_red_pof2, pc_red_fold_rank */
#include "sched/blocks.h"

static void *range_at(const pc_nbc_args_t *a, void *buf, int nblocks, pc_block_range_t range)
{
    return pc_nbc_at(a, buf, (long)pc_block_offset((size_t)a->count, nblocks, range.lo));
}

static int range_count(const pc_nbc_args_t *a, int nblocks, pc_block_range_t range)
{
    return (int)pc_blocks_len((size_t)a->count, nblocks, range.lo, range.hi - range.lo);
}

int pc_iallreduce_rabenseifner(pc_nbc_sched_t *s, const pc_nbc_args_t *a)
{
    int p = a->size, n = a->count;
    int pof2 = pc_red_pof2(p), rem = p - pof2;
    void *acc = a->recvbuf, *tmp = pc_nbc_alloc(s, n, a->type);
    if (!tmp) return s->rc;
    pc_nbc_copy(s, a->sendbuf, acc, n, a->type);

    long newrank = pc_nbc_fold(s, a, acc, tmp, rem);

    if (newrank >= 0) {
        pc_block_range_t shared[64];
        int steps = pc_halving_ranges(newrank, pof2, shared);
        for (int j = 0; j < steps; j++) { /* reduce-scatter */
            int dst = pc_red_fold_rank(newrank ^ (1L << j), rem);
            pc_block_range_t keep = pc_halving_keep(shared[j], newrank, j);
            pc_block_range_t give = pc_halving_give(shared[j], newrank, j);
            pc_nbc_send(s, range_at(a, acc, pof2, give), range_count(a, pof2, give), a->type, dst);
            pc_nbc_recv(s, range_at(a, tmp, pof2, keep), range_count(a, pof2, keep), a->type, dst);
            pc_nbc_round(s);
            pc_nbc_reduce(s, range_at(a, tmp, pof2, keep), range_at(a, acc, pof2, keep), range_count(a, pof2, keep),
                          a->type, a->op);
        }
        for (int j = steps - 1; j >= 0; j--) { /* allgather */
            int dst = pc_red_fold_rank(newrank ^ (1L << j), rem);
            pc_block_range_t keep = pc_halving_keep(shared[j], newrank, j);
            pc_block_range_t give = pc_halving_give(shared[j], newrank, j);
            pc_nbc_send(s, range_at(a, acc, pof2, keep), range_count(a, pof2, keep), a->type, dst);
            pc_nbc_recv(s, range_at(a, acc, pof2, give), range_count(a, pof2, give), a->type, dst);
            pc_nbc_round(s);
        }
    }

    pc_nbc_unfold(s, a, acc, rem);
    return s->rc;
}
