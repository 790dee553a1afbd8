/*
 * node_dynleader.c - the dynamic-leader climb of a node reduction (see
 * node_dynleader.h).
 */
#include "node/node_dynleader.h"
#include "core/log.h"
#include "core/p2p.h"
#include "ctx/early.h"

#include <stdlib.h>
#include <string.h>

static int mailbox_of(const pc_dynleader_t *d, int node)
{
    return node == d->root_node ? d->root : pc_node_leader(d->a->ctx, node);
}

static int child_slot(const pc_dynleader_t *d, int rank)
{
    int node = d->a->ctx->node_of[rank];
    for (int j = 0; j < d->tree.nchildren; j++)
        if (d->tree.children[j] == node) return j;
    return -1;
}

void pc_dynleader_end(pc_dynleader_t *d)
{
    int nch = d->tree.nchildren;
    /* after an error only: a child's header or chunk never came; its receive goes */
    for (int i = 0; d->req && i < 2 * nch; i++)
        if (d->req[i] != MPI_REQUEST_NULL) {
            PMPI_Cancel(&d->req[i]);
            PMPI_Wait(&d->req[i], MPI_STATUS_IGNORE);
        }
    for (int i = 0; d->base && i < nch; i++) free(d->base[i]);
    free(d->header);
    free(d->base);
    free(d->buf);
    free(d->req);
    free(d->sender);
    pc_tree_free(&d->tree);
    pc_node_red_end(&d->r);
}

/* The receive of one child's header {seq, leader}, from whoever leads it. */
static int post_header(pc_dynleader_t *d, int i)
{
    return PMPI_Irecv(d->header[i], 2, MPI_LONG_LONG, MPI_ANY_SOURCE, pc_window_tag(d->tag_first, d->a->seq),
                      d->a->ctx->comm, &d->req[i]);
}

/* The mailbox's per-child state: a chunk buffer per child, and a posted
 * receive for each child's header: it may come at any time from now, from
 * whoever leads that child node, unless an earlier call of mine received
 * it already (kept: ctx/early.h). */
