/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bcast/common/tree.c - segment size model and the glue from a tree shape to
 * the segmented tree engine, shared by the tree-shaped broadcasts.
 */
#include "bcast/bcast.h"
#include "sched/tree_engine.h"
#include "core/p2p.h"

#include <math.h>

size_t pc_bcast_segsize(const pc_params_t *p, size_t bytes, int stages)
{
    if (bytes == 0) return 0;
    if (p->bcast.chunks > 0) return (bytes + (size_t)p->bcast.chunks - 1) / (size_t)p->bcast.chunks;
    if (p->bcast.segsize > 0) return p->bcast.segsize;
    double k = stages > 1 && p->alpha > 0 ? sqrt((double)bytes * (stages - 1) * p->beta / p->alpha) : 1.0;
    if (k < 1) k = 1;
    size_t seg = (size_t)ceil((double)bytes / k);
    if (seg > p->segsize_max) seg = p->segsize_max;
    if (seg < p->segsize_min) seg = p->segsize_min;
    return seg;
}

int pc_bcast_tree(const pc_call_t *a, pc_tree_shape_t shape, int segmented, int nonblocking)
{
    pc_tree_t tree;
    if (pc_tree_build(&tree, shape, (int)a->params->bcast.knomial_radix, a->ctx->rank, a->ctx->size, a->root))
        return MPI_ERR_NO_MEM; /* the radix counts for PC_TREE_KNOMIAL only */
    size_t segsize = segmented ? pc_bcast_segsize(a->params, a->bytes, tree.height) : 0;
    int rc = pc_tree_bcast(a->buf, a->bytes, segsize, &tree, nonblocking ? PC_SEND_NONBLOCKING : PC_SEND_BLOCKING,
                           (int)a->params->max_inflight, a->ctx->comm, PC_TAG_BCAST_DATA);
    pc_tree_free(&tree);
    return rc;
}
