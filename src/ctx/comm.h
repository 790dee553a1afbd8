/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * comm.h - papcoll's context per user communicator.
 *
 * The first papcoll call on a communicator builds a context and caches it on
 * the communicator (an attribute): a private duplicate for all library
 * traffic, the node communicator (real node, or virtual nodes of PAPCOLL_PPN
 * consecutive MPI_COMM_WORLD ranks), a leader communicator, and rank<->node
 * maps.  Nodes may have unequal sizes and non-consecutive ranks: nothing here
 * assumes rank / ppn.  The context is freed with the communicator and at
 * MPI_Finalize.
 */
#ifndef PC_COMM_H
#define PC_COMM_H

#include <mpi.h>
#include <stdint.h>

typedef struct pc_comm {
    MPI_Comm comm;         /* private duplicate: all library traffic */
    MPI_Comm node;         /* processes of my node */
    MPI_Comm leaders;      /* node leaders (lowest rank of each node); MPI_COMM_NULL elsewhere */
    int rank, size;        /* in comm */
    int node_rank, node_size;
    int my_node, nnodes;
    int max_ppn;           /* processes on the largest node */
    int nodes_in_rank_order; /* 1: each node's ranks are consecutive in comm (so nodes follow one another) */
    int *node_of;          /* [size]   node index of each rank */
    int *node_rank_of;     /* [size]   rank of each rank within its node */
    int *node_first;       /* [nnodes+1] node i's ranks are node_members[node_first[i] .. node_first[i+1]-1] */
    int *node_members;     /* [size]   ranks grouped by node, increasing within a node */
    long ppn_setting;      /* PAPCOLL_PPN when built (0 = real nodes) */
    unsigned long seq;     /* papcoll calls made on this context */
    struct pc_shm *shm;    /* node shared-memory segment, created on first use (shm.h) */
    struct pc_inbox *inbox; /* node inbox exposed to one-sided writes, created on first use (inbox.h) */
    struct pc_early *early; /* control messages of later calls that came early (early.h) */
    struct adapt_table *adapt_table; /* adaptive selection's states (select/adapt_state.c; owned by an attribute on comm) */
    struct pc_choice_cache *choices; /* memo of automatic selection (coll/choice_cache.h) */
    struct pc_call_memo *memos;      /* the last call of each collective (coll/call_memo.h) */
    int finalized;         /* MPI objects released at MPI_Finalize */
    uint64_t user_key;     /* the user's communicator handle as a key of comm.c's table of contexts */
    struct pc_comm *next;  /* live contexts */
} pc_comm_t;

/* Returns the cached context of an intracommunicator, building it on first
 * use (collective over comm on that first call).  MPI error code on failure.
 * Safe from several threads on different communicators (MPI forbids
 * concurrent collectives on one). */
int pc_comm_get(MPI_Comm comm, pc_comm_t **ctx);
/* comm's context if it has been built (and not released at MPI_Finalize),
 * else NULL: a lookup only, never collective.  Contexts exist only for
 * intracommunicators (every caller of pc_comm_get diverts or refuses an
 * intercommunicator first), so a front that finds one has none to divert.
 * comm must not be MPI_COMM_NULL (pc_check_comm first). */
pc_comm_t *pc_comm_known(MPI_Comm comm);

/* A per-communicator cache for the parts that keep state on a communicator
 * (node areas, topology, wake-up channels): looks up comm's attribute under
 * *keyval, creating the keyval on first use (under pc_lock, with delete_fn
 * run when comm is freed).  *value = the cached pointer and *found = 1, or
 * *found = 0 (the caller builds it and PMPI_Comm_set_attr's it). */
int pc_comm_cache_get(MPI_Comm comm, int *keyval, MPI_Comm_delete_attr_function *delete_fn, void *value, int *found);

/* Leader (lowest rank) of node i. */
static inline int pc_node_leader(const pc_comm_t *c, int node) { return c->node_members[c->node_first[node]]; }

/* The mailbox of node i for a collective rooted at `root`: the rank other
 * nodes address (the dynamic-leader reductions): `root` on the root's node,
 * the node's leader elsewhere. */
static inline int pc_node_mailbox(const pc_comm_t *c, int root, int node)
{
    return node == c->node_of[root] ? root : pc_node_leader(c, node);
}

#endif
