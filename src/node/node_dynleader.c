/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * node_dynleader.c - the dynamic-leader climb of a node reduction (see
 * node_dynleader.h).
 */
#include "node/node_dynleader.h"
#include "core/log.h"
#include "core/phase.h"
#include "core/p2p.h"
#include "ctx/early.h"

#include <stdlib.h>
#include <string.h>

static int child_slot(const pc_dynleader_t *d, int rank)
{
    int node = d->a->ctx->node_of[rank];
    for (int j = 0; j < d->tree.nchildren; j++)
        if (d->tree.children[j] == node) return j;
    return -1;
}

/* The first chunk's message: the header {seq, sender} then `count`
 * elements at buf. */
static int first_chunk_type(const pc_call_t *a, long long *header, const void *buf, long count, MPI_Datatype *t)
{
    return pc_header_type(header, 2, buf, (int)count, a->datatype, t);
}

void pc_dynleader_end(pc_dynleader_t *d)
{
    int nch = d->tree.nchildren;
    /* after an error only: a child's first chunk never came; its receive goes */
    for (int i = 0; d->req && i < nch; i++)
        if (d->req[i] != MPI_REQUEST_NULL) {
            PMPI_Cancel(&d->req[i]);
            pc_wait_request(&d->req[i], MPI_STATUS_IGNORE);
        }
    for (int i = 0; d->packed && i < nch; i++) free(d->packed[i]);
    for (int i = 0; d->base && i < nch; i++) free(d->base[i]);
    free(d->base);
    free(d->buf);
    free(d->req);
    free(d->packed);
    free(d->earlier);
    free(d->held);
    free(d->sender);
    pc_tree_free(&d->tree);
    pc_node_red_end(&d->r);
}

/* The receive of one child's first chunk into packed buffer i, from whoever
 * leads that child node. */
static int post_first(pc_dynleader_t *d, int i)
{
    return PMPI_Irecv(d->packed[i], d->packed_cap, MPI_PACKED, MPI_ANY_SOURCE, pc_window_tag(d->tag_first, d->a->seq),
                      d->a->ctx->comm, &d->req[i]);
}

/* The mailbox's per-child state, and a posted receive for each child's
 * first chunk: it may come at any time from now, from whoever leads that
 * child node, unless an earlier call of mine received it (kept, ctx/early.h:
 * the request stays MPI_REQUEST_NULL and receive_children takes it).  The
 * first chunk is received packed (MPI_PACKED, which matches any message),
 * into room for a whole bank: a later call's first chunk, which may come
 * instead when its leader is a whole tag window of calls ahead, is never
 * larger than that, so it is received whole and kept for its call. */
static int mailbox_begin(pc_dynleader_t *d)
{
    const pc_call_t *a = d->a;
    int nch = d->tree.nchildren, rc = MPI_SUCCESS, header_cap, data_cap;
    d->sender = malloc((size_t)nch * sizeof *d->sender);
    d->held = malloc((size_t)nch * sizeof *d->held);
    d->req = malloc((size_t)nch * sizeof *d->req);
    d->packed = calloc((size_t)nch, sizeof *d->packed);
    d->earlier = malloc((size_t)nch * sizeof *d->earlier);
    d->buf = calloc((size_t)nch, sizeof *d->buf);
    d->base = calloc((size_t)nch, sizeof *d->base);
    if (!d->sender || !d->held || !d->req || !d->packed || !d->earlier || !d->buf || !d->base) {
        free(d->req);
        d->req = NULL; /* nothing to cancel */
        return MPI_ERR_NO_MEM;
    }
    for (int i = 0; i < nch; i++) {
        d->sender[i] = -1;
        d->req[i] = MPI_REQUEST_NULL;
    }
    rc = PMPI_Pack_size(2, MPI_LONG_LONG, a->ctx->comm, &header_cap);
    if (rc == MPI_SUCCESS) rc = PMPI_Pack_size((int)d->r.chunk, a->datatype, a->ctx->comm, &data_cap);
    if (rc != MPI_SUCCESS) return rc;
    d->packed_cap = header_cap + (data_cap > (int)d->r.bank_bytes ? data_cap : (int)d->r.bank_bytes);
    int tag = pc_window_tag(d->tag_first, a->seq);
    size_t got;
    for (int i = 0; i < nch && rc == MPI_SUCCESS; i++) {
        d->buf[i] = pc_red_alloc(a, d->r.chunk, &d->base[i]);
        d->packed[i] = malloc((size_t)d->packed_cap);
        if (!d->buf[i] || !d->packed[i]) rc = MPI_ERR_NO_MEM;
        else if (pc_early_take(a->ctx, tag, a->seq, MPI_ANY_SOURCE, d->packed[i], (size_t)d->packed_cap,
                               &d->earlier[i].from, &got))
            d->earlier[i].len = (int)got; /* kept by an earlier call of mine */
        else
            rc = post_first(d, i);
    }
    return rc;
}

