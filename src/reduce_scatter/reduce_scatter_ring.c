/* SPDX-License-Identifier: BSD-3-Clause */
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
 * The receive of step k + 1 is posted before step k's block is waited for,
 * reduced and sent on (two receive buffers, alternating), so a block that
 * the left neighbour forwards always finds its receive posted and moves at
 * once: each step costs one message latency on the ring's critical path.
 * (Posting each step's send and receive together, as a sendrecv, leaves the
 * next receive unposted while the process reduces; the simulated ring then
 * took one more latency per step, 1.8x the time of Open MPI's ring at 256
 * ranks, docs/performance.md.)
 *
 * Cost (Hockney, m bytes in all, gamma per byte reduced): (p - 1) alpha +
 * (p - 1)/p m (beta + gamma), nearest-neighbour traffic only (no link
 * carries two messages at once); m bytes of scratch plus two blocks.
 * Late arrival: a late process stalls its right neighbour at once and,
 * step by step, the whole ring: after the last arrival up to p - 1 steps
 * remain (a process can only forward what it has received).
 * Order: each block is combined in ring order starting after its owner:
 * commutative ops only.
 * Source: Open MPI ompi/mca/coll/base/coll_base_reduce_scatter.c
 * (ompi_coll_base_reduce_scatter_intra_ring: the pre-posted, double-buffered
 * receive); Patarasuk and Yuan, "Bandwidth optimal all-reduce algorithms for
 * clusters of workstations", JPDC 69(2) 2009 (the reduce-scatter half).
 */
#include "reduce_scatter/reduce_scatter.h"

#include <stdlib.h>

/* Block travelling in step k: sent by me, and received from the left. */
static int sent_in_step(int me, int k, int p) { return (me - k - 1 + 2 * p) % p; }
static int received_in_step(int me, int k, int p) { return (me - k - 2 + 2 * p) % p; }

static int post_receive(const pc_call_t *a, void *buf, long n, int left, MPI_Request *req)
{
    return PMPI_Irecv(buf, (int)n, a->datatype, left, PC_TAG_REDUCE_SCATTER_DATA, a->ctx->comm, req);
}

int pc_reduce_scatter_ring(const pc_call_t *a)
{
    int p = a->ctx->size, me = a->ctx->rank, rc = MPI_SUCCESS;
    int right = (me + 1) % p, left = (me - 1 + p) % p;
    long *first = pc_rs_offsets(a), largest = 0;
    for (int i = 0; first && i < p; i++)
        if (pc_rs_count(a, i) > largest) largest = pc_rs_count(a, i);
    void *acc = NULL, *acc_base = NULL, *in[2] = {NULL, NULL}, *in_base[2] = {NULL, NULL};
    if (first) acc = pc_red_alloc(a, a->count, &acc_base);
    if (acc) in[0] = pc_red_alloc(a, largest, &in_base[0]);
    if (in[0]) in[1] = pc_red_alloc(a, largest, &in_base[1]);
    if (!in[1]) rc = MPI_ERR_NO_MEM;
    if (rc == MPI_SUCCESS) rc = pc_red_copy(a, acc, a->sendbuf, a->count);
    MPI_Request req[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    if (rc == MPI_SUCCESS && p > 1) {
        int take = received_in_step(me, 0, p), give = sent_in_step(me, 0, p);
        rc = post_receive(a, in[0], pc_rs_count(a, take), left, &req[0]);
        if (rc == MPI_SUCCESS) rc = pc_red_send(a, pc_red_at(a, acc, first[give]), pc_rs_count(a, give), right,
                                                PC_TAG_REDUCE_SCATTER_DATA);
    }
    for (int k = 0; k < p - 1 && rc == MPI_SUCCESS; k++) {
        int cur = k % 2, take = received_in_step(me, k, p);
        if (k + 1 < p - 1)
            rc = post_receive(a, in[!cur], pc_rs_count(a, received_in_step(me, k + 1, p)), left, &req[!cur]);
        if (rc == MPI_SUCCESS) rc = pc_wait_request(&req[cur], MPI_STATUS_IGNORE);
        if (rc == MPI_SUCCESS) rc = pc_red_local(a, in[cur], pc_red_at(a, acc, first[take]), pc_rs_count(a, take));
        /* the block just completed here is the one step k + 1 sends */
        if (rc == MPI_SUCCESS && k + 1 < p - 1)
            rc = pc_red_send(a, pc_red_at(a, acc, first[take]), pc_rs_count(a, take), right,
                             PC_TAG_REDUCE_SCATTER_DATA);
    }
    if (rc != MPI_SUCCESS) /* leave no receive behind */
        for (int i = 0; i < 2; i++)
            if (req[i] != MPI_REQUEST_NULL) PMPI_Cancel(&req[i]), pc_wait_request(&req[i], MPI_STATUS_IGNORE);
    if (rc == MPI_SUCCESS) rc = pc_red_copy(a, a->recvbuf, pc_red_at(a, acc, first[me]), pc_rs_count(a, me));
    free(acc_base);
    free(in_base[0]);
    free(in_base[1]);
    free(first);
    return rc;
}
