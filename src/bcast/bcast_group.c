/*
 * bcast_group.c - the sub-group broadcast of the arrival-aware algorithms
 * (arrival_b, arrival_nb): the root serves a group of receivers that have
 * arrived, which only the root knows.  A header travels ahead of the data:
 *
 *   chain: {seq, CHAIN, segsize, n, successors...}  root -> m1 -> m2 -> ...,
 *          each member forwards the list without itself, then relays the
 *          segments (the segmented tree engine on a one-child tree).
 *   sag:   {seq, SAG, 0, g, root, m1, ..., m(g-1)}  down the binomial scatter
 *          tree of the group, then the scatter and a ring allgather among
 *          the g processes.
 *
 * Cost (Hockney, group of g processes, message m, k segments): chain
 * (g - 2 + k)(alpha + beta m/k); sag (log2 g + g - 1) alpha + 2 ((g-1)/g) m beta;
 * plus the header, one small message per member.
 * Source: seed 002 section 4 ("sub-group broadcast": header with the list of
 * receivers, then linear-p or scatter-allgather, whichever is faster on the platform).
 */
#include "bcast.h"
#include "../p2p.h"
#include "../tree_engine.h"

#include <stdlib.h>

static int send_header(const long long *hdr, long long count, int dst, MPI_Comm comm)
{
    return PMPI_Send(hdr, (int)(PC_HDR_FIXED + count), MPI_LONG_LONG, dst, PC_TAG_GROUP_HEADER, comm);
}

/* Relays the data along the chain of hdr's successors, receiving from `from` (-1 at the root). */
static int chain(const pc_bcast_args_t *a, const long long *hdr, int from)
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

/* Scatter + ring allgather among hdr's group (root first). */
static int sag(const pc_bcast_args_t *a, const long long *hdr)
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

int pc_group_serve(const pc_bcast_args_t *a, const int *members, int n)
{
    const pc_params_t *pp = a->params;
    int use_sag = pp->arrival_sag_min > 0 && n + 1 >= pp->arrival_sag_min && a->bytes >= pp->arrival_sag_bytes;
    long long *hdr = malloc((size_t)(PC_HDR_FIXED + n + 1) * sizeof *hdr);
    if (!hdr) return MPI_ERR_NO_MEM;
    int first = use_sag; /* sag lists the root first */
    hdr[PC_HDR_SEQ] = (long long)a->ctx->seq;
    hdr[PC_HDR_KIND] = use_sag ? PC_GROUP_SAG : PC_GROUP_CHAIN;
    hdr[PC_HDR_SEGSIZE] = use_sag ? 0 : (long long)pc_bcast_segsize(pp, a->bytes, n + 1);
    hdr[PC_HDR_COUNT] = n + first;
    if (use_sag) hdr[PC_HDR_FIXED] = a->ctx->rank;
    for (int i = 0; i < n; i++) hdr[PC_HDR_FIXED + first + i] = members[i];
    int rc = use_sag ? sag(a, hdr) : chain(a, hdr, -1);
    free(hdr);
    return rc;
}

int pc_group_recv_header(const pc_bcast_args_t *a, long long *hdr, int *from)
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

int pc_group_join(const pc_bcast_args_t *a, const long long *hdr, int from)
{
    switch (hdr[PC_HDR_KIND]) {
    case PC_GROUP_CHAIN: return chain(a, hdr, from);
    case PC_GROUP_SAG: return sag(a, hdr);
    default: return MPI_ERR_INTERN;
    }
}
