/*
 * ring - the partial result of each block travels once round the ring: in
 * step k (0 .. p-2) every process sends its running sum of block
 * rank - k - 1 to its right neighbour and adds its own input to the sum of
 * block rank - k - 2 that comes from its left; after p - 1 steps the block
 * that ends at a process is its own, complete.
 *
 *   p = 3:  step 0: 0 -b2-> 1 -b0-> 2 -b1-> 0      (each adds its input)
 *           step 1: 0 -b1-> 1 -b2-> 2 -b0-> 0      0 ends with b0, 1 with b1, 2 with b2
 *
 * Cost (Hockney, m bytes in all, gamma per byte reduced): (p - 1) alpha +
 * (p - 1)/p m (beta + gamma), nearest-neighbour traffic only (no link
 * carries two messages at once); m bytes of scratch.
 * Late arrival: a late process stalls its right neighbour at once and,
 * step by step, the whole ring: after the last arrival up to p - 1 steps
 * remain (a process can only forward what it has received).
 * Order: each block is combined in ring order starting after its owner:
 * commutative ops only.
 * Source: Open MPI ompi/mca/coll/base/coll_base_reduce_scatter.c (ring);
 * Patarasuk and Yuan, "Bandwidth optimal all-reduce algorithms for clusters
 * of workstations", JPDC 69(2) 2009 (the reduce-scatter half).
 */
#include "reduce_scatter/reduce_scatter.h"

#include <stdlib.h>

int pc_reduce_scatter_ring(const pc_call_t *a)
{
    int p = a->ctx->size, me = a->ctx->rank, rc = MPI_SUCCESS;
    int right = (me + 1) % p, left = (me - 1 + p) % p;
    long *first = pc_rs_offsets(a), largest = 0;
    for (int i = 0; first && i < p; i++)
        if (pc_rs_count(a, i) > largest) largest = pc_rs_count(a, i);
    void *acc = NULL, *acc_base = NULL, *tmp = NULL, *tmp_base = NULL;
    if (first) acc = pc_red_alloc(a, a->count, &acc_base);
    if (acc) tmp = pc_red_alloc(a, largest, &tmp_base);
    if (!tmp) rc = MPI_ERR_NO_MEM;
    if (rc == MPI_SUCCESS) rc = pc_red_copy(a, acc, a->sendbuf, a->count);
    for (int k = 0; k < p - 1 && rc == MPI_SUCCESS; k++) {
        int give = (me - k - 1 + 2 * p) % p, take = (me - k - 2 + 2 * p) % p;
        rc = pc_red_sendrecv(a, pc_red_at(a, acc, first[give]), pc_rs_count(a, give), right, tmp, pc_rs_count(a, take),
                             left, PC_TAG_REDUCE_SCATTER_DATA);
        if (rc == MPI_SUCCESS) rc = pc_red_local(a, tmp, pc_red_at(a, acc, first[take]), pc_rs_count(a, take));
    }
    if (rc == MPI_SUCCESS) rc = pc_red_copy(a, a->recvbuf, pc_red_at(a, acc, first[me]), pc_rs_count(a, me));
    free(acc_base);
    free(tmp_base);
    free(first);
    return rc;
}
