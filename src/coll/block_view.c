/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * block_view.c - the block view of the block collectives (see block_view.h).
 */
#include "coll/block_view.h"
#include "core/args.h"
#include "core/p2p.h"

#include <stdlib.h>
#include <string.h>

/* One side of the call as the caller gave it: n blocks of `type` elements. */
typedef struct {
    char *buf;
    int count;                  /* elements per block, when counts is NULL */
    const int *counts, *displs; /* the v forms */
    MPI_Datatype type;
    int n;
    const MPI_Datatype *types;  /* the w form: block i's datatype, displs in bytes (type unused) */
} user_side_t;

/* The memory behind one side's view. */
typedef struct {
    size_t *offset;
    char *packed; /* NULL: the view is the caller's buffer */
    MPI_Aint extent;
} view_t;

static int count_of(const user_side_t *u, int i) { return u->counts ? u->counts[i] : u->count; }
static MPI_Datatype type_of(const user_side_t *u, int i) { return u->types ? u->types[i] : u->type; }
static MPI_Aint displ_of(const user_side_t *u, int i) { return u->displs ? u->displs[i] : (MPI_Aint)i * u->count; }
static char *user_block(const user_side_t *u, const view_t *v, int i)
{
    return u->types ? u->buf + u->displs[i] : u->buf + displ_of(u, i) * v->extent;
}

/* all: one block per process (the arrays apply), else my one block */
static user_side_t send_side(const pc_call_t *a, int all)
{
    int arrays = all && a->vform && a->sendcounts; /* allgatherv / gatherv send one count */
    user_side_t u = {(char *)a->sendbuf, a->sendcount, arrays ? a->sendcounts : NULL, arrays ? a->sdispls : NULL,
                     a->sendtype, all ? a->ctx->size : 1, arrays && a->wform ? a->sendtypes : NULL};
    return u;
}

static user_side_t recv_side(const pc_call_t *a, int all)
{
    int arrays = all && a->vform && a->recvcounts; /* scatterv receives one count */
    user_side_t u = {a->recvbuf, a->recvcount, arrays ? a->recvcounts : NULL, arrays ? a->displs : NULL, a->recvtype,
                     all ? a->ctx->size : 1, arrays && a->wform ? a->recvtypes : NULL};
    return u;
}

/* The w form's direct view: the base that makes every non-empty block the
 * caller's bytes (its datatype without gaps, the blocks back to back in rank
 * order), or NULL when there is none. */
static char *w_direct_base(const user_side_t *u, const size_t *offset)
{
    char *base = NULL;
    for (int i = 0; i < u->n; i++) {
        if (offset[i + 1] == offset[i]) continue;
        MPI_Count size;
        MPI_Aint lb, extent, true_lb, true_extent;
        PMPI_Type_size_x(u->types[i], &size);
        PMPI_Type_get_extent(u->types[i], &lb, &extent);
        PMPI_Type_get_true_extent(u->types[i], &true_lb, &true_extent);
        if ((MPI_Aint)size != extent || true_extent != extent) return NULL;
        char *at = u->buf + u->displs[i] + true_lb;
        if (!base) base = at - offset[i];
        else if (at != base + offset[i]) return NULL;
    }
    return base ? base : u->buf;
}

/* view_build's w form: per-block datatypes. */
static int w_view_build(const user_side_t *u, int copy, pc_blocks_t *b, view_t *v)
{
    v->packed = NULL;
    v->extent = 1;
    v->offset = malloc((size_t)(u->n + 1) * sizeof *v->offset);
    if (!v->offset) return MPI_ERR_NO_MEM;
    v->offset[0] = 0;
    for (int i = 0; i < u->n; i++) {
        MPI_Count type_size;
        PMPI_Type_size_x(u->types[i], &type_size);
        v->offset[i + 1] = v->offset[i] + (size_t)u->counts[i] * (size_t)type_size;
    }
    b->offset = v->offset;
    char *direct = copy ? NULL : w_direct_base(u, v->offset);
    if (direct) {
        b->base = direct;
        return MPI_SUCCESS;
    }
    v->packed = malloc(v->offset[u->n] ? v->offset[u->n] : 1);
    b->base = v->packed;
    return v->packed ? MPI_SUCCESS : MPI_ERR_NO_MEM;
}

