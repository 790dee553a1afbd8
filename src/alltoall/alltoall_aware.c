/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * aware - the imbalance-aware alltoall(v) of Parsons 2015 §3.7.3: multiple
 * static senders per node and opportunistic message fragmentation.
 *
 * Every process copies its blocks into its node's exchange area
 * (node/node_exchange.h), laid out like hier's leader buffer: by destination
 * node k, then source process j of my node (a "segment": j's blocks for k's
 * processes, in rank order), and flags each (j, k) segment ready.  No leader:
 * for every pair of nodes (S, D) one process of S sends and one process of D
 * receives, fixed by rule, so no control message is needed and a late
 * process only holds up the pairs it owns:
 *   sender on S for D:    node rank ((D - S) mod N - 1) mod q_S
 *   receiver on D for S:  node rank q_D - 1 - ((D - S) mod N - 1) mod q_D
 * (N nodes; with q >= 2 (N - 1) the senders and receivers are different
 * processes, as in Parsons 2015, to avoid cache contention).  A sender polls its
 * destination nodes' segment flags and sends runs of adjacent ready
 * segments as one message each ("fragments"), by the preference order of
 * 3.7.3:
 *   1. runs that fill a whole gap: (a) the entire buffer, (b) a piece between
 *      segments already sent or the buffer's edges;
 *   2. partial runs (their neighbours not in yet), at least
 *      PAPCOLL_ALLTOALL_MIN_FRAGMENT bytes: (a) next to a sent segment or an
 *      edge first, then the largest;
 *   ties: the destination node nearest above the sender's node.
 * A fragment is [header | segment a][header | a + 1] ... : the header slot in
 * front of its first segment says which segments follow (interior slots
 * travel unread), so the receiver, which posts one receive at a time at its
 * append cursor, knows where each segment landed and flags it; processes
 * copy their blocks out as segments land (from other nodes) or are flagged
 * (from their own node, read in place).
 *
 *   nodes A = {a0 a1}, B = {b0 b1}, C = {c0 c1}; a1 late:
 *     sender A->B: a0, A->C: a1; receiver B<-A: b1, C<-A: c0
 *     a0 in: copies [a0->B | a0->C | a0->A], sends its B segment at once
 *            (a partial run at the edge) if >= MIN_FRAGMENT
 *     a1 in: copies, then a0 sends a1's B segment, a1 sends A->C whole
 *     B and C never wait for a1 to get a0's data.
 *
 * Rounds.  The area holds two banks, grown to what a call needs up to
 * PAPCOLL_EXCHANGE_AREA / 2 bytes each; when the call's data does not fit
 * that, every block is cut into pieces of w bytes (w from that limit, p and
 * the largest node: the same on every process)
 * and round r moves piece r of every block.  Round r is one use of the area
 * (node_exchange.h): a process finishes round r before it starts round r +
 * 1, and round r + 2 reuses round r's bank once every node process is done
 * with it, so early processes pre-send at most two rounds ahead of a late
 * one.  w = 0 (an area too small for one byte per block) runs hier instead
 * (logged).
 * The v form (ExchangeCntData): a process knows only its own counts, so the
 * node's counts (2 p per process) are gathered on the node first (a node
 * allgather): in the v form nothing leaves a node before all its processes
 * are in; the fixed form needs no exchange.
 *
 * Cost (Hockney, m bytes per block, N nodes of q processes, mu per byte
 * copied): per process 2 (p - 1) m mu of copies; per node pair one message of
 * q^2 m bytes when everyone is on time, so N - 1 messages per node sent by up
 * to N - 1 processes in parallel: (N - 1) / min(q, N - 1) alpha + (N - 1) q^2
 * m / min(q, N - 1) beta per sender, against hier's (N - 1) alpha + (N - 1)
 * q^2 m beta through one leader; with imbalance at most q fragments per node
 * pair (q alpha more).  Rounds multiply the alphas by ceil(m / w).
 * Late arrival: a late process delays only its own segments and the pairs it
 * sends or receives for; everything else is pre-sent, so the time after the
 * last arrival tends to one process's copy-in, its segments' sends and the
 * copy-out (Parsons 2015 Fig. 3.24).
 * Parameters: PAPCOLL_ALLTOALL_MIN_FRAGMENT (default 4K),
 * PAPCOLL_EXCHANGE_AREA (default 64M: one round up to 2 q p m = 32 MiB).
 * Source: Parsons 2015 §§3.7.3 (Fig. 3.18, opportunistic message
 * fragmentation and its preference order) and 3.9.3 (Table 3.8, Figs.
 * 3.24-3.26).
 */
