/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * app_persistent_blocks.h - the persistent block collectives of
 * app_persistent.c (MPI_Allgather(v)_init, MPI_Alltoall(v)_init,
 * MPI_Gather(v)_init, MPI_Scatter(v)_init, MPI_Reduce_scatter(_block)_init;
 * Open MPI's MPIX_ ones): their buffers and count arrays, the contents of
 * a run and its expected results (app_persistent_blocks.c).
 */
#ifndef APP_PERSISTENT_BLOCKS_H
#define APP_PERSISTENT_BLOCKS_H

#include "app_persistent_init.h" /* INIT(Name) */

enum {
    B_ALLGATHER, B_ALLGATHERV, B_ALLTOALL, B_ALLTOALLV, B_GATHER, B_GATHERV, B_SCATTER, B_SCATTERV,
    B_REDUCE_SCATTER, B_REDUCE_SCATTER_BLOCK, B_N
};
extern const char *const block_name[B_N];

/* One persistent block collective: MPI_INT blocks of about b elements (the
 * v forms' differ by rank), every element telling its sender, its
 * destination and its place. */
typedef struct {
    int coll, b, root, rank, p;
    int nin, nout;            /* elements sent, received here */
    int *in, *out, *ref;      /* ref: the expected out */
    int *sc, *sd, *rc, *rd;   /* send and receive blocks: counts, displacements (p each) */
    int nsend, nrecv;         /* blocks in in[] and out[] */
} block_coll_t;

/* Makes x (collective coll, b elements a block, root) on comm: its
 * persistent request; the MPI return code. */
int block_make(MPI_Comm comm, block_coll_t *x, int coll, int b, int root, MPI_Request *req);
/* New contents for run salt, and the expected results. */
void block_prepare(block_coll_t *x, int salt);
/* Whether the results are the expected ones. */
int block_verify(const block_coll_t *x);
void block_free(block_coll_t *x);

#endif
