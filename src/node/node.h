/*
 * node.h - what the hierarchical broadcasts share: the node's role in one
 * call, copies through the node ring, the tree of nodes, and the messages
 * by which dynamic node leaders find each other.
 *
 * Roles in one call: on the root's node the root writes the message into
 * the node ring and the others read it; on any other node one process is
 * its leader (fixed: the lowest rank; or dynamic: the first to arrive, see
 * pc_shm_claim), receives the message from another node, writes it into the
 * ring; the others only read the ring and leave.
 *
 * Finding dynamic leaders.  A leader is known only once it has arrived, so
 * a leader announces itself (READY, carrying its rank) to every process of
 * each node it will talk to; every process of such a node receives exactly
 * one READY from it in the call (a process must wait for the data anyway, so
 * receiving it costs a non-leader nothing).  A child node's leader answers
 * its parent's READY with a REQUEST carrying its own rank.  Both are sent as
 * soon as the leader arrives, off the data's critical path.
 */
#ifndef PC_BCAST_NODE_H
#define PC_BCAST_NODE_H

#include "bcast/bcast.h"
#include "ctx/shm.h"

typedef struct pc_node_call {
    const pc_call_t *a;
    pc_shm_t *shm;
    unsigned long seq;
    int root_node;    /* node of the root */
    size_t npieces;   /* ring pieces of the message */
} pc_node_call_t;

/* Gets the node segment and fills nc (collective over the node the first time). */
int pc_node_begin(const pc_call_t *a, pc_node_call_t *nc);
/* Whether this process leads its node (not the root's node) in this call:
 * PAPCOLL_CP_LEADER=first (default) claims the node if it is the first to
 * arrive (pc_shm_claim, seed 000's competition); fixed: the node's lowest
 * rank leads, whenever it arrives (seed 000's P baselines). */
int pc_node_claim(const pc_node_call_t *nc);

/* Reader: gets the message into a->buf.  Seed 003's two protocols, switched
 * by which side comes first (PAPCOLL_NODE_PROTOCOL): a reader arriving before
 * its writer posts a->buf in its slot of the node segment and the writer
 * copies the message straight into it (write protocol, one copy); a reader
 * arriving after copies every piece out of the ring and releases them
 * (eager protocol, the second copy).  ring: always the latter. */
void pc_node_copy_out(const pc_node_call_t *nc);
/* Writer: a->buf's pieces [first, last) into the buffer of every reader
 * posted before this call's first copy-in (write protocol), and into the
 * ring, published and released, for the others. */
void pc_node_copy_in(const pc_node_call_t *nc, size_t first, size_t last);
/* Pieces entirely inside the first `bytes` bytes of the message (all of them at the end). */
size_t pc_node_pieces_within(const pc_node_call_t *nc, size_t bytes);

/* A tree of nodes (binomial, chain, ...) rooted at the root's node, from my
 * node's view (node indices). */
int pc_node_tree(const pc_node_call_t *nc, pc_tree_shape_t shape, pc_tree_t *t);

/* READY: announces me (a leader) to every process of each node in nodes[n]
 * (small eager messages; returns once they are sent). */
int pc_leader_announce(const pc_node_call_t *nc, const int *nodes, int n);
/* Posts the receive of one READY; msg must stay valid until pc_leader_ready_wait. */
int pc_leader_ready_post(const pc_node_call_t *nc, long long msg[2], MPI_Request *req);
/* Waits for that READY and returns the announcing leader's rank in *leader. */
int pc_leader_ready_wait(const pc_node_call_t *nc, long long msg[2], MPI_Request *req, int *leader);

#endif
