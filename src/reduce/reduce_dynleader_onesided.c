/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dynleader_onesided - dynamic-leader reduce without messages: every process
 * combines its data into its node's shared accumulator as soon as it arrives
 * and leaves; a child node's result reaches its parent node by MPI one-sided
 * communication into the parent node's inbox (shared memory exposed to the
 * whole communicator, ctx/inbox.h), where whoever is on that node picks it up.
 *
 *   node X (children C1, C2 in the binomial tree of nodes, parent P):
 *     arrivals   x2 ... x0 ........ x3 ... x1   each: acc op= x; then acc op= any child
 *                                               slot already stamped ready (claimed), leave
 *     leader     the LAST of X's processes to arrive (the root on the root's
 *                node): waits for the children's ready stamps still missing,
 *                combines them, then for acc to be complete, and puts acc into
 *                its slot of P's inbox: MPI_Put at P's mailbox, MPI_Win_flush,
 *                MPI_Put of the ready stamp, MPI_Win_flush
 *   root's node: the root leads and copies the result out
 *
 * Parsons 2015 (§3.7.1, last paragraphs) removes the control messages of
 * the dynamic leader reduce with one-sided communication: the sender places
 * its data on the receiving node and marks a ready flag; the receiving
 * node's leader spins on the flag, in shared memory, and the sender never
 * needs to know who that leader is.  Here the flag is a generation stamp
 * (the inbox use number, never reset), one slot per child node and bank.
 * Against dynleader: no message, no MPI_ANY_SOURCE, no receive posted ahead,
 * and nobody waits for a child on behalf of its node except the node's own
 * last arriver, who is late anyway: an early mailbox leaves at once.  Any
 * process of the node still in the call folds in a child's result that has
 * come (claim word), so the last arriver often finds only its own share left.
 *
 * Choices, and why (against the design in the brief):
 *  - Every process of a node exposes the same node segment in the window, so
 *    a writer may target any process of the parent node; it targets the
 *    node's mailbox (lowest rank), and the root on the root's node: the
 *    root's node receives the most children (ceil(log2 N)) and the root is
 *    bound to be in the call, progressing MPI, while they come.
 *  - One MPI_Win_lock_all(MPI_MODE_NOCHECK) epoch for the window's life
 *    instead of MPI_Win_lock per transfer: no lock traffic (one atomic per
 *    lock at the target in Open MPI's osc/rdma, a message in MPICH), and
 *    MPI_Win_flush gives the same completion.
 *  - MPI_Put, not MPI_Accumulate(MPI_REPLACE): the slot has one writer per
 *    use (flow control below), so no atomicity is needed, and Open MPI 4.1's
 *    osc/rdma completes puts without the target (CMA over vader) while its
 *    accumulates wait for the target to enter MPI (measured).
 *  - Flow control: slot (bank, j) of use u may be written once the parent
 *    node consumed the bank's previous round (its done word, MPI_Get; the
 *    value read with each stamp's flush is cached, so a parent that keeps up
 *    costs no extra round trip).  Two banks: a child puts chunk c + 1 while
 *    its parent still combines chunk c.  Per-slot consumed stamps would not
 *    do: the writer of a slot changes with the root.
 *
 * Target progress.  Passive-target RMA needs no help from the target in
 * SimGrid SMPI and in Open MPI's osc/rdma over shared memory or RDMA
 * networks; it does in MPICH (ch4:ucx here: a put completes when the target
 * next enters MPI) and in Open MPI over TCP.  Then a child's put to a
 * mailbox that left the call and computes completes when that mailbox calls
 * MPI again (any call: every blocking call and papcoll's waits progress);
 * the parent's leader waits until then.  No deadlock as long as the mailbox
 * eventually calls MPI (MPI_Finalize at the latest), but the reduce can take
 * as long as the mailbox computes.  PAPCOLL_REDUCE_LEADER=fixed makes the
 * mailbox itself the leader: it stays in the call, progressing, until its
 * children's results are in (dynleader's behaviour, without its messages).
 *
 * Cost (Hockney, balanced, m bytes per chunk, N nodes of q processes, gamma
 * per byte reduced): a process combines m gamma (PAPCOLL_REDUCE_LOCK), a
 * node's processes together also combine its c <= ceil(log2 N) children's
 * m; per hop up the tree 2 alpha + beta m (data, then the stamp), plus one
 * alpha when the parent's done word must be fetched (its first use, or a
 * parent that lags).
 * Late arrival: a process leaves after its own combine (and any child's
 * result that is already there); a node's result leaves once its last
 * process is in and its children's results are, sent by that last process.
 * Who waits: the root (for the result), each node's last arriver (for its
 * children), a child's leader when its parent node lags two chunks behind.
 * Order: arrival order (commutative ops only); PAPCOLL_REPRODUCIBLE=1: node
 * ranks then children in a fixed order, the leader combines every child.
 * Limitations: under MPICH (native) it runs dynleader instead: see the
 * start of pc_reduce_dynleader_onesided; predefined ops only (one-sided transfers, and the selection
 * keeps MPI_Accumulate open); every process must pass the same datatype
 * layout (the sender lays the data out in the receivers' slots); the first
 * call on a communicator creates the window, collective over it; one element
 * larger than a bank is reduced by PAPCOLL_REDUCE_INTER over the whole
 * communicator (logged), as when the MPI library reports MPI_WIN_SEPARATE.
 * Memory: 2 x ceil(log2 N) slots of PAPCOLL_SHM_SIZE / 2 per node and
 * communicator (ctx/inbox.h), beside the node reduction area.
 * Parameters: PAPCOLL_REDUCE_LEADER (last: the last arriver leads; fixed:
 * the mailbox, the root on its node), PAPCOLL_REDUCE_LOCK,
 * PAPCOLL_REPRODUCIBLE, PAPCOLL_SHM_SIZE; under SMPI PAPCOLL_SIM_MEMBW (the
 * leader polls its inbox every 0.5 us of simulated time).
 * Source: Parsons 2015 §3.7.1 (dynamic leader reduce, one-sided variant).
 */
#include "reduce/reduce.h"
#include "core/log.h"
#include "ctx/inbox.h"
#include "node/node_reduce.h"
#include "sched/tree.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    const pc_call_t *a;
    pc_node_red_t r;
    pc_inbox_t *inbox;    /* NULL on a single node */
    pc_tree_t tree;       /* of nodes, rooted at the root's node */
    int root_node;
    int is_mailbox;       /* my node's mailbox: the lowest rank, the root on the root's node */
    int parent_mailbox;   /* where my node's result goes (-1 on the root's node) */
    int my_slot;          /* my node's slot in the parent's inbox */
    unsigned char *handled; /* [nchildren] the leader's children loop */
} dyn_t;