#include "alltoall/alltoall_aware.h"
#include "alltoall/common/aware_wake.h"
#include "core/log.h"
#include "node/node_exchange.h"

#include <stdlib.h>
#include <string.h>

/* The header slot in front of every segment (only a fragment's first is read). */
typedef struct {
    uint32_t first, count; /* segments [first, first + count) follow */
    uint32_t seq, round;   /* the call and round (checked) */
} frag_hdr_t;
#define HDR sizeof(frag_hdr_t)

typedef struct {
    int klass;       /* preference: 0 entire buffer, 1 fills a gap, 2 partial at an edge, 3 partial */
    size_t bytes;    /* data bytes */
    int dist;        /* (D - M) mod N */
    int node, a, b;  /* segments [a, b) of node's region */
} run_t;

typedef struct {
    const pc_call_t *a;
    const pc_comm_t *c;
    pc_shm_t *shm;
    pc_node_xchg_t *x;
    pc_aware_wake_t *wake; /* SMPI: blocking waits on shared memory and MPI at once (NULL: poll) */
    int p, q, N, M, me, first, node_barrier;
    uint64_t block;        /* fixed form: bytes of every block but my own */
    uint64_t *sizes;       /* v form: [q][2 p]: member j sends to rank r at [j][r], receives from r at [j][p + r] */
    size_t w;              /* piece width */
    long rounds;
    /* the round's layout (offsets in the bank) */
    size_t *out_seg;       /* [N][q + 1]: header slot of segment j of region k; [k][q] its end */
    size_t *in_base;       /* [N + 1]: node k's part of the receive area */
    size_t *in_seg;        /* [p]: data bytes of rank j's segment to my node */
    size_t *my_off;        /* [p]: my piece's offset in rank j's segment to my node */
    /* the round's state */
    char *bank;
    uint64_t use;
    unsigned char *sent;   /* [N][q] sender: segment (k, j) sent or empty */
    unsigned char *copied; /* [p] my piece from rank j copied (or empty) */
    size_t *cursor;        /* [N] receiver: append cursor of node k's part */
    int *missing;          /* [N] receiver: non-empty segments from node k not landed */
    int out_left;          /* my pieces to copy out */
    int sends_left, sends_active, recvs_active;
    MPI_Request *req;      /* [N] receives (slot k), then sends, then one borrowed by the wake */
    int *idx;
    run_t *runs;
    int nreq;
    int seen_ready;        /* sender: segments found ready at the last look */
} aware_t;

static int qof(const pc_comm_t *c, int k) { return c->node_first[k + 1] - c->node_first[k]; }
static int member(const pc_comm_t *c, int k, int t) { return c->node_members[c->node_first[k] + t]; }
static int sender_of(int S, int D, int N, int qS) { return ((D - S + N) % N - 1) % qS; }
static int receiver_of(int S, int D, int N, int qD) { return qD - 1 - ((D - S + N) % N - 1) % qD; }

static uint64_t send_size(const aware_t *s, int j, int r)
{
    if (!s->sizes) return member(s->c, s->M, j) == r ? 0 : s->block;
    return s->sizes[(size_t)j * 2 * (size_t)s->p + (size_t)r];
}
static uint64_t recv_size(const aware_t *s, int d, int r)
{
    if (!s->sizes) return member(s->c, s->M, d) == r ? 0 : s->block;
    return s->sizes[(size_t)d * 2 * (size_t)s->p + (size_t)s->p + (size_t)r];
}
static size_t piece(const aware_t *s, uint64_t total, long round)
{
    uint64_t lo = (uint64_t)round * s->w;
    return total > lo ? (size_t)(total - lo < s->w ? total - lo : s->w) : 0;
}

static int is_sender(const aware_t *s, int D) { return D != s->M && sender_of(s->M, D, s->N, s->q) == s->me; }
static int is_receiver(const aware_t *s, int S) { return S != s->M && receiver_of(S, s->M, s->N, s->q) == s->me; }

/* ---- sizes and layout ------------------------------------------------------ */