/* Builds the view of u: the caller's buffer when its blocks are gapless
 * and consecutive (and copy is 0), else a packed buffer (not filled). */
static int view_build(const user_side_t *u, int copy, pc_blocks_t *b, view_t *v)
{
    if (u->types) return w_view_build(u, copy, b, v);
    MPI_Count type_size; /* _x: a derived type may be larger than INT_MAX bytes */
    MPI_Aint lb, true_lb, true_extent;
    PMPI_Type_size_x(u->type, &type_size);
    PMPI_Type_get_extent(u->type, &lb, &v->extent);
    PMPI_Type_get_true_extent(u->type, &true_lb, &true_extent);
    v->packed = NULL;
    v->offset = malloc((size_t)(u->n + 1) * sizeof *v->offset);
    if (!v->offset) return MPI_ERR_NO_MEM;
    v->offset[0] = 0;
    int direct = !copy && (MPI_Aint)type_size == v->extent && true_extent == v->extent;
    for (int i = 0; i < u->n; i++) {
        v->offset[i + 1] = v->offset[i] + (size_t)count_of(u, i) * (size_t)type_size;
        if (i + 1 < u->n && displ_of(u, i + 1) != displ_of(u, i) + count_of(u, i)) direct = 0;
    }
    b->offset = v->offset;
    if (direct) {
        b->base = user_block(u, v, 0) + true_lb;
        return MPI_SUCCESS;
    }
    v->packed = malloc(v->offset[u->n] ? v->offset[u->n] : 1);
    b->base = v->packed;
    return v->packed ? MPI_SUCCESS : MPI_ERR_NO_MEM;
}

static void view_free(view_t *v)
{
    free(v->offset);
    free(v->packed);
}

/* MPICH 4.0.2's MPI_Pack and MPI_Unpack refuse a NULL buffer, MPI_BOTTOM
 * included (the w form's datatypes of absolute addresses): the same bytes
 * through the datatype shifted back by its first byte's address, from that
 * address. */
static int bottom_convert(int pack, char *packed, size_t bytes, int count, MPI_Datatype type, MPI_Comm comm)
{
    MPI_Aint true_lb, true_extent;
    PMPI_Type_get_true_extent(type, &true_lb, &true_extent);
    MPI_Aint shift = -true_lb;
    MPI_Datatype shifted;
    int rc = PMPI_Type_create_hindexed(1, &count, &shift, type, &shifted);
    if (rc != MPI_SUCCESS) return rc;
    if ((rc = PMPI_Type_commit(&shifted)) == MPI_SUCCESS) {
        char *at = (char *)MPI_BOTTOM + true_lb;
        rc = pack ? pc_pack(at, 1, shifted, packed, bytes, comm) : pc_unpack(packed, bytes, at, 1, shifted, comm);
    }
    PMPI_Type_free(&shifted);
    return rc;
}

/* Packs block i of the caller's layout into block i of a packed view. */
static int pack_block(const pc_call_t *a, const user_side_t *u, const view_t *v, const pc_blocks_t *b, int i)
{
    if (!user_block(u, v, i) && count_of(u, i) > 0)
        return bottom_convert(1, pc_blocks_at(b, i), pc_blocks_span(b, i, i), count_of(u, i), type_of(u, i),
                              a->ctx->comm);
    return pc_pack(user_block(u, v, i), count_of(u, i), type_of(u, i), pc_blocks_at(b, i), pc_blocks_span(b, i, i),
                   a->ctx->comm);
}

static int unpack_block(const pc_call_t *a, const user_side_t *u, const view_t *v, const pc_blocks_t *b, int i)
{
    if (!user_block(u, v, i) && count_of(u, i) > 0)
        return bottom_convert(0, pc_blocks_at(b, i), pc_blocks_span(b, i, i), count_of(u, i), type_of(u, i),
                              a->ctx->comm);
    return pc_unpack(pc_blocks_at(b, i), pc_blocks_span(b, i, i), user_block(u, v, i), count_of(u, i), type_of(u, i),
                     a->ctx->comm);
}