/* My node's position among its parent's children: its slot there. */
static int slot_in_parent(const dyn_t *d)
{
    const pc_comm_t *c = d->a->ctx;
    pc_tree_t parent;
    if (pc_tree_build(&parent, PC_TREE_BINOMIAL, 2, d->tree.parent, c->nnodes, d->root_node)) return -1;
    int j = -1;
    for (int i = 0; i < parent.nchildren; i++)
        if (parent.children[i] == c->my_node) j = i;
    pc_tree_free(&parent);
    return j;
}

static void dyn_free(dyn_t *d)
{
    free(d->handled);
    pc_tree_free(&d->tree);
    pc_node_red_end(&d->r);
}

static int dyn_begin(dyn_t *d, const pc_call_t *a)
{
    memset(d, 0, sizeof *d);
    d->a = a;
    pc_comm_t *c = a->ctx;
    d->root_node = c->node_of[a->root];
    d->parent_mailbox = -1;
    int rc = pc_node_red_begin(a, PC_NODE_RED_SHARED, &d->r);
    if (rc != MPI_SUCCESS || d->r.chunk == 0) return rc;
    if (c->nnodes > 1) {
        rc = pc_inbox_get(c, d->r.bank_bytes, &d->inbox); /* collective the first time */
        if (rc != MPI_SUCCESS || !pc_inbox_usable(d->inbox)) return rc;
    }
    if (pc_tree_build(&d->tree, PC_TREE_BINOMIAL, 2, c->my_node, c->nnodes, d->root_node)) return MPI_ERR_NO_MEM;
    if (d->inbox && d->tree.nchildren > pc_inbox_nslots(d->inbox)) return MPI_ERR_INTERN;
    d->is_mailbox = c->rank == pc_node_mailbox(c, a->root, c->my_node);
    if (d->tree.parent >= 0) {
        d->parent_mailbox = pc_node_mailbox(c, a->root, d->tree.parent);
        d->my_slot = slot_in_parent(d);
        if (d->my_slot < 0) return MPI_ERR_INTERN;
    }
    d->r.contributors = c->node_size + d->tree.nchildren;
    d->handled = calloc((size_t)d->tree.nchildren + 1, 1);
    return d->handled ? MPI_SUCCESS : MPI_ERR_NO_MEM;
}