int pc_dynleader_begin(pc_dynleader_t *d, const pc_call_t *a, int root, pc_tree_shape_t shape, int tag_first,
                       int tag_next, int fixed)
{
    memset(d, 0, sizeof *d);
    d->a = a;
    d->root = root;
    d->tag_first = tag_first;
    d->tag_next = tag_next;
    d->fixed = fixed;
    const pc_comm_t *c = a->ctx;
    d->root_node = c->node_of[root];
    int rc = pc_node_red_begin(a, PC_NODE_RED_SHARED, &d->r);
    if (rc != MPI_SUCCESS || d->r.chunk == 0) return rc;
    if (pc_tree_build(&d->tree, shape, 2, c->my_node, c->nnodes, d->root_node)) return MPI_ERR_NO_MEM;
    d->mailbox = pc_node_mailbox(c, root, c->my_node);
    d->parent_mailbox = d->tree.parent < 0 ? -1 : pc_node_mailbox(c, root, d->tree.parent);
    d->is_mailbox = c->rank == d->mailbox;
    d->r.contributors = c->node_size + d->tree.nchildren;
    return d->is_mailbox && d->tree.nchildren > 0 ? mailbox_begin(d) : MPI_SUCCESS;
}

/* Child chunk 0 came packed into buffer i (len bytes, from `from`): its
 * header names the call and the sender.  This call's is unpacked into
 * buffer i (*mine = 1); a later call's is kept for that call and the
 * receive posted again (*mine = 0). */
static int first_came(pc_dynleader_t *d, const pc_node_chunk_t *ch, int i, int len, int from, int *mine)
{
    const pc_call_t *a = d->a;
    long long header[2] = {-1, -1};
    int pos = 0, rc = PMPI_Unpack(d->packed[i], len, &pos, header, 2, MPI_LONG_LONG, a->ctx->comm);
    *mine = 0;
    if (rc == MPI_SUCCESS && header[0] > (long long)a->seq && header[1] == from) {
        rc = pc_early_keep(a->ctx, pc_window_tag(d->tag_first, a->seq), (unsigned long)header[0], from, d->packed[i],
                           (size_t)len);
        return rc == MPI_SUCCESS ? post_first(d, i) : rc;
    }
    int j = child_slot(d, from);
    if (rc == MPI_SUCCESS && (header[0] != (long long)a->seq || header[1] != from || j < 0 || d->sender[j] >= 0)) {
        pc_log(PC_LOG_WARN, "dynleader: unexpected first chunk (call %lld, from %d) in call %lu", header[0], from,
               a->seq);
        rc = MPI_ERR_INTERN;
    }
    if (rc == MPI_SUCCESS) rc = PMPI_Unpack(d->packed[i], len, &pos, d->buf[i], (int)ch->count, a->datatype, a->ctx->comm);
    if (rc != MPI_SUCCESS) return rc;
    d->sender[j] = from;
    d->held[i] = j;
    *mine = 1;
    return MPI_SUCCESS;
}

/* Mailbox: receives every child's chunk k (the first one from any source,
 * the others from the sender of the first) and combines it into the node's
 * accumulator as contribution node_size + j for child j, in arrival order
 * (in child order when reproducible); *last as pc_node_red_combine's. */