pc_block_sides_t pc_blocks_sides(const pc_call_t *a, int rank)
{
    const pc_block_shape_t *shape = a->coll->blocks;
    pc_block_sides_t s;
    s.at_root = (shape->send == PC_SIDE_ROOT_ALL || shape->recv == PC_SIDE_ROOT_ALL) && rank == a->root;
    s.send_all = shape->send == PC_SIDE_ALL || (shape->send == PC_SIDE_ROOT_ALL && s.at_root);
    s.recv_all = shape->recv == PC_SIDE_ALL || (shape->recv == PC_SIDE_ROOT_ALL && s.at_root);
    s.sends = !(shape->send == PC_SIDE_ROOT_ALL && !s.at_root);
    s.receives = !(shape->recv == PC_SIDE_ROOT_ALL && !s.at_root);
    s.send_in_place = s.sends && a->sendbuf == MPI_IN_PLACE;
    s.recv_in_place = s.receives && a->recvbuf == MPI_IN_PLACE;
    return s;
}

void pc_blocks_describe(pc_call_t *a)
{
    const pc_block_shape_t *shape = a->coll->blocks;
    int p = a->ctx->size, me = a->ctx->rank;
    MPI_Count type_size;
    if (a->vform && !(shape->send == PC_SIDE_ONE && shape->recv == PC_SIDE_ALL)) {
        a->bytes = PC_BYTES_VARY; /* alltoallv, gatherv, scatterv: only a process's own counts are known to it */
        return;
    }
    if (a->vform) { /* allgatherv: every process has every count */
        PMPI_Type_size_x(a->recvtype, &type_size);
        size_t elements = 0;
        for (int i = 0; i < p; i++) elements += (size_t)a->recvcounts[i];
        a->bytes = elements * (size_t)type_size;
        return;
    }
    /* equal blocks: p x one block, from a side this process has data on */
    int no_recv = (shape->recv == PC_SIDE_ROOT_ALL && me != a->root) ||
                  (shape->send == PC_SIDE_ROOT_ALL && me == a->root && a->inplace);
    PMPI_Type_size_x(no_recv ? a->sendtype : a->recvtype, &type_size);
    a->bytes = (size_t)p * (size_t)(no_recv ? a->sendcount : a->recvcount) * (size_t)type_size;
}

/* Bytes of one side of this process: its blocks (side: shape's), from the
 * view when an enclosing algorithm built one, else from the caller's counts;
 * none for an MPI_IN_PLACE side. */
static size_t side_bytes(const pc_call_t *a, pc_side_t side, const void *buf, const pc_blocks_t *view, int count,
                         const int *counts, MPI_Datatype type, const MPI_Datatype *types)
{
    int p = a->ctx->size, n = side == PC_SIDE_ONE ? 1 : side == PC_SIDE_ALL || a->ctx->rank == a->root ? p : 0;
    if (n == 0 || buf == MPI_IN_PLACE) return 0;
    if (view->offset) return pc_blocks_span(view, 0, n - 1);
    MPI_Count type_size; /* _x: a derived type may be larger than INT_MAX bytes */
    size_t bytes = 0;
    for (int i = 0; i < n; i++) {
        PMPI_Type_size_x(n > 1 && types ? types[i] : type, &type_size);
        bytes += (size_t)(n > 1 && counts ? counts[i] : count) * (size_t)type_size;
    }
    return bytes;
}

size_t pc_blocks_own_bytes(const pc_call_t *a)
{
    const pc_block_shape_t *shape = a->coll->blocks;
    return side_bytes(a, shape->send, a->sendbuf, &a->sblocks, a->sendcount, a->vform ? a->sendcounts : NULL,
                      a->sendtype, a->wform ? a->sendtypes : NULL) +
           side_bytes(a, shape->recv, a->recvbuf, &a->rblocks, a->recvcount, a->vform ? a->recvcounts : NULL,
                      a->recvtype, a->wform ? a->recvtypes : NULL);
}