/* The node's counts (v form: a node allgather) and the piece width. */
static int exchange_counts(aware_t *s)
{
    const pc_call_t *a = s->a;
    int p = s->p;
    if (!a->vform) {
        s->block = pc_blocks_span(&a->sblocks, 0, 0);
        return MPI_SUCCESS;
    }
    uint64_t *mine = malloc(2 * (size_t)p * sizeof *mine);
    s->sizes = malloc(2 * (size_t)p * (size_t)s->q * sizeof *s->sizes);
    if (!mine || !s->sizes) {
        free(mine);
        return MPI_ERR_NO_MEM; /* (the node then hangs in the allgather: out of memory is fatal anyway) */
    }
    for (int r = 0; r < p; r++) {
        mine[r] = r == s->c->rank ? 0 : pc_blocks_span(&a->sblocks, r, r);
        mine[p + r] = r == s->c->rank ? 0 : pc_blocks_span(&a->rblocks, r, r);
    }
    int rc = PMPI_Allgather(mine, 2 * p, MPI_UINT64_T, s->sizes, 2 * p, MPI_UINT64_T, s->c->node);
    free(mine);
    return rc;
}

/* w and the rounds: a round's data (at most 2 max_ppn p w plus headers)
 * fits the largest bank (PAPCOLL_EXCHANGE_AREA / 2), so w depends only on
 * values every process shares and every node cuts the same pieces.
 * Returns the bank this node needs: the largest round's data, less than the
 * largest bank when everything fits in one round (the same on every node
 * process: `most` is the node's largest block). */
static size_t choose_rounds(aware_t *s)
{
    const pc_comm_t *c = s->c;
    size_t bank = pc_node_xchg_bank_limit();
    size_t headers = ((size_t)c->nnodes * (size_t)c->max_ppn + (size_t)s->p) * HDR;
    size_t per_byte = 2 * (size_t)c->max_ppn * (size_t)s->p;
    s->w = bank > headers ? (bank - headers) / per_byte : 0;
    uint64_t most = s->block;
    if (s->sizes)
        for (size_t i = 0; i < 2 * (size_t)s->p * (size_t)s->q; i++)
            if (s->sizes[i] > most) most = s->sizes[i];
    if (s->w == 0 || most == 0) {
        s->rounds = 0;
        return 0;
    }
    s->rounds = (long)((most + s->w - 1) / s->w);
    if (!s->sizes) s->w = (size_t)((most + (uint64_t)s->rounds - 1) / (uint64_t)s->rounds); /* even pieces */
    return headers + per_byte * (size_t)(most < s->w ? most : s->w);
}

static int lay_out(aware_t *s, long r)
{
    const pc_comm_t *c = s->c;
    int q = s->q;
    size_t at = 0;
    for (int k = 0; k < s->N; k++) {
        for (int j = 0; j < q; j++) {
            s->out_seg[(size_t)k * (q + 1) + j] = at;
            at += HDR;
            for (int t = 0; t < qof(c, k); t++) at += piece(s, send_size(s, j, member(c, k, t)), r);
        }
        s->out_seg[(size_t)k * (q + 1) + q] = at;
    }
    for (int k = 0; k < s->N; k++) {
        s->in_base[k] = at;
        for (int t = 0; t < qof(c, k); t++) {
            int src = member(c, k, t);
            size_t seg = 0;
            for (int d = 0; d < q; d++) {
                if (d == s->me) s->my_off[src] = seg;
                seg += piece(s, recv_size(s, d, src), r);
            }
            s->in_seg[src] = seg;
            if (k != s->M) at += HDR + seg;
        }
    }
    s->in_base[s->N] = at;
    return at <= pc_node_xchg_bank_bytes(s->x) ? MPI_SUCCESS : MPI_ERR_INTERN;
}

/* ---- one round ------------------------------------------------------------- */

static int copy_in(aware_t *s, long r)
{
    int rc = MPI_SUCCESS;
    const pc_comm_t *c = s->c;
    for (int i = 0; i < s->N; i++) {
        int k = (s->M + 1 + i) % s->N; /* the nodes after mine first, mine last */
        char *to = s->bank + s->out_seg[(size_t)k * (s->q + 1) + s->me] + HDR;
        for (int t = 0; t < qof(c, k); t++) {
            int y = member(c, k, t);
            size_t len = piece(s, send_size(s, s->me, y), r);
            pc_shm_copy(to, pc_blocks_at(&s->a->sblocks, y) + (size_t)r * s->w, len, s->shm);
            to += len;
        }
        pc_node_xchg_mark(s->x, pc_node_xchg_ready(s->x, s->me, k), s->use);
        if (s->wake && rc == MPI_SUCCESS) rc = pc_aware_wake_all(s->wake);
    }
    return rc;
}

static size_t seg_data(const aware_t *s, int k, int j)
{
    const size_t *o = s->out_seg + (size_t)k * (s->q + 1);
    return o[j + 1] - o[j] - HDR;
}

