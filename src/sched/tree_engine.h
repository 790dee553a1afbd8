/*
 * tree_engine.h - the one segmented tree engine.
 *
 * Moves a byte buffer from the root down any pc_tree_t, segment by segment:
 * a process receives segment s from its parent and forwards it to each child
 * before (blocking mode) or while (nonblocking mode) receiving segment s+1.
 * chain, chain_pipelined(_isend), linear, binomial and bintree_pipelined are
 * all this engine fed with different trees, segment sizes and send modes.
 */
#ifndef PC_TREE_ENGINE_H
#define PC_TREE_ENGINE_H

#include <mpi.h>
#include <stddef.h>

#include "sched/tree.h"

typedef enum {
    PC_SEND_BLOCKING,   /* MPI_Recv segment, then MPI_Send it to each child in turn (seed 004 MODE 3) */
    PC_SEND_NONBLOCKING /* receives posted ahead, MPI_Isend to children; at most max_inflight segments
                           outstanding per peer (seed 004 MODES 4-5) */
} pc_send_mode_t;

/* segsize 0 means one segment (the whole message). */
int pc_tree_bcast(void *buf, size_t bytes, size_t segsize, const pc_tree_t *tree, pc_send_mode_t mode,
                  int max_inflight, MPI_Comm comm, int tag);

#endif
