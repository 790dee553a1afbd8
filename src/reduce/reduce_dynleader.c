/*
 * dynleader - dynamic-leader reduce: every process combines its data into
 * its node's shared accumulator as soon as it arrives and leaves; the node's
 * LAST contributor sends the node's result up a binomial tree of nodes.
 *
 *   node X (children C1, C2 in the tree of nodes, parent P):
 *     arrivals   x2 ... x0 ........ x3 ... x1     each: acc op= x, leave
 *     mailbox    M = X's lowest rank: receives C1's and C2's results, acc op= each
 *     leader     whoever completes the count (ppn + children) -- here x1 or M --
 *                sends acc to P's mailbox
 *   root's node: the root is the mailbox and the end: it waits for its node
 *                and its children, copies the result out
 *
 * Finding the parent's leader (seed 001 Fig. 3.14 sends leader IDs to every
 * process of the child nodes and cancels the ones nobody received; we may
 * neither cancel nor leave messages for a later call).  A message must name
 * its destination rank, and only a process still in the call can receive
 * it, while a dynamic leader is known only when the last process arrives
 * and everyone else is gone.  So the destination is fixed and the
 * shared memory of the receiving node does the rest: each node has a fixed
 * mailbox (its lowest rank; the root on the root's node) known to everyone.
 * A child node's leader sends the mailbox of its parent node its first
 * chunk with a header {seq, rank} in front (one message of a struct
 * datatype: tag PC_TAG_REDUCE_LEADER + seq % window, received with
 * MPI_ANY_SOURCE because the sender is dynamic; the sequence number is
 * checked), then its other chunks (PC_TAG_REDUCE_NODE, received from the
 * first chunk's source: per-sender order keeps chunks and calls apart).
 * The mailbox combines each child's result into the node's accumulator as
 * one more contribution, so the node's leader is simply the contributor
 * that completes the count, local process or mailbox: no control message
 * goes down, every message is received in its own call by a process that is
 * bound to be there, and no process waits for a leader ID.
 * The leader is chosen on the message's first chunk and sends every chunk
 * (chunks of whole elements that fit a bank of the node reduction area,
 * node/node_reduce.h), so a parent receives each child's chunks from one
 * sender, in order.
 *
 * Cost (Hockney, balanced, m bytes, N nodes of q processes, gamma per byte
 * reduced): a process combines m gamma (under PAPCOLL_REDUCE_LOCK), a
 * mailbox also receives and combines its c <= ceil(log2 N) children's m;
 * ceil(log2 N) hops of (alpha + beta m) up the tree.
 * Late arrival: a process leaves after its own combine, whether its node's
 * other processes have arrived or not (no Early Reduce wait); a node's
 * result leaves as soon as its last process (or last child) is in, sent by
 * that last one.  Who waits: the root (for everything: the result), and a
 * mailbox for its children's results (a leaf node's mailbox waits for
 * nobody).  Against hier_nobarrier: a late process no longer holds back an
 * early fixed leader; it carries its node's result itself.
 * Order: arrival order (commutative ops only); PAPCOLL_REPRODUCIBLE=1
 * combines in a fixed order (node ranks, then children) at the cost of
 * waiting for predecessors.
 * Limitations: one element larger than a bank is reduced by
 * PAPCOLL_REDUCE_INTER over the whole communicator (logged); a mailbox holds
 * one chunk per child in private memory.
 * Parameters: PAPCOLL_REDUCE_LEADER (last: the last contributor leads;
 * fixed: the mailbox always sends, after its whole node), PAPCOLL_REDUCE_LOCK,
 * PAPCOLL_REPRODUCIBLE, PAPCOLL_SHM_SIZE; under SMPI PAPCOLL_SIM_MEMBW.
 * Source: seed 001 section 3.7.1, Figs. 3.14-3.15 (dynamic leader reduce).
 */
#include "reduce/reduce.h"
#include "core/log.h"
#include "node/node_reduce.h"
#include "sched/tree.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    const pc_call_t *a;
    pc_node_red_t r;
    pc_tree_t tree;       /* of nodes, rooted at the root's node */
    int root_node;
    int mailbox;          /* my node's mailbox */
    int parent_mailbox;   /* my parent node's (-1 on the root's node) */
    int is_mailbox;
    /* mailbox: per child node j / per receive buffer i */
    int *sender;          /* child j's leader (rank), -1 until its first chunk came */
    int *held;            /* buffer i holds child held[i]'s chunk */
    long long (*header)[2]; /* header of the first chunk received in buffer i */
    MPI_Datatype *first;  /* header i + buffer i: the first chunk's message */
    MPI_Request *req;     /* receive into buffer i */
    void **buf, **base;   /* one chunk per child */
} dyn_t;

