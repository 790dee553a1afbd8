/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * comm.c - context per communicator (see comm.h).
 */
#include "ctx/comm.h"
#include "core/handle_table.h"
#include "core/lock.h"
#include "core/params.h"
#include "core/phase.h"
#include "core/progress.h"
#include "core/tags.h"
#include "ctx/early.h"
#include "ctx/inbox.h"
#include "ctx/shm.h"
#include "nbc/request.h"

#include <stdatomic.h>
#include <stdlib.h>

/* The contexts by their communicator's handle: a call finds its context
 * without an attribute lookup (which takes the MPI library's lock).  Not
 * under SMPI, whose simulated ranks may share globals and where a host
 * instruction costs no simulated time. */
#ifndef PAPCOLL_SMPI
#define PC_CONTEXT_TABLE 1
enum { CONTEXT_SLOTS = 128 }; /* a power of two */
static _Atomic uint64_t context_keys[CONTEXT_SLOTS];
static pc_comm_t *context_records[CONTEXT_SLOTS];
static pc_handle_table_t contexts = {context_keys, context_records, sizeof context_records[0], CONTEXT_SLOTS};
#endif

static int context_keyval = MPI_KEYVAL_INVALID;
static atomic_int keyvals_created; /* context_keyval is set: no lock on a call's lookup */
static int finalize_keyval = MPI_KEYVAL_INVALID;
static pc_comm_t *live_contexts;

static void release_mpi_objects(pc_comm_t *c)
{
    if (c->finalized) return;
    pc_nbc_comm_release(c->comm); /* its nonblocking requests may still use the node memory */
    pc_inbox_free(c->inbox); /* before the communicator its window spans */
    c->inbox = NULL;
    pc_shm_free(c->shm);
    c->shm = NULL;
    if (c->leaders != MPI_COMM_NULL) PMPI_Comm_free(&c->leaders);
    if (c->node != MPI_COMM_NULL) PMPI_Comm_free(&c->node);
    if (c->comm != MPI_COMM_NULL) PMPI_Comm_free(&c->comm);
    c->finalized = 1;
}

static void destroy(pc_comm_t *c)
{
    pc_lock();
#ifdef PC_CONTEXT_TABLE
    pc_handle_forget(&contexts, c->user_key);
#endif
    for (pc_comm_t **p = &live_contexts; *p; p = &(*p)->next)
        if (*p == c) {
            *p = c->next;
            break;
        }
    pc_unlock();
    release_mpi_objects(c);
    pc_early_free(c);
    free(c->choices); /* one block (coll/choice_cache.c) */
    free(c->memos);   /* likewise (coll/call_memo.c) */
    free(c->node_of);
    free(c->node_rank_of);
    free(c->node_first);
    free(c->node_members);
    free(c);
}

static int delete_context(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)comm; (void)keyval; (void)extra;
    destroy(value);
    return MPI_SUCCESS;
}

/* Attributes of MPI_COMM_SELF are deleted first thing in MPI_Finalize: free
 * every context's communicators while MPI still works.  The structures stay
 * (marked finalized) until their own attribute is deleted, if ever. */
static int at_finalize(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)comm; (void)keyval; (void)value; (void)extra;
    pc_phase_report();
    /* releasing a context may destroy another (hier's context on the leaders
     * communicator): restart the walk after each release */
    pc_lock();
    for (pc_comm_t *c = live_contexts; c;) {
        if (c->finalized) {
            c = c->next;
            continue;
        }
        release_mpi_objects(c);
        c = live_contexts;
    }
    pc_unlock();
    return MPI_SUCCESS;
}

static int create_keyvals(void)
{
    int rc = pc_tags_init();
    if (rc == MPI_SUCCESS) rc = PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_context, &context_keyval, NULL);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, at_finalize, &finalize_keyval, NULL);
    if (rc == MPI_SUCCESS) rc = PMPI_Comm_set_attr(MPI_COMM_SELF, finalize_keyval, NULL);
    return rc;
}

/* Splits comm into nodes: the real node, or virtual nodes of `ppn`
 * consecutive MPI_COMM_WORLD ranks (a property of the process, like a real
 * node, so sub-communicators see non-consecutive placement). */
