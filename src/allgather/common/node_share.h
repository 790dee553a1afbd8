/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * allgather/common/node_share.h - the node-shared result of the multi-sender
 * allgathers (multisender_bruck, multisender_ring): every process of a node
 * copies its block into the node's share of a node-ordered result held in
 * the node exchange area (node/node_exchange.h), several processes of the
 * node send from it and receive into it in parallel, and every process
 * copies the whole result out to its own blocks.
 *
 * Chunks.  The area grows to hold the whole result, up to
 * PAPCOLL_EXCHANGE_AREA / 2 per bank (node_exchange.h: Growth); a larger
 * result runs as several allgathers: chunk c holds bytes [c w, (c + 1) w)
 * of every node's share (shares differ in size in the v form; a short
 * share's slices run out early), w the largest width whose slices fit that
 * bank (the same on every process: it depends on counts every process has
 * and on the parameter, not on the area's actual size, which another
 * collective may have grown on one node).  Chunk c is one use of the area:
 * the next chunk fills the other bank while slow processes still copy this
 * one out, and a chunk's bank is reused two chunks later, once every node
 * process is done with it.
 *
 * Layout of a chunk in my node's bank: relative node order, node
 * (my node + r) mod N's slice at pos[r], so the shares a node has gathered
 * are one range [0, n) in its own bank and land in a receiver's bank as one
 * range too (Bruck's rotation, without the final rotation: copy-out reads
 * every slice where it is).
 *
 *   3 nodes, my node 1: bank = [slice of node 1 | node 2 | node 0]
 *
 * Signals (per chunk, all in the area, generation-stamped by the use):
 *   staged      node rank j copied its slice in: ready[j][0];
 *   mark(t, g)  exchange group g of my node finished step t (landed[t][g];
 *               its `where` word carries the group's MPI error code, 0 when
 *               it succeeded): the algorithm's own meaning of steps and
 *               groups (Bruck: round t, sender g; ring: direction g).
 * A chunk's data is complete once every process is staged and every
 * group's mark of the last step is set; then every process copies out.
 * Every process takes every chunk's use and sets its signals even after an
 * error, so its node never hangs.
 */
#ifndef PC_ALLGATHER_NODE_SHARE_H
#define PC_ALLGATHER_NODE_SHARE_H

#include "allgather/allgather.h"
#include "node/node_exchange.h"

typedef struct pc_ag_share {
    const pc_call_t *a;
    const pc_comm_t *c;
    pc_shm_t *shm;
    pc_node_xchg_t *x;
    int N;             /* nodes */
    size_t *share;     /* [N] bytes of node k's share (absolute node index) */
    size_t *pos;       /* [N + 1] this chunk: relative node r's slice at pos[r] of the bank */
    size_t my_offset;  /* my block's offset in my node's share */
    size_t width, nchunks, chunk;
    char *bank;        /* this chunk's bank */
    uint64_t use;      /* this chunk's use of the area */
} pc_ag_share_t;

/* What an algorithm does with each chunk: `steps` and `groups` say when a
 * chunk is complete (every group g < groups marked step steps - 1; groups 0:
 * no exchange, one node); exchange is this process's part of the inter-node
 * exchange of one chunk (every process calls it; rc != MPI_SUCCESS: this
 * process failed before, it must not communicate but must still set its
 * marks).  Returns an MPI error code. */
typedef struct {
    int steps, groups;
    int (*exchange)(pc_ag_share_t *sh, int rc, const void *arg);
    const void *arg;
} pc_ag_share_plan_t;

/* Runs the whole allgather: layout, per chunk copy-in, plan->exchange, wait
 * for the marks, copy-out.  When the bank cannot hold one byte of every
 * node's share it runs hier instead (logged under name). */
int pc_ag_share_run(const pc_call_t *a, const char *name, const pc_ag_share_plan_t *plan);

/* Node `node`'s process of node rank j (j < that node's size). */
static inline int pc_ag_share_member(const pc_ag_share_t *sh, int node, int j)
{
    return sh->c->node_members[sh->c->node_first[node] + j];
}
/* Processes on node `node`. */
static inline int pc_ag_share_node_size(const pc_ag_share_t *sh, int node)
{
    return sh->c->node_first[node + 1] - sh->c->node_first[node];
}
/* The node at distance d (any sign) from mine. */
static inline int pc_ag_share_node_at(const pc_ag_share_t *sh, int d)
{
    return ((sh->c->my_node + d) % sh->N + sh->N) % sh->N;
}

/* Waits until every process of my node has copied its slice of this chunk in. */
void pc_ag_share_wait_staged(pc_ag_share_t *sh);
/* Sets mark (step, group) of this chunk with error code rc. */
void pc_ag_share_mark(pc_ag_share_t *sh, int step, int group, int rc);
/* Waits for marks (step, g), g < groups; returns the first error they carry. */
int pc_ag_share_wait_marks(pc_ag_share_t *sh, int step, int groups);

/* Posts the send of relative nodes [sfirst, sfirst + sn) of my bank to
 * process dst and the receive of [rfirst, rfirst + rn) from process src
 * (either side skipped when it has no bytes: both ends know the sizes), on
 * tag; req gets up to 2 more requests, *nreq counts them. */
int pc_ag_share_post(pc_ag_share_t *sh, int sfirst, int sn, int dst, int rfirst, int rn, int src, int tag,
                     MPI_Request *req, int *nreq);
/* Waits for the nreq posted requests (also after an error: they are
 * posted); returns rc, else the wait's error. */
int pc_ag_share_waitall(MPI_Request *req, int nreq, int rc);

#endif
