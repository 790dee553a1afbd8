/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * adapt_messages.c - the messages of the adaptive selection's agreements
 * (adapt_agree.c): a nonblocking reduce of doubles to rank 0 (the checks
 * by MPI_MAX, then the data by MPI_SUM) and a nonblocking broadcast from it,
 * on papcoll's private communicator.
 *
 * Natively they are the MPI library's MPI_Ireduce (one per op) and
 * MPI_Ibcast (trees in Open MPI's libnbc and in MPICH, advanced inside the
 * program's MPI calls).
 * SimGrid SMPI's (3.32) are linear: rank 0 receives, or sends, p - 1
 * messages, a cost no real library charges, which at 256 simulated ranks
 * made the agreements' stages a visible share of a small collective's time.
 * Under SMPI the agreement therefore runs as papcoll's own schedule
 * (src/nbc) of two levels, over the context's nodes:
 *
 *   reduce:    each process -> its node's leader -> rank 0
 *   broadcast: rank 0 -> the other nodes' leaders -> their nodes
 *
 * so rank 0 handles (ppn - 1) + (nodes - 1) messages, and a process that
 * leads no node posts one plain MPI_Isend or MPI_Irecv, completed by
 * MPI_Waitall at the stage's end: it never forwards, so it polls nothing
 * in between (an MPI_Test costs simulated time, smpi/test).  The leaders
 * advance their schedules at each call of the group while an agreement is
 * in flight (pc_adapt_agreement_progress).  A binomial tree (log2 p levels)
 * did worse for small collectives: every process forwards, so every process
 * polls, or waits at the stage's end.  SIMULATED, 256 ranks on
 * `dragonfly:16x16:2,1;2,1;2,1;2`, ADAPT's calls 200-264, balanced: reduce
 * of 8 B, mean e_bar 0.104 us linear, 0.155 binomial, 0.110 two-level (the
 * root's time 18.8, 19.1, 18.6 us); allreduce of 512 B, 41.2 us linear,
 * 36.5 binomial, 35.6 two-level.
 * The schedules take the tags of the communicator's nonblocking collectives
 * (pc_nbc_next_of): agreements start at the same call on every process, so
 * their sequence numbers agree.  Both parts of the reduce travel in one
 * message: under SMPI 3.32 a sender pays about one link latency per message
 * in the call that posts it (two messages cost a leader 3.0 us in its
 * forwarding call on the dragonfly).  MPI_MAX and MPI_SUM on doubles
 * combine in node order at rank 0 alone, whose result everybody receives.
 */
#include "select/adapt_impl.h"
#include "core/progress.h"
#ifdef PAPCOLL_SMPI
#include "nbc/request.h"
#include "nbc/sched.h"
#endif

#ifdef PAPCOLL_SMPI
static int leads_node(const pc_comm_t *c) { return c->rank == pc_node_leader(c, c->my_node); }

/* Receives from every other process of my node, and at rank 0 from every other node's leader, into tmp
 * (n doubles each): returns how many. */
static int recv_children(pc_nbc_sched_t *s, const pc_comm_t *c, double *tmp, int n)
{
    int k = 0;
    for (int i = c->node_first[c->my_node]; i < c->node_first[c->my_node + 1]; i++)
        if (c->node_members[i] != c->rank) pc_nbc_recv(s, tmp + (long)k++ * n, n, MPI_DOUBLE, c->node_members[i]);
    for (int b = 0; c->rank == 0 && b < c->nnodes; b++)
        if (b != c->my_node) pc_nbc_recv(s, tmp + (long)k++ * n, n, MPI_DOUBLE, pc_node_leader(c, b));
    return k;
}

/* A leader's part of the reduce: MPI_MAX over the first n_max doubles, MPI_SUM over the rest. */
static int two_level_reduce(pc_nbc_sched_t *s, const pc_comm_t *c, const double *send, double *recv, int n_max, int n)
{
    int children = c->node_first[c->my_node + 1] - c->node_first[c->my_node] - 1 + (c->rank == 0 ? c->nnodes - 1 : 0);
    double *acc = c->rank == 0 ? recv : pc_nbc_alloc(s, n, MPI_DOUBLE);
    double *tmp = pc_nbc_alloc(s, (long)n * children, MPI_DOUBLE);
    if (!acc || !tmp) return s->rc;
    pc_nbc_copy(s, send, acc, n, MPI_DOUBLE);
    int k = recv_children(s, c, tmp, n);
    pc_nbc_round(s);
    for (int i = 0; i < k; i++) {
        pc_nbc_reduce(s, tmp + (long)i * n, acc, n_max, MPI_DOUBLE, MPI_MAX);
        pc_nbc_reduce(s, tmp + (long)i * n + n_max, acc + n_max, n - n_max, MPI_DOUBLE, MPI_SUM);
    }
    if (c->rank != 0) pc_nbc_send(s, acc, n, MPI_DOUBLE, 0);
    pc_nbc_round(s);
    return s->rc;
}

/* A leader's part of the broadcast. */
static int two_level_bcast(pc_nbc_sched_t *s, const pc_comm_t *c, double *buf, int n)
{
    if (c->rank != 0) {
        pc_nbc_recv(s, buf, n, MPI_DOUBLE, 0);
        pc_nbc_round(s);
    }
    for (int i = c->node_first[c->my_node]; i < c->node_first[c->my_node + 1]; i++)
        if (c->node_members[i] != c->rank) pc_nbc_send(s, buf, n, MPI_DOUBLE, c->node_members[i]);
    for (int b = 0; c->rank == 0 && b < c->nnodes; b++)
        if (b != c->my_node) pc_nbc_send(s, buf, n, MPI_DOUBLE, pc_node_leader(c, b));
    pc_nbc_round(s);
    return s->rc;
}

/* One stage of the agreement as *req (is_reduce: the reduce, send -> recv, n_max as two_level_reduce; else the
 * broadcast of recv): at a leader its schedule, elsewhere one message to or from the node's leader. */
static int start(pc_comm_t *ctx, int is_reduce, const double *send, double *recv, int n_max, int n,
                 MPI_Request *req)
{
    MPI_Comm priv;
    int tag;
    unsigned long seq;
    int rc = pc_nbc_next_of(ctx, &priv, &tag, &seq); /* on every process: the sequence numbers stay the same */
    if (rc != MPI_SUCCESS) return rc;
    if (!leads_node(ctx)) {
        int leader = pc_node_leader(ctx, ctx->my_node);
        return is_reduce ? PMPI_Isend(send, n, MPI_DOUBLE, leader, tag, priv, req)
                         : PMPI_Irecv(recv, n, MPI_DOUBLE, leader, tag, priv, req);
    }
    pc_nbc_sched_t s = {0};
    rc = is_reduce ? two_level_reduce(&s, ctx, send, recv, n_max, n) : two_level_bcast(&s, ctx, recv, n);
    if (rc != MPI_SUCCESS) {
        pc_nbc_sched_free(&s);
        return rc;
    }
    return pc_nbc_start(&s, priv, tag, req);
}
#endif

int pc_adapt_start_reduce(pc_comm_t *ctx, const double *send, double *recv, int n_max, int n, MPI_Request req[2])
{
    req[0] = req[1] = MPI_REQUEST_NULL;
#ifdef PAPCOLL_SMPI
    return start(ctx, 1, send, recv, n_max, n, &req[0]);
#else
    int rc = PMPI_Ireduce(send, recv, n_max, MPI_DOUBLE, MPI_MAX, 0, ctx->comm, &req[0]);
    if (rc != MPI_SUCCESS || n == n_max) return rc; /* no agreed state yet: the same on every process */
    return PMPI_Ireduce(send + n_max, recv + n_max, n - n_max, MPI_DOUBLE, MPI_SUM, 0, ctx->comm, &req[1]);
#endif
}

int pc_adapt_start_bcast(pc_comm_t *ctx, double *buf, int n, MPI_Request *req)
{
#ifdef PAPCOLL_SMPI
    return start(ctx, 0, NULL, buf, 0, n, req);
#else
    return PMPI_Ibcast(buf, n, MPI_DOUBLE, 0, ctx->comm, req);
#endif
}

void pc_adapt_agreement_progress(const pc_comm_t *ctx)
{
#ifdef PAPCOLL_SMPI
    if (leads_node(ctx)) pc_nbc_progress();
#else
    (void)ctx;
#endif
}

int pc_adapt_agreement_wait(adapt_group_t *g)
{
    MPI_Status statuses[2]; /* not MPI_STATUSES_IGNORE: GCC 12 misreads MPICH's access attributes */
#ifdef PAPCOLL_SMPI
    if (!g->table->leads_node) return PMPI_Waitall(2, g->req, statuses); /* plain messages */
    int done = 0, rc;
    for (;;) {
        pc_nbc_progress();
        if ((rc = PMPI_Testall(2, g->req, &done, statuses)) != MPI_SUCCESS || done) return rc;
    }
#else
    return pc_waitall(2, g->req, statuses);
#endif
}

#ifdef PAPCOLL_SMPI
void pc_adapt_finish_agreements(void)
{
    for (adapt_table_t *t = pc_adapt_live_tables; t; t = t->next)
        for (adapt_group_t *g = t->groups; g; g = g->next)
            if (g->pending) pc_adapt_agreement_wait(g); /* leaves g->req null: the table's deletion waits no more */
}
#endif