static int split_nodes(pc_comm_t *c)
{
    if (c->ppn_setting > 0) {
        int world_rank;
        PMPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
        return PMPI_Comm_split(c->comm, (int)(world_rank / c->ppn_setting), c->rank, &c->node);
    }
    /* Real nodes.  MPI_Comm_split_type's key is not honoured everywhere
     * (SMPI 3.32 orders a node by MPI_COMM_WORLD rank), yet node rank 0 must
     * be the node's lowest rank in c->comm: build_maps, the leaders
     * communicator and the fixed-leader algorithms agree on that.  So the
     * shared communicator is the node only where every node came out in
     * c->comm's rank order (one allreduce tells: creating a communicator
     * costs about ten of those); otherwise the membership is taken from it and
     * the node ordered with MPI_Comm_split. */
    MPI_Comm shared;
    MPI_Group shared_group = MPI_GROUP_NULL, group = MPI_GROUP_NULL;
    int n = 0, lowest = c->rank, ordered = 1, all_ordered = 0, *in = NULL, *out = NULL;
    int rc = PMPI_Comm_split_type(c->comm, MPI_COMM_TYPE_SHARED, c->rank, MPI_INFO_NULL, &shared);
    if (rc != MPI_SUCCESS) return rc;
    /* the node's lowest rank in c->comm, without a collective */
    PMPI_Comm_size(shared, &n);
    pc_progress_note_node(n);
    in = malloc((size_t)n * sizeof *in);
    out = malloc((size_t)n * sizeof *out);
    if (!in || !out) rc = MPI_ERR_NO_MEM;
    if (rc == MPI_SUCCESS) rc = PMPI_Comm_group(shared, &shared_group);
    if (rc == MPI_SUCCESS) rc = PMPI_Comm_group(c->comm, &group);
    for (int i = 0; i < n && rc == MPI_SUCCESS; i++) in[i] = i;
    if (rc == MPI_SUCCESS) rc = PMPI_Group_translate_ranks(shared_group, n, in, group, out);
    for (int i = 0; i < n && rc == MPI_SUCCESS; i++) {
        if (out[i] != MPI_UNDEFINED && out[i] < lowest) lowest = out[i];
        if (out[i] == MPI_UNDEFINED || (i > 0 && out[i] < out[i - 1])) ordered = 0;
    }
    if (shared_group != MPI_GROUP_NULL) PMPI_Group_free(&shared_group);
    if (group != MPI_GROUP_NULL) PMPI_Group_free(&group);
    free(in);
    free(out);
    /* every process reaches the allreduce and the split (collective), even after a local error */
    if (rc != MPI_SUCCESS) ordered = 0;
    int rc2 = PMPI_Allreduce(&ordered, &all_ordered, 1, MPI_INT, MPI_MIN, c->comm);
    if (rc == MPI_SUCCESS && rc2 == MPI_SUCCESS && all_ordered) {
        c->node = shared;
        return MPI_SUCCESS;
    }
    PMPI_Comm_free(&shared);
    if (rc == MPI_SUCCESS) rc = rc2;
    rc2 = PMPI_Comm_split(c->comm, rc == MPI_SUCCESS ? lowest : MPI_UNDEFINED, c->rank, &c->node);
    return rc != MPI_SUCCESS ? rc : rc2;
}

/* The rank in c->comm of node rank 0, the node's lowest (split_nodes orders
 * each node by rank), without a collective. */
static int node_leader_rank(const pc_comm_t *c, int *rank)
{
    MPI_Group node_group = MPI_GROUP_NULL, group = MPI_GROUP_NULL;
    int zero = 0, rc = PMPI_Comm_group(c->node, &node_group);
    if (rc == MPI_SUCCESS) rc = PMPI_Comm_group(c->comm, &group);
    if (rc == MPI_SUCCESS) rc = PMPI_Group_translate_ranks(node_group, 1, &zero, group, rank);
    if (node_group != MPI_GROUP_NULL) PMPI_Group_free(&node_group);
    if (group != MPI_GROUP_NULL) PMPI_Group_free(&group);
    return rc;
}

/* Builds the rank<->node maps from each rank's node leader (lowest rank of
 * its node); nodes are numbered in increasing order of their leader. */