static int receive_children(pc_dynleader_t *d, const pc_node_chunk_t *ch, long k, int *last)
{
    const pc_call_t *a = d->a;
    int nch = d->tree.nchildren, n = a->ctx->node_size, rc = MPI_SUCCESS;
    int ordered = a->params->reproducible != 0, next = 0, got = 0;
    int *in = malloc((size_t)nch * sizeof *in); /* in[j]: buffer holding child j's chunk, -1 not yet */
    int *kept = malloc((size_t)nch * sizeof *kept), nkept = 0; /* buffers holding first chunks kept by earlier calls */
    if (!in || !kept) {
        free(in);
        free(kept);
        return MPI_ERR_NO_MEM;
    }
    for (int j = 0; j < nch; j++) in[j] = -1;
    for (int i = 0; k > 0 && i < nch && rc == MPI_SUCCESS; i++) {
        d->held[i] = i;
        rc = PMPI_Irecv(d->buf[i], (int)ch->count, a->datatype, d->sender[i], d->tag_next, a->ctx->comm, &d->req[i]);
    }
    for (int i = 0; k == 0 && i < nch; i++)
        if (d->req[i] == MPI_REQUEST_NULL) kept[nkept++] = i;
    while (got < nch && rc == MPI_SUCCESS) {
        int i, mine = 1;
        if (nkept > 0) { /* it came in an earlier call of mine */
            i = kept[--nkept];
            rc = first_came(d, ch, i, d->earlier[i].len, d->earlier[i].from, &mine);
        } else {
            MPI_Status st;
            rc = PMPI_Waitany(nch, d->req, &i, &st);
            if (rc != MPI_SUCCESS || i == MPI_UNDEFINED) break;
            int len;
            if (k == 0 && (rc = PMPI_Get_count(&st, MPI_PACKED, &len)) == MPI_SUCCESS)
                rc = first_came(d, ch, i, len, st.MPI_SOURCE, &mine);
        }
        if (rc != MPI_SUCCESS || !mine) continue;
        got++;
        in[d->held[i]] = i;
        for (int j = ordered ? next : 0; j < nch && rc == MPI_SUCCESS; j++) {
            if (in[j] < 0) {
                if (ordered) break;
                continue;
            }
            int was_last = 0;
            rc = pc_node_red_combine(&d->r, ch, d->buf[in[j]], n + j, &was_last);
            *last |= was_last;
            in[j] = -2; /* combined */
            if (ordered) next = j + 1;
        }
    }
    /* the next chunk's messages come from the senders of the first */
    for (int j = 0; j < nch && rc == MPI_SUCCESS; j++) d->held[j] = j;
    free(in);
    free(kept);
    return rc;
}

/* Leader of a node other than the root's: the node's result goes to the
 * parent node's mailbox (the first chunk with the header). */
static int send_up(pc_dynleader_t *d, const pc_node_chunk_t *ch, long k)
{
    const pc_call_t *a = d->a;
    const char *acc = pc_node_red_slot(&d->r, ch, 0);
    if (k > 0) return PMPI_Send(acc, (int)ch->count, a->datatype, d->parent_mailbox, d->tag_next, a->ctx->comm);
    long long header[2] = {(long long)a->seq, a->ctx->rank};
    MPI_Datatype t;
    int rc = first_chunk_type(a, header, acc, ch->count, &t);
    if (rc != MPI_SUCCESS) return rc;
    rc = PMPI_Send(MPI_BOTTOM, 1, t, d->parent_mailbox, pc_window_tag(d->tag_first, a->seq), a->ctx->comm);
    PMPI_Type_free(&t);
    return rc;
}

int pc_dynleader_climb(pc_dynleader_t *d, const pc_node_chunk_t *ch, long k)
{
    const pc_call_t *a = d->a;
    int last = 0;
    int rc = pc_node_red_combine(&d->r, ch, pc_red_at(a, a->sendbuf, ch->first), a->ctx->node_rank, &last);
    if (d->is_mailbox && d->tree.nchildren > 0 && rc == MPI_SUCCESS) rc = receive_children(d, ch, k, &last);
    if (k == 0) d->leads = d->parent_mailbox >= 0 && (d->fixed ? d->is_mailbox : last);
    if (k == 0 && d->leads) pc_phase_mark_leader();
    if (d->leads) {
        pc_node_red_wait_arrived(&d->r, ch);
        int lrc = send_up(d, ch, k);
        if (rc == MPI_SUCCESS) rc = lrc;
    }
    return rc;
}