static int mailbox_begin(pc_dynleader_t *d)
{
    const pc_call_t *a = d->a;
    int nch = d->tree.nchildren, rc = MPI_SUCCESS;
    d->sender = malloc((size_t)nch * sizeof *d->sender);
    d->header = malloc((size_t)nch * sizeof *d->header);
    d->req = malloc(2 * (size_t)nch * sizeof *d->req);
    d->buf = calloc((size_t)nch, sizeof *d->buf);
    d->base = calloc((size_t)nch, sizeof *d->base);
    if (!d->sender || !d->header || !d->req || !d->buf || !d->base) {
        free(d->req);
        d->req = NULL; /* nothing to cancel */
        return MPI_ERR_NO_MEM;
    }
    for (int i = 0; i < nch; i++) d->sender[i] = -1;
    for (int i = 0; i < 2 * nch; i++) d->req[i] = MPI_REQUEST_NULL;
    int tag = pc_window_tag(d->tag_first, a->seq), from;
    size_t got;
    for (int i = 0; i < nch && rc == MPI_SUCCESS; i++) {
        d->buf[i] = pc_red_alloc(a, d->r.chunk, &d->base[i]);
        if (!d->buf[i]) rc = MPI_ERR_NO_MEM;
        else if (!pc_early_take(a->ctx, tag, a->seq, MPI_ANY_SOURCE, d->header[i], sizeof d->header[i], &from, &got))
            rc = post_header(d, i);
        else if (got != sizeof d->header[i]) rc = MPI_ERR_INTERN;
        /* else kept: no request (MPI_REQUEST_NULL); receive_children takes it first */
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
    d->mailbox = mailbox_of(d, c->my_node);
    d->parent_mailbox = d->tree.parent < 0 ? -1 : mailbox_of(d, d->tree.parent);
    d->is_mailbox = c->rank == d->mailbox;
    d->r.contributors = c->node_size + d->tree.nchildren;
    return d->is_mailbox && d->tree.nchildren > 0 ? mailbox_begin(d) : MPI_SUCCESS;
}

/* Header i {seq, leader} came from `from`: its child's chunk 0 is received
 * from that leader, into the child's buffer.  A later call's header (from a
 * leader a whole tag window ahead) is kept for that call and the receive
 * posted again. */
static int header_came(pc_dynleader_t *d, const pc_node_chunk_t *ch, int i, int from)
{
    const pc_call_t *a = d->a;
    long long *h = d->header[i];
    if (h[0] > (long long)a->seq) {
        int rc = pc_early_keep(a->ctx, pc_window_tag(d->tag_first, a->seq), (unsigned long)h[0], from, h,
                               sizeof d->header[i]);
        return rc == MPI_SUCCESS ? post_header(d, i) : rc;
    }
    int j = child_slot(d, from);
    if (h[0] != (long long)a->seq || h[1] != from || j < 0 || d->sender[j] >= 0) {
        pc_log(PC_LOG_WARN, "dynleader: unexpected header (call %lld, from %d) in call %lu", h[0], from, a->seq);
        return MPI_ERR_INTERN;
    }
    d->sender[j] = from;
    int nch = d->tree.nchildren;
    return PMPI_Irecv(d->buf[j], (int)ch->count, a->datatype, from, d->tag_next, a->ctx->comm, &d->req[nch + j]);
}

/* Mailbox: receives every child's chunk k from its node's leader (on chunk
 * 0 once the leader's header names it, on the next ones at once) and
 * combines it into the node's accumulator as contribution node_size + j for
 * child j, in arrival order (in child order when reproducible); *last as
 * pc_node_red_combine's.  Requests: [0, nch) the headers, [nch, 2 nch) the
 * chunks, child j's into buffer j. */
static int receive_children(pc_dynleader_t *d, const pc_node_chunk_t *ch, long k, int *last)
{
    const pc_call_t *a = d->a;
    int nch = d->tree.nchildren, n = a->ctx->node_size, rc = MPI_SUCCESS;
    int ordered = a->params->reproducible != 0, next = 0;
    char *in = calloc((size_t)nch, 1); /* in[j]: child j's chunk came, 2: combined */
    if (!in) return MPI_ERR_NO_MEM;
    for (int j = 0; k > 0 && j < nch && rc == MPI_SUCCESS; j++)
        rc = PMPI_Irecv(d->buf[j], (int)ch->count, a->datatype, d->sender[j], d->tag_next, a->ctx->comm,
                        &d->req[nch + j]);
    for (int i = 0; k == 0 && i < nch && rc == MPI_SUCCESS; i++)
        if (d->req[i] == MPI_REQUEST_NULL) /* kept by an earlier call: it came from its leader, d->header[i][1] */
            rc = header_came(d, ch, i, (int)d->header[i][1]);
    for (int got = 0; got < nch && rc == MPI_SUCCESS;) {
        int i;
        MPI_Status st;
        rc = PMPI_Waitany(2 * nch, d->req, &i, &st);
        if (rc != MPI_SUCCESS || i == MPI_UNDEFINED) break;
        if (i < nch) {
            rc = header_came(d, ch, i, st.MPI_SOURCE);
            continue;
        }
        in[i - nch] = 1, got++;
        for (int j = ordered ? next : 0; j < nch && rc == MPI_SUCCESS; j++) {
            if (in[j] != 1) {
                if (ordered && in[j] == 0) break;
                continue;
            }
            int was_last = 0;
            rc = pc_node_red_combine(&d->r, ch, d->buf[j], n + j, &was_last);
            *last |= was_last;
            in[j] = 2;
            if (ordered) next = j + 1;
        }
    }
    free(in);
    return rc;
}

/* Leader of a node other than the root's: the node's result goes to the
 * parent node's mailbox; on chunk 0 a header {seq, me} first, which tells
 * the mailbox (receiving from any source) who sends the chunks. */
static int send_up(pc_dynleader_t *d, const pc_node_chunk_t *ch, long k)
{
    const pc_call_t *a = d->a;
    const char *acc = pc_node_red_slot(&d->r, ch, 0);
    int rc = MPI_SUCCESS;
    if (k == 0) {
        long long header[2] = {(long long)a->seq, a->ctx->rank};
        rc = PMPI_Send(header, 2, MPI_LONG_LONG, d->parent_mailbox, pc_window_tag(d->tag_first, a->seq),
                       a->ctx->comm);
    }
    return rc != MPI_SUCCESS ? rc
                             : PMPI_Send(acc, (int)ch->count, a->datatype, d->parent_mailbox, d->tag_next, a->ctx->comm);
}

int pc_dynleader_climb(pc_dynleader_t *d, const pc_node_chunk_t *ch, long k)
{
    const pc_call_t *a = d->a;
    int last = 0;
    int rc = pc_node_red_combine(&d->r, ch, pc_red_at(a, a->sendbuf, ch->first), a->ctx->node_rank, &last);
    if (d->is_mailbox && d->tree.nchildren > 0 && rc == MPI_SUCCESS) rc = receive_children(d, ch, k, &last);
    if (k == 0) d->leads = d->parent_mailbox >= 0 && (d->fixed ? d->is_mailbox : last);
    if (d->leads) {
        pc_node_red_wait_arrived(&d->r, ch);
        int lrc = send_up(d, ch, k);
        if (rc == MPI_SUCCESS) rc = lrc;
    }
    return rc;
}