/* Combines child j's result of use u (its slot in my node's inbox) into the
 * accumulator as contribution node_size + j. */
static int combine_child(dyn_t *d, const pc_node_chunk_t *ch, uint64_t u, int j)
{
    const char *src = pc_inbox_slot(d->inbox, u, j) + d->r.shift;
    return pc_node_red_combine(&d->r, ch, src, d->a->ctx->node_size + j, NULL);
}

/* Any process: folds in the children's results that have come and that no
 * other node process took. */
static int absorb_ready_children(dyn_t *d, const pc_node_chunk_t *ch, uint64_t u)
{
    int rc = MPI_SUCCESS;
    for (int j = 0; j < d->tree.nchildren && rc == MPI_SUCCESS; j++)
        if (pc_inbox_ready(d->inbox, u, j) && pc_inbox_claim(d->inbox, u, j)) rc = combine_child(d, ch, u, j);
    return rc;
}

/* The leader: every child's result of use u is in the accumulator, combined
 * by me or by another node process (claimed); in child order when
 * reproducible (nobody else claims then). */
static int absorb_all_children(dyn_t *d, const pc_node_chunk_t *ch, uint64_t u)
{
    int nch = d->tree.nchildren, left = nch, ordered = d->a->params->reproducible != 0, rc = MPI_SUCCESS;
    memset(d->handled, 0, (size_t)nch);
    while (left > 0 && rc == MPI_SUCCESS) {
        int progress = 0;
        for (int j = 0; j < nch && rc == MPI_SUCCESS; j++) {
            if (d->handled[j]) continue;
            if (pc_inbox_ready(d->inbox, u, j)) {
                if (pc_inbox_claim(d->inbox, u, j)) rc = combine_child(d, ch, u, j);
            } else if (!pc_inbox_claimed(d->inbox, u, j)) {
                if (ordered) break; /* child j before child j + 1 */
                continue;
            }
            d->handled[j] = 1; /* combined, here or by its claimer (pc_node_red_wait_arrived waits for that) */
            left--;
            progress = 1;
        }
        if (!progress && left > 0) pc_inbox_pause(d->inbox);
    }
    return rc;
}

/* The leader of a node other than the root's: the node's result goes to its
 * slot in the parent node's inbox. */
static int send_up(dyn_t *d, const pc_node_chunk_t *ch, uint64_t u)
{
    const pc_call_t *a = d->a;
    int rc = pc_inbox_wait_free(d->inbox, d->parent_mailbox, u);
    if (rc != MPI_SUCCESS) return rc;
    return pc_inbox_put(d->inbox, d->parent_mailbox, u, d->my_slot, pc_node_red_slot(&d->r, ch, 0), (int)ch->count,
                        a->datatype, d->r.shift);
}

/* One chunk: my share, the children's results, and, for the leader, the
 * node's result up the tree (or out, at the root). */