static int mailbox_of(const dyn_t *d, int node)
{
    return node == d->root_node ? d->a->root : pc_node_leader(d->a->ctx, node);
}

static int child_slot(const dyn_t *d, int rank)
{
    int node = d->a->ctx->node_of[rank];
    for (int j = 0; j < d->tree.nchildren; j++)
        if (d->tree.children[j] == node) return j;
    return -1;
}

/* The first chunk's message: the header {seq, sender} then `count`
 * elements at buf (absolute addresses: one message, one latency). */
static int first_chunk_type(const pc_call_t *a, long long *header, const void *buf, long count, MPI_Datatype *t)
{
    int lengths[2] = {2, (int)count};
    MPI_Aint where[2];
    MPI_Datatype types[2] = {MPI_LONG_LONG, a->datatype};
    PMPI_Get_address(header, &where[0]);
    PMPI_Get_address(buf, &where[1]);
    int rc = PMPI_Type_create_struct(2, lengths, where, types, t);
    if (rc == MPI_SUCCESS) rc = PMPI_Type_commit(t);
    return rc;
}

static void dyn_free(dyn_t *d)
{
    int nch = d->tree.nchildren, abandoned = 0;
    /* after an error only: receives still posted keep their buffers (leaked) */
    for (int i = 0; d->req && i < nch; i++)
        if (d->req[i] != MPI_REQUEST_NULL) {
            PMPI_Request_free(&d->req[i]);
            d->base[i] = NULL;
            abandoned = 1;
        }
    for (int i = 0; d->first && i < nch; i++)
        if (d->first[i] != MPI_DATATYPE_NULL) PMPI_Type_free(&d->first[i]);
    for (int i = 0; d->base && i < nch; i++) free(d->base[i]);
    if (!abandoned) free(d->header);
    free(d->base);
    free(d->buf);
    free(d->req);
    free(d->first);
    free(d->held);
    free(d->sender);
    pc_tree_free(&d->tree);
    pc_node_red_end(&d->r);
}

static int dyn_begin(dyn_t *d, const pc_call_t *a)
{
    memset(d, 0, sizeof *d);
    d->a = a;
    const pc_comm_t *c = a->ctx;
    d->root_node = c->node_of[a->root];
    int rc = pc_node_red_begin(a, PC_NODE_RED_SHARED, &d->r);
    if (rc != MPI_SUCCESS || d->r.chunk == 0) return rc;
    if (pc_tree_build(&d->tree, PC_TREE_BINOMIAL, 2, c->my_node, c->nnodes, d->root_node)) return MPI_ERR_NO_MEM;
    d->mailbox = mailbox_of(d, c->my_node);
    d->parent_mailbox = d->tree.parent < 0 ? -1 : mailbox_of(d, d->tree.parent);
    d->is_mailbox = c->rank == d->mailbox;
    d->r.contributors = c->node_size + d->tree.nchildren;
    int nch = d->tree.nchildren;
    if (!d->is_mailbox || nch == 0) return MPI_SUCCESS;
    d->sender = malloc((size_t)nch * sizeof *d->sender);
    d->held = malloc((size_t)nch * sizeof *d->held);
    d->header = malloc((size_t)nch * sizeof *d->header);
    d->first = malloc((size_t)nch * sizeof *d->first);
    d->req = malloc((size_t)nch * sizeof *d->req);
    d->buf = calloc((size_t)nch, sizeof *d->buf);
    d->base = calloc((size_t)nch, sizeof *d->base);
    if (!d->sender || !d->held || !d->header || !d->first || !d->req || !d->buf || !d->base) {
        free(d->first);
        d->first = NULL; /* nothing to free in it */
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
        /* the children's first chunks may come at any time from now, from whoever leads them */
        if (rc == MPI_SUCCESS)
            rc = PMPI_Irecv(MPI_BOTTOM, 1, d->first[i], MPI_ANY_SOURCE, pc_window_tag(PC_TAG_REDUCE_LEADER, a->seq),
                            c->comm, &d->req[i]);
    }
    return rc;
}

/* Mailbox: receives every child's chunk k (the first one from any source,
 * the others from the sender of the first) and combines it into the node's
 * accumulator as contribution node_size + j for child j, in arrival order
 * (in child order when reproducible); *last as pc_node_red_combine's. */
