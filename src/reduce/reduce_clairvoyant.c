/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * clairvoyant - a reduction tree built from the predicted arrival order
 * (Marendic, Lemeire, Vucinic and Schelkens 2016's "clairvoyant" reduce,
 * made online): where a communicator's reduces to one root see the same
 * processes late call after call (an application's load imbalance is often
 * persistent), the processes predicted early combine among themselves first
 * and each predicted-late process sends straight to a later one, the latest
 * to the root itself, so after the last arrival the root is one hop away
 * instead of up to ceil(log2 p).
 *
 *   prediction: 5 late (t=9), 2 late (t=4), the others early (root 0)
 *   tree:       early ranks {0,1,3,4,6,7} in a binomial tree rooted at 0
 *               (positions in rank order from the root), then 2 -> 0, 5 -> 0
 *               the root combines: its binomial children, then 2, then 5
 *
 * Observation (no global clock: MPI_Wtime is global under SMPI and on one
 * node, not in general; only durations on one process's clock are used).
 * Every PAPCOLL_REDUCE_CLAIRVOYANT_PERIOD-th call on (communicator, root),
 * and the first three, is an observation call (the first call on a
 * communicator builds papcoll's context, a collective step that hides the
 * arrival order from its observation): before the data, a small stamp
 * message travels up the same tree.  A process receives its children's
 * stamps (receives posted at once, completions timed on its own clock from
 * its arrival), then sends its own: `s`, the time from its arrival to this
 * send, and the K latest arrivals of its subtree, (rank, arrival relative to
 * its own arrival).  A child's arrival relative to the parent is the stamp's
 * completion time - s - alpha; a stamp already waiting when the process
 * arrives only says its subtree came earlier, by an unknown amount, and is
 * left out (kept as an upper bound, a late process's whole early subtree
 * would look as late as it and crowd the truly late out of the K latest;
 * once the tree changes, those ranks are seen again).  The root so
 * learns the K = PAPCOLL_REDUCE_CLAIRVOYANT_LATE latest ranks and their
 * arrival relative to its own, measured on its clock alone.
 * Agreement: the root predicts late every rank found later than itself by
 * more than a binomial tree's time, ceil(log2 p) (alpha + beta m) (earlier,
 * the binomial tree absorbs it), in this observation and in the previous
 * one (two observations agreeing: a random arrival order rarely repeats, and
 * a prediction is then made of few ranks).  It sends the prediction (rank
 * and offset of each) to every process (p - 1 small MPI_Isend, after its own
 * data), which receive it with a receive they posted at the end of the
 * observation call and complete at the start of the next call on
 * (communicator, root); everyone switches trees in that same call.  Every
 * process builds its view of the tree from the same prediction with the
 * same deterministic procedure below, so all agree without further messages.
 * Tree from a prediction (k late ranks with offsets t_i, hop cost c =
 * alpha + beta m): the p - k others, root included, form a binomial tree on
 * their positions in rank order from the root (finished, predicted, at
 * E = height x c); then (Marendic et al.'s arrival-ordered tree, with
 * papcoll's pairing) the two earliest-ready items are paired repeatedly: the
 * root's item always receives, otherwise the earlier sends to the later one;
 * the receiver is ready at max(own, sender + c).  A lone late rank thus sends to the root
 * directly; a group of equally late ranks forms its own small tree whose
 * latest member sends to the root.  Children are combined binomial ones
 * first (smallest first), then the late ones in predicted arrival order.
 * Cost: as binomial on p - k processes plus up to k receives at the root
 * (ceil(log2 (p - k)) + k hops at worst); each observation call adds one
 * small message per tree edge (about one alpha per level) and, at the root,
 * p - 1 small sends of the new prediction.
 * Late arrival: a process sends once its subtree has contributed; a
 * predicted-late process is one hop from the root (or from a later
 * predicted one), so after the last arrival the root needs about
 * alpha + (beta + 2 gamma) m when the prediction holds.  Long messages above
 * the eager limit make the early senders to a late receiver wait for it
 * (rendezvous), as in any tree.
 * Misprediction: until the next observation the tree stays; a rank
 * predicted late but early just sends early to the root (at most k extra
 * receives there), an unpredicted late rank delays its binomial ancestors as
 * in binomial.  The next observation drops what did not repeat: at most
 * 2 x PERIOD calls run on a wrong prediction, and a pattern that never
 * repeats (uniform random arrival) keeps the binomial tree.  First calls, no
 * prediction, PAPCOLL_REPRODUCIBLE=1 (the tree, hence the combination order,
 * would change between calls) or PAPCOLL_REDUCE_CLAIRVOYANT_LATE=0: the
 * binomial tree (binomial's rank layout; no stamps, no messages besides
 * the data when predictions are off).
 * Order: commutative ops only (the tree is not in rank order).
 * State: per (communicator, root), the prediction in use, the root's last
 * observation and the prediction in flight; cached on papcoll's private
 * communicator, freed with it (completing the prediction's messages).
 * Parameters: PAPCOLL_REDUCE_CLAIRVOYANT_PERIOD, PAPCOLL_REDUCE_CLAIRVOYANT_LATE
 * (same on every process), PAPCOLL_REDUCE_SEGSIZE, PAPCOLL_MAX_INFLIGHT,
 * PAPCOLL_ALPHA, PAPCOLL_BETA.
 * Source: Marendic et al. 2016 (J. Supercomputing 72, "An investigation into
 * the performance of reduction algorithms under load imbalance": the
 * clairvoyant reduction, which knows the arrival times and builds the tree in
 * arrival order; docs/references.md: the prediction, the agreement and the
 * pairing details here are papcoll's); MPICH's binomial reduce for the rest.
 */
#include "reduce/reduce.h"
#include "core/log.h"
#include "sched/tree_engine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_LATE = 32 };

/* A (rank, arrival offset in seconds) list, latest first. */
typedef struct {
    int n;
    int rank[MAX_LATE];
    double offset[MAX_LATE];
} late_list_t;

typedef struct clair_state {
    int root;
    unsigned long calls;        /* calls with count > 0 on (communicator, root) */
    unsigned long plans;        /* predictions adopted that named at least one rank */
    late_list_t plan;           /* the prediction in use (every process the same) */
    late_list_t seen;           /* root: the last observation's late ranks */
    int tree_ok;                /* tree was built for plan, with cost c */
    double tree_c;
    pc_tree_t tree;
    double *msg;                /* the prediction in flight: 2 + 2 MAX_LATE doubles */
    MPI_Request *req;           /* root: p - 1 sends; others: one receive */
    int nreq;
    struct clair_state *next;
} clair_state_t;

typedef struct {
    clair_state_t *states;
} clair_comm_t;

#define MSG_DOUBLES (2 + 2 * MAX_LATE)

static int keyval = MPI_KEYVAL_INVALID;

/* Completes a prediction's messages in flight (all are matched: the root
 * sent in the same observation call that posted the receives). */
static void finish_flight(clair_state_t *s)
{
    if (s->nreq) pc_waitall(s->nreq, s->req, MPI_STATUSES_IGNORE);
    s->nreq = 0;
}

static int delete_states(MPI_Comm comm, int kv, void *value, void *extra)
{
    (void)comm; (void)kv; (void)extra;
    clair_comm_t *cc = value;
    while (cc->states) {
        clair_state_t *s = cc->states;
        cc->states = s->next;
        finish_flight(s);
        pc_tree_free(&s->tree);
        free(s->msg);
        free(s->req);
        free(s);
    }
    free(cc);
    return MPI_SUCCESS;
}

/* The state of (ctx, root), created on first use (NULL on failure). */
static clair_state_t *state_of(pc_comm_t *ctx, int root, int create)
{
    void *value = NULL;
    int found = 0;
    if (pc_comm_cache_get(ctx->comm, &keyval, delete_states, &value, &found) != MPI_SUCCESS) return NULL;
    clair_comm_t *cc = found ? value : NULL;
    if (!cc) {
        if (!create || !(cc = calloc(1, sizeof *cc))) return NULL;
        if (PMPI_Comm_set_attr(ctx->comm, keyval, cc) != MPI_SUCCESS) {
            free(cc);
            return NULL;
        }
    }
    for (clair_state_t *s = cc->states; s; s = s->next)
        if (s->root == root) return s;
    if (!create) return NULL;
    clair_state_t *s = calloc(1, sizeof *s);
    if (!s || !(s->msg = calloc(MSG_DOUBLES, sizeof(double))) ||
        !(s->req = malloc((size_t)(ctx->size > 1 ? ctx->size - 1 : 1) * sizeof(MPI_Request)))) {
        if (s) free(s->msg);
        free(s);
        return NULL;
    }
    s->root = root;
    s->next = cc->states;
    cc->states = s;
    return s;
}

/* Adds (rank, offset) to l, keeping its `max` latest (ties: lower rank). */
static void keep_latest(late_list_t *l, int max, int rank, double offset)
{
    int i = l->n;
    if (i == max) {
        if (max == 0 || offset <= l->offset[max - 1]) return;
        i = max - 1;
    } else {
        l->n++;
    }
    while (i > 0 && (offset > l->offset[i - 1] || (offset == l->offset[i - 1] && rank < l->rank[i - 1]))) {
        l->rank[i] = l->rank[i - 1];
        l->offset[i] = l->offset[i - 1];
        i--;
    }
    l->rank[i] = rank;
    l->offset[i] = offset;
}

static int in_list(const late_list_t *l, int rank)
{
    for (int i = 0; i < l->n; i++)
        if (l->rank[i] == rank) return i;
    return -1;
}

/* ---- the tree from a prediction ---- */

typedef struct {
    int p, root, k;
    int late_rel[MAX_LATE]; /* the late ranks' relative ranks, increasing */
} layout_t;

static int rel_of(const layout_t *L, int rank) { return (rank - L->root + L->p) % L->p; }

/* Position of an early rank among the early ones (rank order from the root). */
static int pos_of(const layout_t *L, int rank)
{
    int rel = rel_of(L, rank), pos = rel;
    for (int i = 0; i < L->k && L->late_rel[i] < rel; i++) pos--;
    return pos;
}

static int rank_at(const layout_t *L, int pos)
{
    int rel = pos;
    for (int i = 0; i < L->k && L->late_rel[i] <= rel; i++) rel++;
    return (rel + L->root) % L->p;
}

static int cmp_int(const void *x, const void *y) { return *(const int *)x - *(const int *)y; }

/* Builds rank's view of the tree for prediction `plan` (all processes
 * alike) with hop cost c; binomial's tree when plan is empty. */
static int build_tree(pc_tree_t *t, const late_list_t *plan, int rank, int p, int root, double c)
{
    layout_t L = {.p = p, .root = root, .k = plan->n};
    for (int i = 0; i < L.k; i++) L.late_rel[i] = rel_of(&L, plan->rank[i]);
    qsort(L.late_rel, (size_t)L.k, sizeof(int), cmp_int);

    /* items: 0 = the early tree (its top is the root), 1 + i = plan->rank[i] */
    int k = L.k, nitems = k + 1, parent[MAX_LATE + 1], order[MAX_LATE + 1], alive[MAX_LATE + 1];
    double ready[MAX_LATE + 1];
    int ne = p - k, mine = in_list(plan, rank) + 1; /* my item: 0 when early */
    ready[0] = pc_tree_height(PC_TREE_BINOMIAL, 2, ne) * c;
    for (int i = 0; i < k; i++) ready[1 + i] = plan->offset[i];
    for (int i = 0; i < nitems; i++) {
        parent[i] = -1;
        order[i] = 0;
        alive[i] = 1;
    }
    for (int merged = 0; merged < k; merged++) {
        int x = -1, y = -1; /* the two earliest alive items, x before y */
        for (int i = 0; i < nitems; i++) {
            if (!alive[i]) continue;
            if (x < 0 || ready[i] < ready[x]) {
                y = x;
                x = i;
            } else if (y < 0 || ready[i] < ready[y]) {
                y = i;
            }
        }
        int recv = x == 0 ? x : y, send = recv == x ? y : x;
        parent[send] = recv;
        order[send] = merged;
        alive[send] = 0;
        double when = ready[send] + c;
        if (when > ready[recv]) ready[recv] = when;
    }

    pc_tree_t early = {.parent = -1};
    if (mine == 0 && pc_tree_build(&early, PC_TREE_BINOMIAL, 2, pos_of(&L, rank), ne, 0)) return -1;
    int nlate_children = 0, top = mine > 0 || rank == root; /* of the early ones only the root takes late children */
    for (int i = 1; i < nitems; i++) nlate_children += top && parent[i] == mine;
    memset(t, 0, sizeof *t);
    t->children = malloc((size_t)(early.nchildren + nlate_children + 1) * sizeof(int));
    if (!t->children) {
        pc_tree_free(&early);
        return -1;
    }
    /* binomial children smallest subtree first (pc_tree_build lists them
     * largest first), as reduce binomial combines them */
    for (int i = early.nchildren - 1; i >= 0; i--) t->children[t->nchildren++] = rank_at(&L, early.children[i]);
    for (int o = 0; o < k; o++)
        for (int i = 1; i < nitems; i++)
            if (top && parent[i] == mine && order[i] == o) t->children[t->nchildren++] = plan->rank[i - 1];
    if (mine == 0) t->parent = early.parent < 0 ? -1 : rank_at(&L, early.parent);
    else t->parent = parent[mine] == 0 ? root : plan->rank[parent[mine] - 1];
    t->height = early.height + k;
    pc_tree_free(&early);
    return 0;
}

/* ---- observation ---- */

/* A stamp: [s, n, rank_0, offset_0, ...]: s = seconds from the sender's
 * arrival to its send, then its subtree's latest arrivals relative to its
 * own arrival. */
static void pack_list(double *msg, double s, const late_list_t *l)
{
    msg[0] = s;
    msg[1] = l->n;
    for (int i = 0; i < l->n; i++) {
        msg[2 + 2 * i] = l->rank[i];
        msg[3 + 2 * i] = l->offset[i];
    }
}

static void unpack_list(const double *msg, late_list_t *l, int max)
{
    int n = (int)msg[1];
    l->n = 0;
    for (int i = 0; i < n && i < MAX_LATE; i++) keep_latest(l, max, (int)msg[2 + 2 * i], msg[3 + 2 * i]);
}

/* The stamps up `tree`: *seen gets my subtree's K latest arrivals relative
 * to my arrival t0 (at the root: everyone's, relative to the root). */
static int observe(const pc_call_t *a, const pc_tree_t *tree, double t0, int K, late_list_t *seen)
{
    int nc = tree->nchildren, rc = MPI_SUCCESS;
    double *in = nc ? malloc((size_t)nc * MSG_DOUBLES * sizeof(double)) : NULL;
    MPI_Request *req = nc ? malloc((size_t)nc * sizeof *req) : NULL;
    int *idx = nc ? malloc((size_t)nc * sizeof *idx) : NULL;
    seen->n = 0;
    keep_latest(seen, K, a->ctx->rank, 0.0);
    if (nc && (!in || !req || !idx)) rc = MPI_ERR_NO_MEM;
    for (int i = 0; i < nc && rc == MPI_SUCCESS; i++)
        rc = PMPI_Irecv(in + (size_t)i * MSG_DOUBLES, MSG_DOUBLES, MPI_DOUBLE, tree->children[i],
                        PC_TAG_REDUCE_CLAIRVOYANT_STAMP, a->ctx->comm, &req[i]);
    for (int left = nc, first = 1; left > 0 && rc == MPI_SUCCESS; first = 0) {
        int got = 0;
        rc = pc_some_complete(nc, req, !first, &got, idx);
        double now = PMPI_Wtime() - t0;
        left -= got;
        /* stamps already here when I came: their subtrees all arrived before me, by how much is unknown;
         * kept, as upper bounds, they would crowd the truly late out of the K latest (a late process's
         * early subtree looking as late as it), so they are dropped: a tree change shows them later */
        for (int j = 0; j < got && rc == MPI_SUCCESS && !first; j++) {
            const double *m = in + (size_t)idx[j] * MSG_DOUBLES;
            late_list_t child;
            unpack_list(m, &child, K);
            double child_arrival = now - m[0] - a->params->alpha;
            for (int e = 0; e < child.n; e++) keep_latest(seen, K, child.rank[e], child.offset[e] + child_arrival);
        }
    }
    if (rc == MPI_SUCCESS && tree->parent >= 0) {
        double out[MSG_DOUBLES] = {0};
        pack_list(out, PMPI_Wtime() - t0, seen);
        rc = PMPI_Send(out, MSG_DOUBLES, MPI_DOUBLE, tree->parent, PC_TAG_REDUCE_CLAIRVOYANT_STAMP, a->ctx->comm);
    }
    if (rc != MPI_SUCCESS)
        for (int i = 0; req && i < nc; i++)
            if (req[i] != MPI_REQUEST_NULL) {
                PMPI_Cancel(&req[i]);
                pc_wait_request(&req[i], MPI_STATUS_IGNORE);
            }
    free(in);
    free(req);
    free(idx);
    return rc;
}

/* ---- agreement ---- */

/* Root: the prediction from this observation and the previous one.  Late
 * means later than the root by more than `late`: a rank that arrives before
 * the others' binomial tree would have finished costs nothing there. */
static void predict(clair_state_t *s, const late_list_t *seen, int root, double late, late_list_t *next)
{
    late_list_t now = {0};
    for (int i = 0; i < seen->n; i++)
        if (seen->rank[i] != root && seen->offset[i] > late)
            keep_latest(&now, MAX_LATE, seen->rank[i], seen->offset[i]);
    next->n = 0;
    for (int i = 0; i < now.n; i++)
        if (in_list(&s->seen, now.rank[i]) >= 0) keep_latest(next, MAX_LATE, now.rank[i], now.offset[i]);
    s->seen = now;
}

static int post_prediction(const pc_call_t *a, clair_state_t *s, const late_list_t *next)
{
    int rc = MPI_SUCCESS, p = a->ctx->size;
    s->nreq = 0;
    if (a->ctx->rank == a->root) {
        pack_list(s->msg, (double)s->calls, next);
        for (int r = 0; r < p && rc == MPI_SUCCESS; r++)
            if (r != a->root)
                rc = PMPI_Isend(s->msg, MSG_DOUBLES, MPI_DOUBLE, r, PC_TAG_REDUCE_CLAIRVOYANT_PLAN, a->ctx->comm,
                                &s->req[s->nreq++]);
    } else {
        rc = PMPI_Irecv(s->msg, MSG_DOUBLES, MPI_DOUBLE, a->root, PC_TAG_REDUCE_CLAIRVOYANT_PLAN, a->ctx->comm,
                        &s->req[0]);
        if (rc == MPI_SUCCESS) s->nreq = 1;
    }
    return rc;
}

static void describe(const late_list_t *l, char *out, size_t len)
{
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; i < l->n && used + 32 < len; i++)
        used += (size_t)snprintf(out + used, len - used, "%s%d (+%.3g s)", i ? ", " : "", l->rank[i], l->offset[i]);
    if (!l->n) snprintf(out, len, "none: binomial tree");
}

/* Start of a call: adopt the prediction sent in the previous observation. */
static int adopt_prediction(const pc_call_t *a, clair_state_t *s)
{
    if (!s->nreq) return MPI_SUCCESS;
    int rc = pc_waitall(s->nreq, s->req, MPI_STATUSES_IGNORE);
    s->nreq = 0;
    if (rc != MPI_SUCCESS) return rc;
    late_list_t next;
    unpack_list(s->msg, &next, MAX_LATE);
    int changed = next.n != s->plan.n || memcmp(next.rank, s->plan.rank, (size_t)next.n * sizeof(int));
    s->plan = next; /* the offsets are refreshed even when the ranks repeat */
    s->tree_ok = 0;
    if (!changed) return MPI_SUCCESS;
    if (next.n) s->plans++;
    if (a->ctx->rank == a->root && pc_log_enabled(PC_LOG_DEBUG)) {
        char text[512];
        describe(&next, text, sizeof text);
        pc_log(PC_LOG_DEBUG, "reduce clairvoyant: root %d, call %lu on this root: predicted late %s", a->root,
               s->calls, text);
    }
    return MPI_SUCCESS;
}

int pc_reduce_clairvoyant(const pc_call_t *a)
{
    double t0 = PMPI_Wtime();
    int rank = a->ctx->rank, p = a->ctx->size, root = a->root, rc = MPI_SUCCESS;
    long K = a->params->reduce.clairvoyant_late, period = a->params->reduce.clairvoyant_period;
    int predicting = K > 0 && !a->params->reproducible;
    double c = a->params->alpha + a->params->beta * (double)a->bytes;
    void *result = rank == root ? a->recvbuf : NULL;
    pc_tree_t fixed = {.parent = -1}, *tree = &fixed;
    late_list_t none = {0};
    clair_state_t *s = NULL;

    if (a->count == 0) return MPI_SUCCESS;
    if (K > MAX_LATE) K = MAX_LATE;
    if (predicting) {
        if (!(s = state_of(a->ctx, root, 1))) return MPI_ERR_NO_MEM;
        rc = adopt_prediction(a, s);
        if (rc == MPI_SUCCESS && (!s->tree_ok || s->tree_c != c)) {
            pc_tree_free(&s->tree);
            s->tree_ok = 0;
            if (build_tree(&s->tree, &s->plan, rank, p, root, c)) rc = MPI_ERR_NO_MEM;
            else s->tree_ok = 1, s->tree_c = c;
        }
        tree = &s->tree;
    } else if (build_tree(&fixed, &none, rank, p, root, c)) {
        rc = MPI_ERR_NO_MEM;
    }
    int observing = predicting && (period <= 1 || s->calls < 3 || s->calls % (unsigned long)period == 0);
    late_list_t seen = {0};
    if (rc == MPI_SUCCESS && observing) rc = observe(a, tree, t0, (int)K, &seen);
    if (rc == MPI_SUCCESS)
        rc = pc_tree_reduce(a, a->sendbuf, result, a->count, pc_reduce_segment_count(a), tree,
                            (int)a->params->max_inflight, PC_TAG_REDUCE_DATA);
    if (rc == MPI_SUCCESS && observing) {
        late_list_t next = {0};
        if (rank == root) predict(s, &seen, root, pc_tree_height(PC_TREE_BINOMIAL, 2, p) * c, &next);
        rc = post_prediction(a, s, &next);
    }
    if (s) s->calls++;
    pc_tree_free(&fixed);
    return rc;
}

int pc_reduce_clairvoyant_plan(MPI_Comm comm, int root, int *late, int max, unsigned long *plans)
{
    pc_comm_t *ctx;
    int rc = pc_comm_get(comm, &ctx);
    if (rc != MPI_SUCCESS) return -1;
    clair_state_t *s = state_of(ctx, root, 0);
    if (plans) *plans = s ? s->plans : 0;
    if (!s) return 0;
    for (int i = 0; i < s->plan.n && i < max; i++) late[i] = s->plan.rank[i];
    return s->plan.n;
}
