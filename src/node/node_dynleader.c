/*
 * node_dynleader.c - the dynamic-leader climb of a node reduction (see
 * node_dynleader.h).
 */
#include "node/node_dynleader.h"
#include "core/log.h"
#include "core/p2p.h"

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
    for (int i = 0; d->first && i < nch; i++)
        if (d->first[i] != MPI_DATATYPE_NULL) PMPI_Type_free(&d->first[i]);
    for (int i = 0; d->base && i < nch; i++) free(d->base[i]);
    free(d->header);
    free(d->base);
    free(d->buf);
    free(d->req);
    free(d->first);
    free(d->held);
    free(d->sender);
    pc_tree_free(&d->tree);
    pc_node_red_end(&d->r);
}

/* The mailbox's per-child state, and a posted receive for each child's
 * first chunk: it may come at any time from now, from whoever leads that
 * child node. */
static int mailbox_begin(pc_dynleader_t *d)
{
    const pc_call_t *a = d->a;
    int nch = d->tree.nchildren, rc = MPI_SUCCESS;
    d->sender = malloc((size_t)nch * sizeof *d->sender);
    d->held = malloc((size_t)nch * sizeof *d->held);
    d->header = malloc((size_t)nch * sizeof *d->header);
    d->first = malloc((size_t)nch * sizeof *d->first);
    d->req = malloc((size_t)nch * sizeof *d->req);
    d->buf = calloc((size_t)nch, sizeof *d->buf);
    d->base = calloc((size_t)nch, sizeof *d->base);
    if (!d->sender || !d->held || !d->header || !d->first || !d->req || !d->buf || !d->base) {
        free(d->first);
        free(d->req);
        d->first = NULL; /* nothing to free or cancel in them */
        d->req = NULL;
        return MPI_ERR_NO_MEM;
    }
    for (int i = 0; i < nch; i++) {
        d->sender[i] = -1;
        d->first[i] = MPI_DATATYPE_NULL;
        d->req[i] = MPI_REQUEST_NULL;
    }
    long count0 = d->r.chunk < a->count ? d->r.chunk : a->count;
    for (int i = 0; i < nch && rc == MPI_SUCCESS; i++) {
        d->buf[i] = pc_red_alloc(a, d->r.chunk, &d->base[i]);
        rc = d->buf[i] ? first_chunk_type(a, d->header[i], d->buf[i], count0, &d->first[i]) : MPI_ERR_NO_MEM;
        if (rc == MPI_SUCCESS)
            rc = PMPI_Irecv(MPI_BOTTOM, 1, d->first[i], MPI_ANY_SOURCE, pc_window_tag(d->tag_first, a->seq),
                            a->ctx->comm, &d->req[i]);
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

/* Mailbox: receives every child's chunk k (the first one from any source,
 * the others from the sender of the first) and combines it into the node's
 * accumulator as contribution node_size + j for child j, in arrival order
 * (in child order when reproducible); *last as pc_node_red_combine's. */
static int receive_children(pc_dynleader_t *d, const pc_node_chunk_t *ch, long k, int *last)
{
    const pc_call_t *a = d->a;
    int nch = d->tree.nchildren, n = a->ctx->node_size, rc = MPI_SUCCESS;
    int ordered = a->params->reproducible != 0, next = 0;
    int *in = malloc((size_t)nch * sizeof *in); /* in[j]: buffer holding child j's chunk, -1 not yet */
    if (!in) return MPI_ERR_NO_MEM;
    for (int j = 0; j < nch; j++) in[j] = -1;
    for (int i = 0; k > 0 && i < nch && rc == MPI_SUCCESS; i++) {
        d->held[i] = i;
        rc = PMPI_Irecv(d->buf[i], (int)ch->count, a->datatype, d->sender[i], d->tag_next, a->ctx->comm, &d->req[i]);
    }
    for (int got = 0; got < nch && rc == MPI_SUCCESS; got++) {
        int i;
        MPI_Status st;
        rc = PMPI_Waitany(nch, d->req, &i, &st);
        if (rc != MPI_SUCCESS || i == MPI_UNDEFINED) break;
        if (k == 0) { /* which child it is: the sender's node */
            int j = child_slot(d, st.MPI_SOURCE);
            if (d->header[i][0] != (long long)a->seq || d->header[i][1] != st.MPI_SOURCE || j < 0 || d->sender[j] >= 0) {
                pc_log(PC_LOG_WARN, "dynleader: unexpected first chunk (call %lld, from %d) in call %lu",
                       d->header[i][0], st.MPI_SOURCE, a->seq);
                rc = MPI_ERR_INTERN;
                break;
            }
            d->sender[j] = st.MPI_SOURCE;
            d->held[i] = j;
        }
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
    if (d->leads) {
        pc_node_red_wait_arrived(&d->r, ch);
        int lrc = send_up(d, ch, k);
        if (rc == MPI_SUCCESS) rc = lrc;
    }
    return rc;
}
