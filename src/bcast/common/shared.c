/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bcast/common/shared.c - papcoll_bcast_shared (include/papcoll.h): the broadcast
 * whose result stays in node shared memory, Parsons 2015's "shared" copy-out
 * variant.  Outside MPI semantics: every process gets a read-only pointer
 * into memory its node shares, not the data in its own buffer.
 *
 *   all: node barrier (the previous result is no longer read)
 *   root: copies the message into its node's result area;  root's node: barrier
 *   node leaders: PAPCOLL_BCAST_INTER among leaders, the area as buffer
 *                 (the root's node's leader sends from it, the others
 *                  receive into it: no copy-in on those nodes)
 *   all: node barrier; *result = the area
 *
 * Idea: the copy-out is eliminated (Parsons 2015 Fig. 2.8 shows it as zero).
 * Cost (Hockney): one copy-in of m on the root's node, the inter-node
 * broadcast among N leaders, two or three node barriers; no copy-out.
 * Late arrival: a late process of a node delays the whole node (barriers),
 * and a late root or leader every node below it: this variant trades arrival
 * tolerance for the copy; a late reader costs the others its lateness.
 * Limitations: contiguous data only (MPI_ERR_TYPE otherwise); the area is one
 * node block (ctx/node_window.h) per communicator and node, grown to the
 * largest message broadcast so (not shrunk), freed with the communicator.
 * Parameters: PAPCOLL_BCAST_INTER.
 * Source: Parsons 2015 §2.3.3 ("Shared Memory"), 2.5.3.
 */
#include <papcoll.h>

#include "bcast/bcast.h"
#include "core/args.h"
#include "core/params.h"
#include "ctx/comm.h"
#include "ctx/node_window.h"
#include "ctx/shm.h"

#include <stdlib.h>

typedef struct result_area {
    pc_node_window_t window; /* none until the first call with data */
    size_t capacity;
} result_area_t;

static int area_keyval = MPI_KEYVAL_INVALID;

static int delete_area(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)comm; (void)keyval; (void)extra;
    result_area_t *r = value;
    pc_node_window_free(&r->window); /* the node frees its communicator together */
    free(r);
    return MPI_SUCCESS;
}

/* The node's result area of at least `bytes` (collective over ctx->node when it grows). */
static int result_area(pc_comm_t *ctx, size_t bytes, char **base)
{
    int found = 0;
    result_area_t *r = NULL;
    int rc = pc_comm_cache_get(ctx->node, &area_keyval, delete_area, &r, &found);
    if (rc == MPI_SUCCESS && !found) {
        r = calloc(1, sizeof *r);
        if (!r) return MPI_ERR_NO_MEM;
        rc = PMPI_Comm_set_attr(ctx->node, area_keyval, r);
        if (rc != MPI_SUCCESS) {
            free(r);
            return rc;
        }
    }
    if (rc != MPI_SUCCESS) return rc;
    if (r->capacity < bytes) { /* every node process: same history, same bytes, same decision */
        pc_node_window_free(&r->window);
        r->capacity = 0;
        rc = pc_node_window_allocate(ctx->node, bytes, &r->window);
        if (rc != MPI_SUCCESS) return rc;
        r->capacity = bytes;
    }
    *base = r->window.base;
    return MPI_SUCCESS;
}

/* MPI_SUCCESS if count elements of type are contiguous bytes; *lb: where they start. */
static int contiguous(int count, MPI_Datatype type, MPI_Aint *lb, size_t *bytes)
{
    int size;
    MPI_Aint elb, extent, tlb, textent;
    int rc = PMPI_Type_size(type, &size);
    if (rc == MPI_SUCCESS) rc = PMPI_Type_get_extent(type, &elb, &extent);
    if (rc == MPI_SUCCESS) rc = PMPI_Type_get_true_extent(type, &tlb, &textent);
    if (rc != MPI_SUCCESS) return rc;
    if (count > 1 && extent != (MPI_Aint)size) return MPI_ERR_TYPE; /* gaps between elements */
    if (size > 0 && textent != (MPI_Aint)size) return MPI_ERR_TYPE;  /* gaps inside one */
    *lb = tlb;
    *bytes = (size_t)count * (size_t)size;
    return MPI_SUCCESS;
}

int papcoll_bcast_shared(const void *buf, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                         const void **result)
{
    int rc = pc_check_comm(comm);
    if (rc != MPI_SUCCESS) return pc_error(MPI_COMM_WORLD, rc);
    if (pc_is_intercomm(comm)) return pc_error(comm, MPI_ERR_COMM);
    rc = result ? pc_check_type_count(count, datatype) : MPI_ERR_ARG;
    if (rc == MPI_SUCCESS) rc = pc_check_root(root, comm);
    MPI_Aint lb = 0;
    size_t bytes = 0;
    if (rc == MPI_SUCCESS) rc = contiguous(count, datatype, &lb, &bytes);
    pc_comm_t *ctx = NULL;
    if (rc == MPI_SUCCESS) rc = pc_comm_get(comm, &ctx);
    if (rc == MPI_SUCCESS && ctx->rank == root && bytes > 0 && !buf) rc = MPI_ERR_BUFFER;
    if (rc != MPI_SUCCESS) return pc_error(comm, rc);
    *result = NULL;
    if (bytes == 0) return MPI_SUCCESS;
    pc_shm_t *shm;
    char *area;
    rc = pc_shm_get(ctx, &shm);
    if (rc != MPI_SUCCESS) return pc_error(comm, rc);
    pc_shm_barrier(shm); /* every node process is done with its previous result */
    rc = result_area(ctx, bytes, &area);
    if (rc != MPI_SUCCESS) return pc_error(comm, rc);
    int root_node = ctx->node_of[root];
    if (ctx->my_node == root_node) {
        if (ctx->rank == root) pc_shm_copy(area, (const char *)buf + lb, bytes, shm);
        pc_shm_barrier(shm); /* the leader sends from the area */
    }
    if (ctx->leaders != MPI_COMM_NULL && ctx->nnodes > 1)
        rc = pc_bcast_bytes_on(pc_params()->bcast.inter, area, bytes, root_node, ctx->leaders);
    pc_shm_barrier(shm); /* reached even after an error: the node must not hang */
    if (rc != MPI_SUCCESS) return pc_error(comm, rc);
    *result = area;
    return MPI_SUCCESS;
}