static int reduce_chunk(dyn_t *d, const pc_node_chunk_t *ch, uint64_t u, int fixed)
{
    const pc_call_t *a = d->a;
    const pc_comm_t *c = a->ctx;
    int is_root = c->rank == a->root;
    int rc = pc_node_red_combine(&d->r, ch, pc_red_at(a, a->sendbuf, ch->first), c->node_rank, NULL);
    int last_local = d->inbox ? pc_inbox_count_local(d->inbox, u) == c->node_size : 0;
    int leads = is_root || (d->tree.parent >= 0 && (fixed ? d->is_mailbox : last_local));
    if (!leads) {
        if (d->tree.nchildren > 0 && !a->params->reproducible && rc == MPI_SUCCESS) rc = absorb_ready_children(d, ch, u);
        return rc;
    }
    if (d->tree.nchildren > 0) {
        int lrc = absorb_all_children(d, ch, u);
        if (rc == MPI_SUCCESS) rc = lrc;
    }
    pc_node_red_wait_arrived(&d->r, ch);
    if (d->inbox) pc_inbox_consumed(d->inbox, u); /* the next round of this bank may come */
    int lrc = is_root ? pc_node_red_copy_out(&d->r, ch, a->recvbuf) : send_up(d, ch, u);
    return rc == MPI_SUCCESS ? lrc : rc;
}

int pc_reduce_dynleader_onesided(const pc_call_t *a)
{
#if defined(MPICH) && !defined(PAPCOLL_SMPI)
    /* MPICH 4.0 (ch4:ucx) completes passive-target operations only when the
     * target calls MPI, and a stress run of back-to-back calls on several
     * communicators hung (child leaders in MPI_Win_flush, the target polling
     * with MPI_Iprobe, others in MPI_Win_free): the point-to-point dynamic
     * leader instead, on every process alike (no window is ever created). */
    if (a->ctx->rank == a->root)
        pc_log(PC_LOG_INFO, "reduce dynleader_onesided: MPICH's one-sided progress needs the target: dynleader "
               "(point to point) instead");
    return pc_reduce_dynleader(a);
#endif
    dyn_t d;
    int rc = dyn_begin(&d, a);
    int fallback = rc == MPI_SUCCESS && (d.r.chunk == 0 || (d.inbox && !pc_inbox_usable(d.inbox)));
    if (fallback) {
        if (a->ctx->rank == a->root) {
            if (d.r.chunk == 0)
                pc_log(PC_LOG_WARN, "reduce dynleader_onesided: one element (%ld bytes) does not fit the node's "
                       "accumulator of %zu bytes (PAPCOLL_SHM_SIZE / 2): %s over the whole communicator",
                       (long)a->true_extent, d.r.slot_bytes, a->params->reduce.inter);
            else
                pc_log(PC_LOG_WARN, "reduce dynleader_onesided: the MPI library's windows are MPI_WIN_SEPARATE "
                       "(puts not visible to loads): %s over the whole communicator", a->params->reduce.inter);
        }
        rc = pc_reduce_on(a, a->params->reduce.inter, a->sendbuf, a->recvbuf, a->root, a->ctx->comm);
    }
    if (rc != MPI_SUCCESS || fallback) {
        dyn_free(&d);
        return rc;
    }
    int fixed = !strcmp(a->params->reduce.leader, "fixed");
    uint64_t first_use = d.inbox ? pc_inbox_take(d.inbox, d.r.nchunks) : 0;
    for (long k = 0; k < d.r.nchunks; k++) {
        pc_node_chunk_t ch;
        pc_node_red_chunk(&d.r, k, &ch);
        int crc = reduce_chunk(&d, &ch, first_use + (uint64_t)k, fixed);
        pc_node_red_done(&d.r, &ch);
        if (rc == MPI_SUCCESS) rc = crc;
        if (rc != MPI_SUCCESS) break; /* a lost child or parent: the tree cannot complete */
    }
    dyn_free(&d);
    return rc;
}