static int receive_children(dyn_t *d, const pc_node_chunk_t *ch, long k, int *last)
{
    const pc_call_t *a = d->a;
    int nch = d->tree.nchildren, n = a->ctx->node_size, rc = MPI_SUCCESS;
    int ordered = a->params->reproducible != 0, next = 0;
    int *in = malloc((size_t)nch * sizeof *in); /* in[j]: buffer holding child j's chunk, -1 not yet */
    if (!in) return MPI_ERR_NO_MEM;
    for (int j = 0; j < nch; j++) in[j] = -1;
    for (int i = 0; k > 0 && i < nch && rc == MPI_SUCCESS; i++) {
        d->held[i] = i;
        rc = PMPI_Irecv(d->buf[i], (int)ch->count, a->datatype, d->sender[i], PC_TAG_REDUCE_NODE, a->ctx->comm,
                        &d->req[i]);
    }
    for (int got = 0; got < nch && rc == MPI_SUCCESS; got++) {
        int i;
        MPI_Status st;
        rc = PMPI_Waitany(nch, d->req, &i, &st);
        if (rc != MPI_SUCCESS || i == MPI_UNDEFINED) break;
        if (k == 0) { /* which child it is: the sender's node */
            int j = child_slot(d, st.MPI_SOURCE);
            if (d->header[i][0] != (long long)a->seq || d->header[i][1] != st.MPI_SOURCE || j < 0 || d->sender[j] >= 0) {
                pc_log(PC_LOG_WARN, "reduce dynleader: unexpected first chunk (call %lld, from %d) in call %lu",
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
static int send_up(dyn_t *d, const pc_node_chunk_t *ch, long k)
{
    const pc_call_t *a = d->a;
    const char *acc = pc_node_red_slot(&d->r, ch, 0);
    if (k > 0)
        return PMPI_Send(acc, (int)ch->count, a->datatype, d->parent_mailbox, PC_TAG_REDUCE_NODE, a->ctx->comm);
    long long header[2] = {(long long)a->seq, a->ctx->rank};
    MPI_Datatype t;
    int rc = first_chunk_type(a, header, acc, ch->count, &t);
    if (rc != MPI_SUCCESS) return rc;
    rc = PMPI_Send(MPI_BOTTOM, 1, t, d->parent_mailbox, pc_window_tag(PC_TAG_REDUCE_LEADER, a->seq), a->ctx->comm);
    PMPI_Type_free(&t);
    return rc;
}

int pc_reduce_dynleader(const pc_call_t *a)
{
    dyn_t d;
    int rc = dyn_begin(&d, a);
    if (rc == MPI_SUCCESS && d.r.chunk == 0) {
        if (a->ctx->rank == a->root)
            pc_log(PC_LOG_WARN, "reduce dynleader: one element (%ld bytes) does not fit the node's accumulator of "
                   "%zu bytes (PAPCOLL_SHM_SIZE / 2): %s over the whole communicator", (long)a->true_extent,
                   d.r.slot_bytes, a->params->reduce.inter);
        rc = pc_reduce_on(a, a->params->reduce.inter, a->sendbuf, a->recvbuf, a->root, a->ctx->comm);
    }
    if (rc != MPI_SUCCESS || d.r.chunk == 0) {
        dyn_free(&d);
        return rc;
    }
    const pc_comm_t *c = a->ctx;
    int is_root = c->rank == a->root, fixed = !strcmp(a->params->reduce.leader, "fixed"), leads = 0;
    for (long k = 0; k < d.r.nchunks; k++) {
        pc_node_chunk_t ch;
        pc_node_red_chunk(&d.r, k, &ch);
        int last = 0;
        int crc = pc_node_red_combine(&d.r, &ch, pc_red_at(a, a->sendbuf, ch.first), c->node_rank, &last);
        if (d.is_mailbox && d.tree.nchildren > 0 && crc == MPI_SUCCESS) crc = receive_children(&d, &ch, k, &last);
        if (k == 0) leads = is_root || (d.parent_mailbox >= 0 && (fixed ? d.is_mailbox : last));
        if (leads) {
            pc_node_red_wait_arrived(&d.r, &ch);
            int lrc = is_root ? pc_node_red_copy_out(&d.r, &ch, a->recvbuf) : send_up(&d, &ch, k);
            if (crc == MPI_SUCCESS) crc = lrc;
        }
        pc_node_red_done(&d.r, &ch);
        if (rc == MPI_SUCCESS) rc = crc;
        if (rc != MPI_SUCCESS) break; /* a lost child or parent: the tree cannot complete */
    }
    dyn_free(&d);
    return rc;
}
