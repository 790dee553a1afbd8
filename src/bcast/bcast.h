/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bcast.h - the broadcast toolbox shared by its algorithms.
 *
 * bcast.c checks the arguments and hands the call to the entry path
 * (coll/entry.h), which selects an algorithm from algorithms.list and calls
 * it with a pc_call_t.  Broadcast is a byte collective: algorithms see a
 * contiguous buffer (a->buf, a->bytes: the user's, or a packed copy when the
 * datatype is not contiguous); algorithms flagged `datatype` in the list see
 * the user's buffer, count and datatype instead.
 */
#ifndef PC_BCAST_H
#define PC_BCAST_H

#include <mpi.h>
#include <stddef.h>

#include "coll/call.h"
#include "sched/blocks.h"
#include "sched/tree.h"

#include "bcast_algorithms.h" /* generated from algorithms.list: pc_bcast_<name>() */

extern const char pc_bcast_default_rules[];

/* Segment size for a pipeline of `stages` hops: PAPCOLL_BCAST_CHUNKS, else
 * PAPCOLL_BCAST_SEGSIZE, else the alpha-beta optimum of the SMPI bcast exercise,
 * k = sqrt(m (stages - 1) beta / alpha) segments, clamped to
 * [PAPCOLL_SEGSIZE_MIN, PAPCOLL_SEGSIZE_MAX]. */
size_t pc_bcast_segsize(const pc_params_t *p, size_t bytes, int stages);

/* Runs the segmented tree engine on a tree of the given shape. */
int pc_bcast_tree(const pc_call_t *a, pc_tree_shape_t shape, int segmented, int nonblocking);

/* The processes of one broadcast as the scatter and allgather phases see
 * them: group rank 0 holds the data; group rank i is communicator rank
 * (root + i) mod size over the whole communicator (ranks == NULL), or
 * ranks[i] for a sub-group (the arrival-aware algorithms). */
typedef struct pc_bcast_group {
    int size, me;          /* group size, my group rank */
    int root;              /* whole communicator: the root */
    const int *ranks;      /* sub-group: communicator rank of each group rank */
    int tag_scatter, tag_allgather;
} pc_bcast_group_t;

/* The whole communicator as a group. */
pc_bcast_group_t pc_bcast_whole(const pc_call_t *a);
static inline int pc_group_rank(const pc_bcast_group_t *g, long i)
{
    return g->ranks ? g->ranks[i] : (int)((i + g->root) % g->size);
}

/* Binomial scatter of Patarasuk & Yuan 2008 / MPICH: afterwards group rank r holds
 * block r (blocks of ceil(bytes/size) bytes, the last ones shorter or empty). */
int pc_bcast_scatter(const pc_call_t *a, const pc_bcast_group_t *g);
/* Ring allgather of the scatter's blocks: size - 1 steps, one block each. */
int pc_bcast_ring_allgather(const pc_call_t *a, const pc_bcast_group_t *g);
/* (Byte ranges of the blocks: pc_block_offset / pc_blocks_len, sched/blocks.h.) */

/* Sub-group broadcasts of the arrival-aware algorithms (bcast/common/group.c).
 * The root serves n arrived receivers; the data follows a header (MPI_LONG_LONG
 * on PC_TAG_GROUP_HEADER) that tells each member what to do. */
enum { PC_HDR_SEQ, PC_HDR_KIND, PC_HDR_SEGSIZE, PC_HDR_COUNT, PC_HDR_FIXED }; /* then COUNT ranks */
enum {
    PC_GROUP_CHAIN,  /* pipelined chain: the ranks are my successors */
    PC_GROUP_TREE,   /* binomial tree: the ranks are me, then my subtree */
    PC_GROUP_SAG,    /* binomial scatter + ring allgather: the ranks are the group, root first */
    PC_GROUP_PUSHED  /* arrival_nb: no group, the data is the root's push */
};
/* Root: serves members[0..n-1] (in arrival order) with a pipelined chain or
 * a binomial tree, whichever the alpha-beta model finds faster, or with
 * scatter + ring allgather for groups of at least PAPCOLL_ARRIVAL_SAG_MIN
 * processes and messages of at least PAPCOLL_ARRIVAL_SAG_BYTES. */
int pc_group_serve(const pc_call_t *a, const int *members, int n);
/* Receiver: receives this call's header (hdr holds size + PC_HDR_FIXED
 * values) from the root or a group member, and checks its sequence number. */
int pc_group_recv_header(const pc_call_t *a, long long *hdr, int *from);
/* Receiver: takes part in the group broadcast described by hdr, received from `from`. */
int pc_group_join(const pc_call_t *a, const long long *hdr, int from);
/* Root: one round of arrivals among n control receives req (waiting of them
 * still posted): blocks until at least one completes, then, with a batching
 * window (PAPCOLL_ARRIVAL_WINDOW), collects those completing before it ends;
 * done[0..*ndone-1] are their indices in order of completion. */
int pc_arrival_round(const pc_call_t *a, int n, MPI_Request *req, int waiting, int *done, int *ndone);
/* T = alpha + beta m: the model's time to send the message (PAPCOLL_ALPHA, _BETA). */
double pc_arrival_T(const pc_call_t *a);
/* Root: the batching window after a round's first arrival, in seconds:
 * PAPCOLL_ARRIVAL_WINDOW x T; 0 = serve at once. */
double pc_arrival_window(const pc_call_t *a);
/* One step of waiting until `until` (MPI_Wtime) while arrivals come in:
 * under SMPI a simulated sleep of at most 1 us, natively a short spin step
 * (MPI progress, sched_yield); callers loop and collect arrivals. */
void pc_arrival_pause(const pc_call_t *a, double until);


/* The dynamic-leader node tree (bcast/common/leader_tree.c): segsize 0 = whole
 * message per inter-node hop. */
int pc_bcast_leader_tree(const pc_call_t *a, pc_tree_shape_t shape, size_t segsize);
/* Competitive leaders + scatter and allgather among nodes (bcast/common/cp_allgather.c):
 * recursive doubling if rdb and the node count is a power of two, else ring. */
int pc_bcast_cp_allgather(const pc_call_t *a, int rdb);

/* Runs algorithm `name` (or "auto") on a contiguous buffer over another
 * communicator (hier: among node leaders).  Does not touch
 * papcoll_last_algorithm. */
int pc_bcast_bytes_on(const char *name, void *buf, size_t bytes, int root, MPI_Comm comm);

#endif