static int build_maps(pc_comm_t *c)
{
    int rc, lowest, *leader_of = malloc((size_t)c->size * sizeof(int));
    int *node_of_leader = malloc((size_t)c->size * sizeof(int));
    c->node_of = malloc((size_t)c->size * sizeof(int));
    c->node_rank_of = malloc((size_t)c->size * sizeof(int));
    c->node_members = malloc((size_t)c->size * sizeof(int));
    rc = (leader_of && node_of_leader && c->node_of && c->node_rank_of && c->node_members) ? MPI_SUCCESS : MPI_ERR_NO_MEM;
    if (rc == MPI_SUCCESS) rc = node_leader_rank(c, &lowest);
    if (rc == MPI_SUCCESS) rc = PMPI_Allgather(&lowest, 1, MPI_INT, leader_of, 1, MPI_INT, c->comm);
    if (rc != MPI_SUCCESS) goto out;

    c->nnodes = 0;
    for (int r = 0; r < c->size; r++)
        if (leader_of[r] == r) node_of_leader[r] = c->nnodes++;
    c->node_first = calloc((size_t)c->nnodes + 1, sizeof(int));
    if (!c->node_first) {
        rc = MPI_ERR_NO_MEM;
        goto out;
    }
    for (int r = 0; r < c->size; r++) {
        c->node_of[r] = node_of_leader[leader_of[r]];
        c->node_first[c->node_of[r] + 1]++;
    }
    for (int i = 0; i < c->nnodes; i++) c->node_first[i + 1] += c->node_first[i];
    c->max_ppn = 0;
    for (int i = 0; i < c->nnodes; i++)
        if (c->node_first[i + 1] - c->node_first[i] > c->max_ppn) c->max_ppn = c->node_first[i + 1] - c->node_first[i];
    /* fill members in rank order: each node's list is increasing */
    int *fill = node_of_leader; /* reuse as per-node cursor */
    for (int i = 0; i < c->nnodes; i++) fill[i] = c->node_first[i];
    for (int r = 0; r < c->size; r++) {
        int n = c->node_of[r];
        c->node_rank_of[r] = fill[n] - c->node_first[n];
        c->node_members[fill[n]++] = r;
    }
    c->my_node = c->node_of[c->rank];
    /* nodes are numbered by their lowest rank: consecutive ranks per node iff node_of never decreases */
    c->nodes_in_rank_order = 1;
    for (int r = 1; r < c->size; r++)
        if (c->node_of[r] < c->node_of[r - 1]) c->nodes_in_rank_order = 0;
out:
    free(leader_of);
    free(node_of_leader);
    return rc;
}

/* The node leaders' communicator (nodes in order: leader i leads node i,
 * nodes being numbered by their leader's rank); MPI_COMM_NULL on the other
 * processes.  An MPI_Comm_split every process calls (threads_settle). */
static int create_leaders(pc_comm_t *c)
{
    return PMPI_Comm_split(c->comm, c->node_rank == 0 ? 0 : MPI_UNDEFINED, c->rank, &c->leaders);
}

/* Under MPI_THREAD_MULTIPLE, Open MPI 4.1 can hang communicator creations
 * for good when one thread of the processes creates a communicator among
 * some of them only (the leaders) and then one among others (a node's shared
 * window), while other threads create theirs: its context id agreement
 * serves one creation at a time per process, the lowest parent first, and a
 * process that is one creation behind in that thread blocks the others.
 * Reproduced with MPI calls only; MPICH 4.0.2 does not hang.  So the
 * context is built with creations every process makes (MPI_Comm_split, not
 * MPI_Comm_create_group, for the leaders, always), and under
 * MPI_THREAD_MULTIPLE the leaders' own context (where the algorithms that
 * run among them run) is built with it and no process leaves before every
 * process is done (as the one-sided inbox waits for
 * every node's window before its own, inbox.c).  The node's shared memory,
 * made at its first use, creates no communicator (ctx/node_window.h), unless
 * it is an MPI window (PAPCOLL_SHM_BACKEND=mpi, a node that could not map a
 * POSIX object, the inbox), which may still hang there beside other
 * threads' creations. */
static int threads_settle(pc_comm_t *c)
{
    int level = MPI_THREAD_SINGLE;
    PMPI_Query_thread(&level);
    if (level != MPI_THREAD_MULTIPLE) return MPI_SUCCESS;
    int rc = MPI_SUCCESS;
    if (c->leaders != MPI_COMM_NULL && c->nnodes < c->size) {
        pc_comm_t *inner;
        rc = pc_comm_get(c->leaders, &inner);
    }
    int rc2 = PMPI_Barrier(c->comm);
    return rc != MPI_SUCCESS ? rc : rc2;
}