static int seg_ready(const aware_t *s, int k, int j)
{
    return seg_data(s, k, j) == 0 || pc_node_xchg_is_set(pc_node_xchg_ready(s->x, j, k), s->use);
}

static int by_preference(const void *x, const void *y)
{
    const run_t *u = x, *v = y;
    if (u->klass != v->klass) return u->klass - v->klass;
    if (u->bytes != v->bytes) return u->bytes > v->bytes ? -1 : 1;
    return u->dist - v->dist;
}

/* The sender's candidate runs (see the file comment); empty runs are marked sent. */
static int find_runs(aware_t *s)
{
    int n = 0, q = s->q;
    size_t min_fragment = s->a->params->alltoall_min_fragment;
    for (int k = 0; k < s->N; k++) {
        if (!is_sender(s, k)) continue;
        unsigned char *sent = s->sent + (size_t)k * q;
        for (int a = 0; a < q;) {
            if (sent[a] || !seg_ready(s, k, a)) {
                a++;
                continue;
            }
            int b = a + 1;
            while (b < q && !sent[b] && seg_ready(s, k, b)) b++;
            size_t bytes = 0;
            for (int j = a; j < b; j++) bytes += seg_data(s, k, j);
            int left = a == 0 || sent[a - 1], right = b == q || sent[b];
            int klass = left && right ? (a == 0 && b == q ? 0 : 1) : (left || right ? 2 : 3);
            if (bytes == 0 && klass <= 1) {
                memset(sent + a, 1, (size_t)(b - a)); /* nothing to move */
            } else if (bytes > 0 && (klass <= 1 || bytes >= min_fragment)) {
                run_t run = {klass, bytes, (k - s->M + s->N) % s->N, k, a, b};
                s->runs[n++] = run;
            }
            a = b;
        }
    }
    return n;
}

static int post_runs(aware_t *s, int n, long r)
{
    const pc_comm_t *c = s->c;
    qsort(s->runs, (size_t)n, sizeof *s->runs, by_preference);
    for (int i = 0; i < n; i++) {
        const run_t *run = &s->runs[i];
        const size_t *o = s->out_seg + (size_t)run->node * (s->q + 1);
        frag_hdr_t h = {(uint32_t)run->a, (uint32_t)(run->b - run->a), (uint32_t)s->a->seq, (uint32_t)r};
        char *at = s->bank + o[run->a];
        memcpy(at, &h, sizeof h);
        int dst = member(c, run->node, receiver_of(s->M, run->node, s->N, qof(c, run->node)));
        int rc = pc_isend(at, o[run->b] - o[run->a], dst, PC_TAG_ALLTOALL_FRAGMENT, c->comm, &s->req[s->nreq++]);
        if (rc != MPI_SUCCESS) return rc;
        memset(s->sent + (size_t)run->node * s->q + run->a, 1, (size_t)(run->b - run->a));
        s->sends_active++;
    }
    return MPI_SUCCESS;
}

static int post_receive(aware_t *s, int k)
{
    const pc_comm_t *c = s->c;
    int src = member(c, k, sender_of(k, s->M, s->N, qof(c, k)));
    s->recvs_active++;
    return pc_irecv(s->bank + s->cursor[k], s->in_base[k + 1] - s->cursor[k], src, PC_TAG_ALLTOALL_FRAGMENT, c->comm,
                    &s->req[k]);
}

/* A fragment from node k landed at its cursor: flag its segments. */
static int landed(aware_t *s, int k, long r)
{
    const pc_comm_t *c = s->c;
    frag_hdr_t h;
    memcpy(&h, s->bank + s->cursor[k], sizeof h);
    s->recvs_active--;
    if (h.seq != (uint32_t)s->a->seq || h.round != (uint32_t)r || h.count == 0 ||
        (long)h.first + h.count > qof(c, k))
        return MPI_ERR_INTERN;
    size_t at = s->cursor[k];
    for (uint32_t t = h.first; t < h.first + h.count; t++) {
        size_t seg = s->in_seg[member(c, k, (int)t)];
        atomic_store_explicit(pc_node_xchg_where(s->x, s->use, k, (int)t), at, memory_order_relaxed);
        pc_node_xchg_mark(s->x, pc_node_xchg_landed(s->x, s->use, k, (int)t), s->use);
        if (seg) s->missing[k]--;
        at += HDR + seg;
    }
    s->cursor[k] = at;
    int rc = s->wake ? pc_aware_wake_all(s->wake) : MPI_SUCCESS;
    if (rc == MPI_SUCCESS && s->missing[k] > 0) rc = post_receive(s, k);
    return rc;
}

