/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * node_copyout_tree.c - the bcast and numa copy-out variants (node_copyout.h):
 * binomial trees of MPI point-to-point messages inside a node, one per domain
 * (bcast: the whole node is one domain), each rooted at a process that holds
 * the message privately.
 *
 * bcast.  Idea: instead of q - 1 processes copying the same m bytes out of
 * the segment at once, the holder sends them down a binomial tree (the MPI
 * library's own intra-node transport: its shared memory, or single copy).
 * The holder is the writer, known to every node process (the root on its
 * node, fixed leaders: pc_copyout_init's writer).
 * Cost (q processes): ceil(log2 q) rounds of (alpha + m beta_intra), one copy
 * per byte per process (the library's), no ring when the writer roots.
 * Late arrival: the worst of the variants: a late process holds back its
 * whole subtree (up to q/2 processes), and for a message sent by rendezvous
 * its parent too (that parent waits in PMPI_Waitall until the late one
 * posts its receive; small, eager messages do not wait).  A late root of
 * the tree (the writer) delays every reader of the node by its lateness.
 * Source: Parsons 2015 §2.3.3 ("MPI Broadcast"), Fig. 2.8.
 *
 * numa.  Idea: one reader per NUMA domain copies the message out of the
 * segment (so each domain's memory is read across the interconnect once),
 * then sends it to the others of its domain with MPI messages.  The writer
 * roots its own domain when it is known (no copy there).
 * Cost (D domains of q/D): one ring copy-out per domain root, D in parallel,
 * then ceil(log2 (q/D)) rounds of MPI messages inside each domain.
 * Late arrival: a late domain root delays its whole domain; a late member
 * its subtree inside the domain (and its parent, rendezvous); other domains
 * are not affected (except through the ring, whose cells wait for the
 * slowest domain root when the message is larger than the ring).
 * Source: Parsons 2015 §2.3.3 ("NUMA Friendly Hybrid"), Fig. 2.8.
 */
#include "node/node_copyout.h"
#include "core/log.h"
#include "core/p2p.h"

typedef struct {
    int size;            /* processes of the domain */
    const int *members;  /* node ranks */
    int root_index;      /* index of the domain's root in members */
    int rel;             /* my index relative to the root's */
} domain_view_t;

/* The root of domain d: the writer if it is in d, else d's lowest node rank. */
static int domain_root(const pc_copyout_t *co, int d)
{
    const pc_numa_domains_t *D = co->domains;
    if (co->writer >= 0 && D->domain_of[co->writer] == d) return co->writer;
    return D->members[D->first[d]];
}

static domain_view_t my_domain(const pc_copyout_t *co)
{
    const pc_numa_domains_t *D = co->domains;
    int me = co->ctx->node_rank, d = D->domain_of[me];
    domain_view_t v = {D->first[d + 1] - D->first[d], D->members + D->first[d], 0, 0};
    int root = domain_root(co, d), mi = 0;
    for (int i = 0; i < v.size; i++) {
        if (v.members[i] == me) mi = i;
        if (v.members[i] == root) v.root_index = i;
    }
    v.rel = (mi - v.root_index + v.size) % v.size;
    return v;
}

static int comm_rank_of(const pc_copyout_t *co, const domain_view_t *v, int rel)
{
    int node_rank = v->members[(v->root_index + rel) % v->size];
    const pc_comm_t *c = co->ctx;
    return c->node_members[c->node_first[c->my_node] + node_rank];
}

static int lowbit(int r) { return r & -r; }

static size_t range_off(const pc_copyout_t *co, size_t first) { return first * pc_shm_cell_size(co->shm); }
static size_t range_end(const pc_copyout_t *co, size_t last)
{
    size_t end = last * pc_shm_cell_size(co->shm);
    return end < co->bytes ? end : co->bytes;
}

/* Sends buf[off, off + len) to my children in the domain's binomial tree, largest subtree first. */
static int send_children(const pc_copyout_t *co, const domain_view_t *v, const char *from, size_t len)
{
    int top = 1, rc = MPI_SUCCESS, n = 0;
    while (top < v->size) top <<= 1;
    MPI_Request req[32];
    for (int mask = top >> 1; mask > 0 && rc == MPI_SUCCESS; mask >>= 1) {
        if (v->rel != 0 && mask >= lowbit(v->rel)) continue;
        if (v->rel + mask >= v->size) continue;
        int dst = comm_rank_of(co, v, v->rel + mask);
        if (len <= PC_MAX_MSG) rc = pc_isend(from, len, dst, PC_TAG_NODE_COPYOUT, co->ctx->comm, &req[n++]);
        else rc = pc_send(from, len, dst, PC_TAG_NODE_COPYOUT, co->ctx->comm); /* in order: the child's pieces too */
    }
    int wrc = pc_waitall(n, req, MPI_STATUSES_IGNORE);
    return rc != MPI_SUCCESS ? rc : wrc;
}

static int recv_parent(const pc_copyout_t *co, const domain_view_t *v, char *into, size_t len)
{
    int src = comm_rank_of(co, v, v->rel - lowbit(v->rel));
    return pc_recv(into, len, src, PC_TAG_NODE_COPYOUT, co->ctx->comm);
}

void pc_copyout_tree_put(const pc_copyout_t *co, size_t first, size_t last)
{
    const pc_numa_domains_t *D = co->domains;
    int me = co->ctx->node_rank, ring = 0;
    for (int d = 0; d < D->ndomains; d++) ring |= domain_root(co, d) != me;
    if (!ring) return; /* every domain is served from my buffer */
    domain_view_t v = my_domain(co);
    int my_releases = v.rel == 0 ? v.size : 0; /* a root releases for its domain; else my root does it for me */
    pc_shm_ring_put(co->shm, co->seq, co->buf, co->bytes, first, last, my_releases);
}

int pc_copyout_tree_send(const pc_copyout_t *co, size_t first, size_t last)
{
    size_t off = range_off(co, first), end = range_end(co, last);
    if (off >= end) return MPI_SUCCESS;
    domain_view_t v = my_domain(co);
    if (v.rel != 0) return MPI_ERR_INTERN; /* a known writer roots its domain: called by a reader */
    return send_children(co, &v, co->buf + off, end - off);
}

int pc_copyout_tree_get(const pc_copyout_t *co, size_t first, size_t last)
{
    size_t off = range_off(co, first), end = range_end(co, last);
    if (off >= end) return MPI_SUCCESS;
    domain_view_t v = my_domain(co);
    if (pc_log_enabled(PC_LOG_DEBUG))
        pc_log(PC_LOG_DEBUG, "node copy-out %s seq=%lu bytes=%zu: %s (domain %d of %d, %d processes)",
               pc_copyout_name(co->variant), co->seq, end - off, v.rel == 0 ? "domain root, reads the ring" : "tree member",
               co->domains->domain_of[co->ctx->node_rank], co->domains->ndomains, v.size);
    int rc = MPI_SUCCESS;
    if (v.rel == 0) { /* my domain's root, not the writer: the ring, released for my whole domain */
        pc_shm_ring_get(co->shm, co->seq, co->buf, co->bytes, first, last, v.size);
    } else {
        rc = recv_parent(co, &v, co->buf + off, end - off);
    }
    int src = send_children(co, &v, co->buf + off, end - off); /* even after an error: my subtree must not hang */
    return rc != MPI_SUCCESS ? rc : src;
}
