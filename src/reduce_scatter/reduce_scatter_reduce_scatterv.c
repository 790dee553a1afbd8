/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * reduce_scatterv - reduce everything to rank 0 with the binomial reduce
 * (rank order kept), then hand each rank its block with the MPI library's
 * scatterv.  The algorithm for any op, commutative or not.
 *
 *   reduce:    x0 x1 x2 x3 --binomial--> rank 0: r = x0 op x1 op x2 op x3
 *   scatterv:  rank 0 --r[block i]--> rank i
 *
 * Cost (Hockney, m bytes in all, gamma per byte reduced): log2 p (alpha +
 * beta m + gamma m) for the reduce, then the scatterv (binomial: log2 p
 * alpha + (p - 1)/p m beta; linear: (p - 1) alpha + m beta); rank 0 holds
 * the whole result (m bytes of scratch).
 * Late arrival: the reduce lets early processes leave once their subtree's
 * data is sent, but everybody waits for the scatterv, which starts only when
 * rank 0 has everything: after the last arrival, its path up the tree plus
 * the scatter.
 * Source: MPICH's reduce_scatter for non-commutative ops before its
 * recursive-doubling variant (reduce + scatterv), the textbook composition.
 */
#include "reduce_scatter/reduce_scatter.h"
#include "coll/entry.h"
#include "reduce/reduce.h"

#include <stdlib.h>

int pc_reduce_scatter_reduce_scatterv(const pc_call_t *a)
{
    const pc_comm_t *c = a->ctx;
    int p = c->size, rc = MPI_SUCCESS;
    long *first = pc_rs_offsets(a);
    int *counts = malloc((size_t)p * sizeof *counts), *displs = malloc((size_t)p * sizeof *displs);
    void *result = NULL, *result_base = NULL;
    if (c->rank == 0) result = pc_red_alloc(a, a->count, &result_base);
    if (!first || !counts || !displs || (c->rank == 0 && !result)) rc = MPI_ERR_NO_MEM;
    for (int i = 0; rc == MPI_SUCCESS && i < p; i++) {
        counts[i] = (int)pc_rs_count(a, i);
        displs[i] = (int)first[i];
    }
    pc_call_t whole = *a; /* the same elements, as a reduce */
    whole.coll = &pc_reduce_coll;
    whole.vform = 0;
    if (rc == MPI_SUCCESS) rc = pc_reduce_on(&whole, "binomial", a->sendbuf, result, 0, c->comm);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Scatterv(result, counts, displs, a->datatype, a->recvbuf, counts[c->rank], a->datatype, 0, c->comm);
    free(result_base);
    free(first);
    free(counts);
    free(displs);
    return rc;
}