/* Copies out every piece of mine that is in; returns how many. */
static int copy_out(aware_t *s, long r)
{
    const pc_comm_t *c = s->c;
    int moved = 0;
    for (int k = 0; k < s->N; k++)
        for (int t = 0; t < qof(c, k); t++) {
            int src = member(c, k, t);
            if (s->copied[src]) continue;
            const char *from;
            if (k == s->M) {
                if (!pc_node_xchg_is_set(pc_node_xchg_ready(s->x, t, k), s->use)) continue;
                from = s->bank + s->out_seg[(size_t)k * (s->q + 1) + t];
            } else {
                if (!pc_node_xchg_is_set(pc_node_xchg_landed(s->x, s->use, k, t), s->use)) continue;
                from = s->bank + atomic_load_explicit(pc_node_xchg_where(s->x, s->use, k, t), memory_order_relaxed);
            }
            pc_shm_copy(pc_blocks_at(&s->a->rblocks, src) + (size_t)r * s->w, from + HDR + s->my_off[src],
                        piece(s, recv_size(s, s->me, src), r), s->shm);
            s->copied[src] = 1;
            s->out_left--;
            moved++;
        }
    return moved;
}

/* Segments of my sender regions ready (sent ones included). */
static int count_ready(const aware_t *s)
{
    int n = 0;
    for (int k = 0; k < s->N; k++)
        if (is_sender(s, k))
            for (int j = 0; j < s->q; j++) n += s->sent[(size_t)k * s->q + j] || seg_ready(s, k, j);
    return n;
}

/* Something I wait for in shared memory has come (pc_wait's test): a segment
 * became ready since my last look (held-back partial runs do not count), or
 * a piece of mine is in. */
static int news(void *arg)
{
    aware_t *s = arg;
    if (count_ready(s) > s->seen_ready) return 1;
    for (int k = 0; k < s->N; k++) {
        for (int t = 0; t < qof(s->c, k); t++) {
            if (s->copied[member(s->c, k, t)]) continue;
            _Atomic uint64_t *w = k == s->M ? pc_node_xchg_ready(s->x, t, k) : pc_node_xchg_landed(s->x, s->use, k, t);
            if (pc_node_xchg_is_set(w, s->use)) return 1;
        }
    }
    return 0;
}

/* Request i completed: a fragment landed (receive slots) or a send is done. */
static int completed(aware_t *s, int i, long r)
{
    if (i < s->N) return landed(s, i, r);
    s->sends_active--;
    return MPI_SUCCESS;
}

/* Handles completed requests; block: wait for at least one. */
static int complete(aware_t *s, long r, int block)
{
    int n = 0, rc = pc_some_complete(s->nreq, s->req, block, &n, s->idx);
    for (int i = 0; i < n && rc == MPI_SUCCESS; i++) rc = completed(s, s->idx[i], r);
    return rc;
}

/* Waiting for both a flag and a request: SMPI blocks until either comes
 * (alltoall/common/aware_wake.h), natively one poll pause. */
static int wait_both(aware_t *s, long r)
{
    if (!s->wake) {
        pc_poll_pause(s->shm);
        return MPI_SUCCESS;
    }
    int i, rc = pc_aware_wake_sleep(s->wake, s->nreq, s->req, news, s, &i);
    if (rc == MPI_SUCCESS && i != MPI_UNDEFINED) rc = completed(s, i, r);
    return rc;
}

