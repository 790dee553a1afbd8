/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * shapes.h - the communicators the tests run on, and their nodes as the test
 * itself computes them (never asking the library).
 *
 * Matrix shapes (harness_matrix_shape):
 *   world             MPI_COMM_WORLD's order
 *   reversed          ranks in reverse order
 *   oddeven           two communicators, even and odd world ranks
 *                     (these three: the nodes of the test's own PAPCOLL_PPN,
 *                     the real node when it is unset)
 *   vnodes3           world order, virtual nodes of 3 ranks (PAPCOLL_PPN=3)
 *   vnodes3_reversed  reversed order, virtual nodes of 3 world ranks: node
 *                     members are not consecutive in the communicator
 *
 * Node-mapped shapes (harness_shape_t): any communicator, with PAPCOLL_PPN
 * set while its context is created and the node map of each rank (nodes of
 * `ppn` consecutive world ranks, or the real nodes for ppn 0), for arrival
 * patterns that target nodes.
 *
 * PAPCOLL_PPN applies when the library first builds a communicator's
 * context, so a context function (a count-0 collective) runs while it is
 * set.
 */
#ifndef PC_HARNESS_SHAPES_H
#define PC_HARNESS_SHAPES_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

/* Makes the library build the context of comm; returns an MPI error code. */
typedef int (*harness_context_fn)(MPI_Comm comm);
/* The default: papcoll_bcast of count 0. */
int harness_bcast_context(MPI_Comm comm);

enum { HARNESS_NSHAPES = 5 };
extern const char *const harness_shape_names[HARNESS_NSHAPES];
/* Communicator of matrix shape s (see above); create_context NULL means
 * harness_bcast_context. */
MPI_Comm harness_matrix_shape(int s, harness_context_fn create_context);

/* Every matrix shape at once: communicator, this process's rank, size. */
typedef struct {
    MPI_Comm comm[HARNESS_NSHAPES];
    int rank[HARNESS_NSHAPES], size[HARNESS_NSHAPES];
    int max_size;   /* the largest size */
} harness_matrix_shapes_t;
/* Creates them (harness_matrix_shape); with errors_return, their error
 * handler is MPI_ERRORS_RETURN (else the default, fatal). */
void harness_matrix_shapes_init(harness_matrix_shapes_t *shapes, harness_context_fn create_context,
                                int errors_return);
void harness_matrix_shapes_free(harness_matrix_shapes_t *shapes);

typedef struct {
    const char *name;
    MPI_Comm comm;
    int rank, size, nnodes;
    int *node_of;   /* [size] node of each rank; nodes numbered by lowest member */
    int *node_idx;  /* [size] position of each rank among its node's members (0 = lowest rank) */
    int *node_n;    /* [nnodes] members per node */
    int *members;   /* [nnodes][size] ranks of each node, increasing */
    int max_n;
} harness_shape_t;

/* Computes this process's node key: world_rank / ppn, or the lowest world
 * rank sharing its memory (MPI_COMM_TYPE_SHARED) when ppn is 0.  Collective
 * over MPI_COMM_WORLD; call once before harness_shape_init. */
void harness_node_key_init(int ppn);
/* Takes ownership of comm: sets MPI_ERRORS_RETURN, PAPCOLL_PPN=ppn while
 * create_context runs (under the watchdog; failure aborts the job), and
 * computes the node map. */
void harness_shape_init(harness_shape_t *s, const char *name, MPI_Comm comm, int ppn,
                        harness_context_fn create_context);
void harness_shape_free(harness_shape_t *s);
/* Prints "  shape NAME nodes: {0,1} {2,3}..." (call on one rank). */
void harness_shape_print(const harness_shape_t *s);

/* The shapes of the adversarial tests' patterns part: world, reversed,
 * interleaved (even world ranks first), shuffled (seeded permutation),
 * each harness_shape_init'ed; printed on rank 0. */
enum { HARNESS_NPATTERN_SHAPES = 4 };
void harness_pattern_shapes_init(harness_shape_t shapes[HARNESS_NPATTERN_SHAPES], int ppn,
                                 harness_context_fn create_context, uint64_t seed);
/* Communicator i of the adversarial tests' comms part, by i % 4: a dup of
 * MPI_COMM_WORLD, reversed, interleaved, or the half of the world ranks of
 * my parity (reversed); its name, e.g. "comm5(reversed)", in name[len]. */
MPI_Comm harness_numbered_comm(int i, char *name, size_t len);

/* MPI_Comm_split of MPI_COMM_WORLD. */
MPI_Comm harness_split(int color, int key);
/* Keys for harness_split: even world ranks first, then odd ones; a seeded
 * permutation. */
int harness_interleaved_key(void);
int harness_shuffled_key(uint64_t seed);

#endif
