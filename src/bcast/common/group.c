/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bcast/common/group.c - the sub-group broadcast of the arrival-aware algorithms
 * (arrival_b, arrival_nb): the root serves a group of receivers that have
 * arrived, which only the root knows.  A header travels ahead of the data
 * and tells each member what to do and whom to serve:
 *
 *   chain: {seq, CHAIN, segsize, n, successors...}  root -> m1 -> m2 -> ...,
 *          each member forwards the list without itself, then relays the
 *          segments (the segmented tree engine on a one-child tree).
 *   tree:  {seq, TREE, 0, L, me, my subtree...}  root -> m1, then a binomial
 *          tree over the members in arrival order (m1 = index 0): index
 *          c = 2^j < L of my list is a child and gets [c, min(2c, L)).
 *   sag:   {seq, SAG, 0, g, root, m1, ..., m(g-1)}  down the binomial scatter
 *          tree of the group, then the scatter and a ring allgather among
 *          the g processes.
 *
 *   group {3, 7, 1, 5, 6} of root 0, tree:  0 -> 3 {3 7 1 5 6};  3 -> 6 {6},
 *   3 -> 1 {1 5} -> 5 {5},  3 -> 7 {7}   (3's children: indices 4, 2, 1)
 *
 * Cost (Hockney, group of g processes, message m, k segments): chain
 * (g - 2 + k)(alpha + beta m/k); tree (1 + ceil(log2 (g-1)))(alpha + beta m);
 * sag (log2 g + g - 1) alpha + 2 ((g-1)/g) m beta; plus the header, one
 * small message per member.  The root takes the tree when its model cost is
 * below the chain's (small messages, large groups), the chain otherwise,
 * sag when PAPCOLL_ARRIVAL_SAG_MIN / _SAG_BYTES ask for it.  Chain and tree
 * cost the root one message per group: its link is what all rounds share.
 * Late arrival: only processes that have announced themselves are members,
 * so nobody waits for a late process here.
 * Source: Patarasuk & Yuan 2008 §4 ("sub-group broadcast": header with the list of
 * receivers, then linear-p or scatter-allgather, whichever is faster on the platform).
 */
#include "bcast/bcast.h"
#include "core/p2p.h"
#include "sched/tree_engine.h"

#include <sched.h>
#include <stdlib.h>
#include <time.h>

static int send_header(const long long *hdr, long long count, int dst, MPI_Comm comm)
{
    return PMPI_Send(hdr, (int)(PC_HDR_FIXED + count), MPI_LONG_LONG, dst, PC_TAG_GROUP_HEADER, comm);
}

/* Relays the data along the chain of hdr's successors, receiving from `from` (-1 at the root). */
static int chain(const pc_call_t *a, const long long *hdr, int from)
{
    MPI_Comm comm = a->ctx->comm;
    long long count = hdr[PC_HDR_COUNT];
    int rc = MPI_SUCCESS, next = count > 0 ? (int)hdr[PC_HDR_FIXED] : -1;
    if (next >= 0) { /* the successor gets the rest of the list */
        long long *fwd = malloc((size_t)(PC_HDR_FIXED + count) * sizeof *fwd);
        if (!fwd) return MPI_ERR_NO_MEM;
        for (int i = 0; i < PC_HDR_FIXED; i++) fwd[i] = hdr[i];
        fwd[PC_HDR_COUNT] = count - 1;
        for (long long i = 1; i < count; i++) fwd[PC_HDR_FIXED + i - 1] = hdr[PC_HDR_FIXED + i];
        rc = send_header(fwd, count - 1, next, comm);
        free(fwd);
    }
    pc_tree_t link = {.parent = from, .nchildren = next >= 0, .children = &next, .height = (int)count + 1};
    if (rc == MPI_SUCCESS)
        rc = pc_tree_bcast(a->buf, a->bytes, (size_t)hdr[PC_HDR_SEGSIZE], &link, PC_SEND_NONBLOCKING,
                           (int)a->params->max_inflight, comm, PC_TAG_GROUP_DATA);
    return rc;
}

/* Binomial tree over hdr's list (me first, then my subtree), receiving from
 * `from`.  The root (from == -1) is not in the list: its only child is the
 * first member, which gets the whole list, so the root sends the message
 * once per group, as in the chain. */
static int tree(const pc_call_t *a, const long long *hdr, int from)
{
    MPI_Comm comm = a->ctx->comm;
    int L = (int)hdr[PC_HDR_COUNT], rc = MPI_SUCCESS, nc = 0, height = 0;
    if (from < 0) {
        int first = (int)hdr[PC_HDR_FIXED];
        rc = send_header(hdr, L, first, comm);
        pc_tree_t t = {.parent = -1, .nchildren = 1, .children = &first, .height = 1};
        return rc != MPI_SUCCESS ? rc : pc_tree_bcast(a->buf, a->bytes, (size_t)hdr[PC_HDR_SEGSIZE], &t,
                                                      PC_SEND_NONBLOCKING, (int)a->params->max_inflight, comm,
                                                      PC_TAG_GROUP_DATA);
    }
    long top = 1;
    while (top < L) top <<= 1, height++;
    long long *fwd = malloc((size_t)(PC_HDR_FIXED + L) * sizeof *fwd);
    int *children = malloc((size_t)(height + 1) * sizeof *children);
    if (!fwd || !children) {
        rc = MPI_ERR_NO_MEM;
        goto out;
    }
    for (int i = 0; i < PC_HDR_FIXED; i++) fwd[i] = hdr[i];
    for (long c = top >> 1; c >= 1 && rc == MPI_SUCCESS; c >>= 1) { /* largest subtree first */
        if (c >= L) continue;
        long end = 2 * c < L ? 2 * c : L;
        fwd[PC_HDR_COUNT] = end - c;
        for (long i = c; i < end; i++) fwd[PC_HDR_FIXED + i - c] = hdr[PC_HDR_FIXED + i];
        children[nc++] = (int)hdr[PC_HDR_FIXED + c];
        rc = send_header(fwd, end - c, children[nc - 1], comm);
    }
    pc_tree_t t = {.parent = from, .nchildren = nc, .children = children, .height = height};
    if (rc == MPI_SUCCESS)
        rc = pc_tree_bcast(a->buf, a->bytes, (size_t)hdr[PC_HDR_SEGSIZE], &t, PC_SEND_NONBLOCKING,
                           (int)a->params->max_inflight, comm, PC_TAG_GROUP_DATA);
out:
    free(fwd);
    free(children);
    return rc;
}

/* Scatter + ring allgather among hdr's group (root first). */
static int sag(const pc_call_t *a, const long long *hdr)
{
    int g = (int)hdr[PC_HDR_COUNT], me = -1, rc = MPI_SUCCESS;
    int *ranks = malloc((size_t)g * sizeof *ranks);
    if (!ranks) return MPI_ERR_NO_MEM;
    for (int i = 0; i < g; i++) {
        ranks[i] = (int)hdr[PC_HDR_FIXED + i];
        if (ranks[i] == a->ctx->rank) me = i;
    }
    if (me < 0) {
        rc = MPI_ERR_INTERN;
        goto out;
    }
    /* the header goes down my scatter subtree first: children me + 2^j below my lowest set bit */
    long mask = 1;
    while (mask < g && !(me & mask)) mask <<= 1;
    for (mask >>= 1; mask > 0 && rc == MPI_SUCCESS; mask >>= 1)
        if (me + mask < g) rc = send_header(hdr, g, ranks[me + mask], a->ctx->comm);
    pc_bcast_group_t grp = {.size = g, .me = me, .ranks = ranks, .tag_scatter = PC_TAG_GROUP_SCATTER,
                            .tag_allgather = PC_TAG_GROUP_ALLGATHER};
    if (rc == MPI_SUCCESS) rc = pc_bcast_scatter(a, &grp);
    if (rc == MPI_SUCCESS) rc = pc_bcast_ring_allgather(a, &grp);
out:
    free(ranks);
    return rc;
}

/* The group broadcast the root uses for n members (see the file comment). */
static int group_kind(const pc_call_t *a, int n, size_t *segsize)
{
    const pc_params_t *pp = a->params;
    if (pp->bcast.arrival_sag_min > 0 && n + 1 >= pp->bcast.arrival_sag_min && a->bytes >= pp->bcast.arrival_sag_bytes) {
        *segsize = 0;
        return PC_GROUP_SAG;
    }
    size_t seg = pc_bcast_segsize(pp, a->bytes, n + 1);
    if (seg == 0 || seg > a->bytes) seg = a->bytes;
    double k = (double)((a->bytes + seg - 1) / seg), log2g = 0;
    for (long top = 1; top < n; top <<= 1) log2g++;
    double chain = (n - 1 + k) * (pp->alpha + pp->beta * (double)seg);
    double tree = (1 + log2g) * (pp->alpha + pp->beta * (double)a->bytes); /* root -> first member -> binomial */
    *segsize = tree < chain ? 0 : seg;
    return tree < chain ? PC_GROUP_TREE : PC_GROUP_CHAIN;
}

int pc_group_serve(const pc_call_t *a, const int *members, int n)
{
    size_t segsize;
    int kind = group_kind(a, n, &segsize), self = kind == PC_GROUP_SAG; /* sag lists the root first */
    long long *hdr = malloc((size_t)(PC_HDR_FIXED + n + 1) * sizeof *hdr);
    if (!hdr) return MPI_ERR_NO_MEM;
    hdr[PC_HDR_SEQ] = (long long)a->ctx->seq;
    hdr[PC_HDR_KIND] = kind;
    hdr[PC_HDR_SEGSIZE] = (long long)segsize;
    hdr[PC_HDR_COUNT] = n + self;
    if (self) hdr[PC_HDR_FIXED] = a->ctx->rank;
    for (int i = 0; i < n; i++) hdr[PC_HDR_FIXED + self + i] = members[i];
    int rc = kind == PC_GROUP_SAG ? sag(a, hdr) : kind == PC_GROUP_TREE ? tree(a, hdr, -1) : chain(a, hdr, -1);
    free(hdr);
    return rc;
}

int pc_group_recv_header(const pc_call_t *a, long long *hdr, int *from)
{
    /* The header comes from the root or from a member of my group; only this
     * call's header can be addressed to me now (the next call's needs my next
     * ARRIVED), so ANY_SOURCE on this tag is unambiguous. */
    MPI_Status st;
    int rc = PMPI_Recv(hdr, a->ctx->size + PC_HDR_FIXED, MPI_LONG_LONG, MPI_ANY_SOURCE, PC_TAG_GROUP_HEADER,
                       a->ctx->comm, &st);
    if (rc == MPI_SUCCESS && hdr[PC_HDR_SEQ] != (long long)a->ctx->seq) rc = MPI_ERR_INTERN;
    *from = st.MPI_SOURCE;
    return rc;
}

int pc_group_join(const pc_call_t *a, const long long *hdr, int from)
{
    switch (hdr[PC_HDR_KIND]) {
    case PC_GROUP_CHAIN: return chain(a, hdr, from);
    case PC_GROUP_TREE: return tree(a, hdr, from);
    case PC_GROUP_SAG: return sag(a, hdr);
    default: return MPI_ERR_INTERN;
    }
}

int pc_arrival_round(const pc_call_t *a, int n, MPI_Request *req, int waiting, int *done, int *ndone)
{
    double window = pc_arrival_window(a);
    int more, rc = pc_some_complete(n, req, 1, ndone, done);
    double until = window > 0 ? PMPI_Wtime() + window : 0;
    while (rc == MPI_SUCCESS && *ndone < waiting && PMPI_Wtime() < until) {
        pc_arrival_pause(a, until);
        rc = pc_some_complete(n, req, 0, &more, done + *ndone);
        *ndone += more;
    }
    return rc;
}

double pc_arrival_T(const pc_call_t *a)
{
    return a->params->alpha + a->params->beta * (double)a->bytes;
}

double pc_arrival_window(const pc_call_t *a)
{
    return a->params->bcast.arrival_window > 0 ? a->params->bcast.arrival_window * pc_arrival_T(a) : 0;
}

void pc_arrival_pause(const pc_call_t *a, double until)
{
#ifdef PAPCOLL_SMPI
    (void)a;
    double left = until - PMPI_Wtime(); /* a simulated sleep of at most 1 us, so arrivals are seen soon */
    if (left > 1e-6) left = 1e-6;
    if (left > 0) {
        struct timespec ts = {(time_t)left, (long)((left - (double)(time_t)left) * 1e9) + 1};
        nanosleep(&ts, NULL);
    }
#else
    (void)until;
    int flag; /* progress for the outstanding sends, then let an oversubscribed peer run */
    PMPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, a->ctx->comm, &flag, MPI_STATUS_IGNORE);
    sched_yield();
#endif
}