static int round_run(aware_t *s, long r)
{
    const pc_comm_t *c = s->c;
    int N = s->N, q = s->q, rc = lay_out(s, r);
    if (rc != MPI_SUCCESS) return rc;
    s->nreq = N;
    for (int k = 0; k < N; k++) s->req[k] = MPI_REQUEST_NULL;
    memset(s->sent, 0, (size_t)N * q);
    s->out_left = 0;
    s->sends_left = 0;
    s->sends_active = s->recvs_active = 0;
    for (int k = 0; k < N; k++)
        for (int t = 0; t < qof(c, k); t++) {
            int src = member(c, k, t);
            s->copied[src] = piece(s, recv_size(s, s->me, src), r) == 0;
            s->out_left += !s->copied[src];
        }
    rc = copy_in(s, r);
    if (s->node_barrier) pc_shm_barrier(s->shm);
    for (int k = 0; k < N && rc == MPI_SUCCESS; k++) {
        s->cursor[k] = s->in_base[k];
        s->missing[k] = 0;
        if (!is_receiver(s, k)) continue;
        for (int t = 0; t < qof(c, k); t++) s->missing[k] += s->in_seg[member(c, k, t)] > 0;
        if (s->missing[k]) rc = post_receive(s, k);
    }
    for (;;) {
        int unsent = 0, progress = 0;
        if (rc == MPI_SUCCESS) {
            s->seen_ready = count_ready(s);
            int n = find_runs(s);
            if (n) rc = post_runs(s, n, r);
            progress += n;
        }
        for (int k = 0; k < N; k++)
            if (is_sender(s, k))
                for (int j = 0; j < q; j++) unsent += !s->sent[(size_t)k * q + j];
        if (rc == MPI_SUCCESS && (s->sends_active || s->recvs_active)) rc = complete(s, r, 0);
        progress += copy_out(s, r);
        if (rc != MPI_SUCCESS) break;
        int mpi = s->sends_active || s->recvs_active, shared = unsent || s->out_left;
        if (!mpi && !shared) break;
        if (progress) continue;
        if (!shared)
            rc = complete(s, r, 1);
        else if (mpi)
            rc = wait_both(s, r);
        else
            pc_wait(s->shm, news, s);
    }
    if (rc != MPI_SUCCESS) /* leave no request behind */
        pc_waitall(s->nreq, s->req, MPI_STATUSES_IGNORE);
    return rc;
}

static void aware_free(aware_t *s)
{
    free(s->sizes);
    free(s->out_seg);
    free(s->in_base);
    free(s->in_seg);
    free(s->my_off);
    free(s->sent);
    free(s->copied);
    free(s->cursor);
    free(s->missing);
    free(s->req);
    free(s->idx);
    free(s->runs);
}

int pc_alltoall_aware_run(const pc_call_t *a, int node_barrier, const char *name)
{
    pc_comm_t *c = a->ctx;
    aware_t s = {.a = a, .c = c, .p = c->size, .q = c->node_size, .N = c->nnodes, .M = c->my_node,
                 .me = c->node_rank, .first = c->node_first[c->my_node], .node_barrier = node_barrier};
    int rc = exchange_counts(&s);
    if (rc != MPI_SUCCESS) {
        aware_free(&s);
        return rc;
    }
    size_t bank = choose_rounds(&s);
    if (s.w == 0) { /* the same decision everywhere: w depends on shared values only */
        if (c->rank == 0)
            pc_log(PC_LOG_INFO, "alltoall %s: PAPCOLL_EXCHANGE_AREA too small for one byte per block of %d processes: "
                   "hier instead", name, c->size);
        aware_free(&s);
        return pc_alltoall_hier(a);
    }
    rc = pc_node_xchg_get_bank(c, bank, &s.x, &s.shm);
    if (rc == MPI_SUCCESS) rc = pc_aware_wake_get(c, &s.wake);
    if (rc != MPI_SUCCESS) {
        aware_free(&s);
        return rc;
    }
    size_t N = (size_t)s.N, q = (size_t)s.q, p = (size_t)s.p;
    s.out_seg = malloc(N * (q + 1) * sizeof(size_t));
    s.in_base = malloc((N + 1) * sizeof(size_t));
    s.in_seg = malloc(p * sizeof(size_t));
    s.my_off = malloc(p * sizeof(size_t));
    s.sent = malloc(N * q);
    s.copied = malloc(p);
    s.cursor = malloc(N * sizeof(size_t));
    s.missing = malloc(N * sizeof(int));
    s.req = malloc((N + N * q + 1) * sizeof(MPI_Request));
    s.idx = malloc((N + N * q) * sizeof(int));
    s.runs = malloc(N * q * sizeof(run_t));
    if (!s.out_seg || !s.in_base || !s.in_seg || !s.my_off || !s.sent || !s.copied || !s.cursor || !s.missing ||
        !s.req || !s.idx || !s.runs)
        rc = MPI_ERR_NO_MEM; /* (rounds still taken: the node must not hang on the area) */
    for (long r = 0; r < s.rounds; r++) {
        s.bank = pc_node_xchg_begin(s.x, &s.use);
        if (rc == MPI_SUCCESS) rc = round_run(&s, r);
        pc_node_xchg_end(s.x, s.use);
    }
    aware_free(&s);
    return rc;
}

int pc_alltoall_aware(const pc_call_t *a) { return pc_alltoall_aware_run(a, 0, "aware"); }