int pc_blocks_run(const pc_algorithm_t *algo, pc_call_t *a)
{
    if (algo->requirements & PC_WANTS_DATATYPE) return algo->fn(a);
    const pc_block_shape_t *shape = a->coll->blocks;
    int me = a->ctx->rank, rc = MPI_SUCCESS;
    pc_block_sides_t sides = pc_blocks_sides(a, me);
    int at_root = sides.at_root, send_all = sides.send_all, recv_all = sides.recv_all;
    int has_recv = recv_all || shape->recv == PC_SIDE_ONE;
    if (shape->send == PC_SIDE_ROOT_ALL && at_root && a->inplace) has_recv = 0; /* scatter: the root keeps its block */
    int has_send = send_all || (shape->send == PC_SIDE_ONE && !recv_all); /* else my block goes into rblocks */
    user_side_t su = send_side(a, send_all), ru = recv_side(a, recv_all);
    if (a->inplace && send_all && recv_all) su = ru; /* alltoall in place: the data to send is in recvbuf */
    view_t sv = {0}, rv = {0};
    pc_blocks_t none = {NULL, NULL};
    a->sblocks = a->rblocks = none;
    if (has_recv) rc = view_build(&ru, 0, &a->rblocks, &rv);
    if (rc == MPI_SUCCESS && has_send) rc = view_build(&su, a->inplace && recv_all, &a->sblocks, &sv);
    for (int i = 0; rc == MPI_SUCCESS && sv.packed && i < su.n; i++) rc = pack_block(a, &su, &sv, &a->sblocks, i);
    /* my own data where it belongs */
    if (rc == MPI_SUCCESS && recv_all && !has_send) { /* allgather, gather's root: my block in rblocks */
        if (!a->inplace)
            rc = pc_pack(a->sendbuf, a->sendcount, a->sendtype, pc_blocks_at(&a->rblocks, me),
                         pc_blocks_span(&a->rblocks, me, me), a->ctx->comm);
        else if (rv.packed)
            rc = pack_block(a, &ru, &rv, &a->rblocks, me);
    } else if (rc == MPI_SUCCESS && send_all && has_recv) { /* alltoall, scatter's root */
        int mine = recv_all ? me : 0;
        memcpy(pc_blocks_at(&a->rblocks, mine), pc_blocks_at(&a->sblocks, me), pc_blocks_span(&a->rblocks, mine, mine));
    }
    if (rc == MPI_SUCCESS) rc = algo->fn(a);
    for (int i = 0; rc == MPI_SUCCESS && rv.packed && i < ru.n; i++)
        if (!(recv_all && i == me && a->inplace && !send_all)) rc = unpack_block(a, &ru, &rv, &a->rblocks, i);
    view_free(&sv);
    view_free(&rv);
    a->sblocks = a->rblocks = none;
    return rc;
}

void pc_blocks_node_offsets(const pc_call_t *a, const pc_blocks_t *b, size_t *node_offset)
{
    const pc_comm_t *c = a->ctx;
    node_offset[0] = 0;
    for (int k = 0; k < c->nnodes; k++) {
        size_t share = 0;
        for (int j = c->node_first[k]; j < c->node_first[k + 1]; j++)
            share += pc_blocks_span(b, c->node_members[j], c->node_members[j]);
        node_offset[k + 1] = node_offset[k] + share;
    }
}

void pc_blocks_to_node_order(const pc_call_t *a, const pc_blocks_t *b, char *dst)
{
    const pc_comm_t *c = a->ctx;
    for (int j = 0; j < c->size; j++) { /* node_members lists the ranks node by node */
        int r = c->node_members[j];
        size_t len = pc_blocks_span(b, r, r);
        if (len) memcpy(dst, pc_blocks_at(b, r), len);
        dst += len;
    }
}

static int nothing_else(const pc_call_t *a)
{
    (void)a;
    return MPI_SUCCESS;
}

int pc_blocks_single(const pc_call_t *a)
{
    static const pc_algorithm_t placement_only = {"single", nothing_else, 0, "one process: its own data only"};
    pc_call_t call = *a;
    return pc_blocks_run(&placement_only, &call);
}

int pc_blocks_sendrecv(const pc_call_t *a, const pc_blocks_t *from, int sfirst, int slast, int dst,
                       const pc_blocks_t *into, int rfirst, int rlast, int src, int tag)
{
    const char *sbuf = from && slast >= sfirst ? pc_blocks_at(from, sfirst) : NULL;
    char *rbuf = into && rlast >= rfirst ? pc_blocks_at(into, rfirst) : NULL;
    size_t sbytes = from ? pc_blocks_span(from, sfirst, slast) : 0, rbytes = into ? pc_blocks_span(into, rfirst, rlast) : 0;
    return pc_sendrecv(sbuf, sbytes, dst, rbuf, rbytes, src, tag, a->ctx->comm);
}
