/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ring - reduce-scatter around a ring, then allgather around the same ring
 * (MPICH's ring allreduce, after Baidu's): the message is cut into p blocks;
 * in step i of the reduce-scatter process r sends block r - 1 - i (its
 * partial result for it) to r + 1 and combines block r - 2 - i received
 * from r - 1, so after p - 1 steps it holds block r fully reduced; the
 * allgather then passes the finished blocks on for p - 1 more steps.
 *
 *   reduce-scatter  r -> r+1: block r-1-i, partial     (p-1 steps)
 *   allgather       r -> r+1: block r-i, final          (p-1 steps)
 *
 * Cost (Hockney, gamma: local reduction time per byte):
 *   2 (p-1) alpha + 2 ((p-1)/p) m beta + ((p-1)/p) m gamma:
 *   bandwidth-optimal for any p (no fold as in rabenseifner), latency
 *   linear in p: long messages on few processes.
 * Late arrival: every step needs the left neighbour's previous step, so one
 * late process stalls the whole ring; after the last arrival all 2 (p-1)
 * steps still run (the late process's block has to travel around).
 * Limitations: commutative ops only (each block is combined in ring order
 * starting at a different rank).  Blocks of ceil(count / p) elements
 * (sched/blocks.h): with count < p the last blocks are empty and their
 * steps carry nothing but latency.  Memory: one block.
 * Source: MPICH src/mpi/coll/allreduce/allreduce_intra_ring.c; Open MPI
 * coll_base_allreduce.c (ring); P. Patarasuk, X. Yuan, "Bandwidth optimal
 * all-reduce algorithms for clusters of workstations", JPDC 2009.
 */
#include "allreduce/allreduce.h"
#include "sched/blocks.h"

#include <stdlib.h>

/* Offset and count of block b of the ring's p blocks. */
static void *block_at(const pc_call_t *a, void *buf, int p, long b)
{
    return pc_red_at(a, buf, (long)pc_block_offset((size_t)a->count, p, b));
}
static long block_count(const pc_call_t *a, int p, long b) { return (long)pc_blocks_len((size_t)a->count, p, b, 1); }

int pc_allreduce_ring(const pc_call_t *a)
{
    int p = a->ctx->size, rank = a->ctx->rank, rc = MPI_SUCCESS;
    int right = (rank + 1) % p, left = (rank - 1 + p) % p;
    void *acc = a->recvbuf, *tmp, *tmp_base = NULL;

    if (a->count == 0) return MPI_SUCCESS;
    if (!(tmp = pc_red_alloc(a, block_count(a, p, 0), &tmp_base))) return MPI_ERR_NO_MEM;
    rc = pc_red_copy(a, acc, a->sendbuf, a->count);

    for (int i = 0; i < p - 1 && rc == MPI_SUCCESS; i++) {
        long send_block = ((long)rank - 1 - i + 2L * p) % p, recv_block = ((long)rank - 2 - i + 2L * p) % p;
        rc = pc_red_sendrecv(a, block_at(a, acc, p, send_block), block_count(a, p, send_block), right, tmp,
                             block_count(a, p, recv_block), left, PC_TAG_ALLREDUCE_SCATTER);
        if (rc == MPI_SUCCESS)
            rc = pc_red_local(a, tmp, block_at(a, acc, p, recv_block), block_count(a, p, recv_block));
    }
    for (int i = 0; i < p - 1 && rc == MPI_SUCCESS; i++) {
        long send_block = ((long)rank - i + p) % p, recv_block = ((long)rank - i - 1 + p) % p;
        rc = pc_red_sendrecv(a, block_at(a, acc, p, send_block), block_count(a, p, send_block), right,
                             block_at(a, acc, p, recv_block), block_count(a, p, recv_block), left,
                             PC_TAG_ALLREDUCE_GATHER);
    }
    free(tmp_base);
    return rc;
}