static int build(MPI_Comm user, pc_comm_t **out)
{
    pc_comm_t *c = calloc(1, sizeof *c);
    if (!c) return MPI_ERR_NO_MEM;
    c->comm = c->node = c->leaders = MPI_COMM_NULL;
    c->ppn_setting = pc_params()->ppn;
    int rc = PMPI_Comm_dup(user, &c->comm);
    if (rc == MPI_SUCCESS) rc = PMPI_Comm_set_errhandler(c->comm, MPI_ERRORS_RETURN);
    if (rc == MPI_SUCCESS) {
        PMPI_Comm_rank(c->comm, &c->rank);
        PMPI_Comm_size(c->comm, &c->size);
        rc = split_nodes(c);
    }
    if (rc == MPI_SUCCESS) {
        PMPI_Comm_rank(c->node, &c->node_rank);
        PMPI_Comm_size(c->node, &c->node_size);
        rc = build_maps(c);
    }
    if (rc == MPI_SUCCESS) rc = create_leaders(c);
    if (rc == MPI_SUCCESS) rc = threads_settle(c);
    if (rc == MPI_SUCCESS) rc = PMPI_Comm_set_attr(user, context_keyval, c);
    pc_lock();
    c->next = live_contexts;
    live_contexts = c;
#ifdef PC_CONTEXT_TABLE
    if (rc == MPI_SUCCESS) {
        c->user_key = pc_handle_key(&user, sizeof user);
        pc_handle_keep(&contexts, c->user_key, &c);
    }
#endif
    pc_unlock();
    if (rc != MPI_SUCCESS) {
        destroy(c);
        return rc;
    }
    *out = c;
    return MPI_SUCCESS;
}

/* comm's live context from the table, else from its attribute; *c NULL
 * when it has none (or one released at MPI_Finalize). */
static int lookup(MPI_Comm comm, pc_comm_t **c)
{
    *c = NULL;
#ifdef PC_CONTEXT_TABLE
    pc_comm_t **kept = pc_handle_find(&contexts, pc_handle_key(&comm, sizeof comm));
    if (kept) {
        *c = (*kept)->finalized ? NULL : *kept;
        return MPI_SUCCESS;
    }
#endif
    if (!atomic_load_explicit(&keyvals_created, memory_order_acquire)) return MPI_SUCCESS;
    int found = 0;
    int rc = PMPI_Comm_get_attr(comm, context_keyval, c, &found);
    if (rc != MPI_SUCCESS || !found || (*c && (*c)->finalized)) *c = NULL;
    return rc;
}

pc_comm_t *pc_comm_known(MPI_Comm comm)
{
    pc_comm_t *c;
    return lookup(comm, &c) == MPI_SUCCESS ? c : NULL;
}

int pc_comm_get(MPI_Comm comm, pc_comm_t **ctx)
{
    int rc = MPI_SUCCESS;
    if (!atomic_load_explicit(&keyvals_created, memory_order_acquire)) {
        pc_lock();
        if (context_keyval == MPI_KEYVAL_INVALID) rc = create_keyvals();
        if (rc == MPI_SUCCESS) atomic_store_explicit(&keyvals_created, 1, memory_order_release);
        pc_unlock();
        if (rc != MPI_SUCCESS) return rc;
    }
    pc_comm_t *c;
    if ((rc = lookup(comm, &c)) != MPI_SUCCESS) return rc;
    if (c) {
        *ctx = c;
        return MPI_SUCCESS;
    }
    return build(comm, ctx);
}

int pc_comm_cache_get(MPI_Comm comm, int *keyval, MPI_Comm_delete_attr_function *delete_fn, void *value, int *found)
{
    int rc = MPI_SUCCESS;
    *found = 0;
    pc_lock();
    if (*keyval == MPI_KEYVAL_INVALID) rc = PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_fn, keyval, NULL);
    pc_unlock();
    return rc == MPI_SUCCESS ? PMPI_Comm_get_attr(comm, *keyval, value, found) : rc;
}
