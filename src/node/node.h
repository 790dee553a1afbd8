/* SPDX-License-Identifier: BSD-3-Clause */
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
 * Finding dynamic leaders, tree of nodes (node_leader.c).  A parent node's
 * holder of the data must know the rank of each child node's leader; the
 * child leader never needs to know its parent's (it receives the first
 * message with MPI_ANY_SOURCE on a tag carrying the call's sequence number).
 * So a child node's leader, as soon as it has claimed its node, sends a
 * REQUEST (its rank) to every process of its parent node; every process of
 * a node receives exactly one REQUEST from each child node in the call.  The
 * root's node is the exception: the root leads it, so there the root alone
 * receives them and its other processes leave as soon as they have the data.
 * Nothing travels before the data: when the parent's leader has the data
 * and a child's REQUEST has not come yet, it GUESSES that child's leader is
 * the child node's lowest rank (always right with fixed leaders; with
 * dynamic ones the other processes of a node pause once before claiming it,
 * so the lowest rank leads when they arrive together) and sends it the
 * message (single-segment messages up to
 * PAPCOLL_BCAST_LEADER_GUESS_MAX); if the REQUEST then names another
 * process, that one gets the data too.  In such a call the guess, when it
 * does not lead, always receives one message from the parent's holder: the
 * copy, or an empty one when the leader's REQUEST came first.  Every
 * message of a call is consumed in it.
 * Scatter-allgather leaders (bcast/common/cp_allgather.c) instead announce
 * themselves (READY) to every process of each node that sends to them.
 */
#ifndef PC_BCAST_NODE_H
#define PC_BCAST_NODE_H

#include "bcast/bcast.h"
#include "ctx/shm.h"
#include "node/node_copyout.h"

typedef struct pc_node_call {
    const pc_call_t *a;
    pc_shm_t *shm;
    unsigned long seq;
    int root_node;    /* node of the root */
    size_t npieces;   /* ring pieces of the message */
    pc_copyout_t co;  /* the copy-out variant (PAPCOLL_BCAST_COPYOUT, node_copyout.h) */
} pc_node_call_t;

/* Gets the node segment and fills nc (collective over the node the first
 * time).  The copy-out is memcpy until pc_node_copyout_enable. */
int pc_node_begin(const pc_call_t *a, pc_node_call_t *nc);
/* Routes this call's pc_node_copy_in/out through PAPCOLL_BCAST_COPYOUT
 * (node_copyout.h), for algorithms whose every node process knows its node's
 * writer: the root on the root's node, `leader` (a node rank) elsewhere
 * (hier, hier_nobarrier: 0).  Every node process calls it right after
 * pc_node_begin (numa: the node agrees on its domains the first time).
 * Algorithms with dynamic leaders keep memcpy (their readers do not know the
 * writer; cp_allgather also writes the ring itself). */
int pc_node_copyout_enable(pc_node_call_t *nc, int leader);
/* Whether this process leads its node (not the root's node) in this call:
 * PAPCOLL_CP_LEADER=first (default) claims the node if it is the first to
 * arrive (pc_shm_claim, the CP paper's competition); fixed: the node's lowest
 * rank leads, whenever it arrives (the CP paper's P baselines). */
int pc_node_claim(const pc_node_call_t *nc);

/* Reader: gets the message into a->buf.  PAPCOLL_BCAST_COPYOUT=memcpy: Morimoto et al. 1999's
 * two protocols, switched by which side comes first
 * (PAPCOLL_NODE_PROTOCOL): a reader arriving before its writer posts a->buf
 * in its slot of the node segment and the writer copies the message straight
 * into it (write protocol, one copy); a reader arriving after copies every
 * piece out of the ring and releases them (eager protocol, the second copy).
 * ring: always the latter.  bcast, numa: node_copyout.h's trees. */
int pc_node_copy_out(const pc_node_call_t *nc);
/* Writer: a->buf's pieces [first, last) into the buffer of every reader
 * posted before this call's first copy-in (write protocol), and into the
 * ring, published and released, for the others (memcpy); bcast, numa: into
 * the ring for the domain roots that read it, and once the last piece is in
 * (a->buf then holds the whole message), down the copy-out trees. */
int pc_node_copy_in(const pc_node_call_t *nc, size_t first, size_t last);
/* Pieces entirely inside the first `bytes` bytes of the message (all of them at the end). */
size_t pc_node_pieces_within(const pc_node_call_t *nc, size_t bytes);

/* A tree of nodes (binomial, chain, k-nomial of PAPCOLL_BCAST_KNOMIAL_RADIX,
 * ...) rooted at the root's node, from my node's view (node indices). */
int pc_node_tree(const pc_node_call_t *nc, pc_tree_shape_t shape, pc_tree_t *t);

/* Whether the messages by which other nodes' leaders find my node's leader
 * (REQUEST, READY) come to me: to every process of a node, which any of them
 * may lead, except on the root's node, which the root leads: there to the
 * root alone (its other processes leave once they have the data). */
int pc_leader_messages_for_me(const pc_node_call_t *nc);
/* The processes of `node` those messages go to: how many, and the i-th's rank
 * (every process of the node; the root alone on the root's node). */
int pc_leader_addressees(const pc_node_call_t *nc, int node);
int pc_leader_addressee(const pc_node_call_t *nc, int node, int i);
/* READY: announces me (a leader) to every process of each node in nodes[n]
 * that gets such messages (pc_leader_messages_for_me: the root alone on the
 * root's node; small eager messages; returns once they are sent). */
int pc_leader_announce(const pc_node_call_t *nc, const int *nodes, int n);
/* Posts the receive of one READY; msg must stay valid until pc_leader_ready_wait. */
int pc_leader_ready_post(const pc_node_call_t *nc, long long msg[2], MPI_Request *req);
/* Waits for that READY and returns the announcing leader's rank in *leader. */
int pc_leader_ready_wait(const pc_node_call_t *nc, long long msg[2], MPI_Request *req, int *leader);

/* The tree engines' REQUEST, first message and guess (node_leader.c). */
typedef struct pc_leader_requests { /* REQUESTs from my node's child nodes (pc_leader_messages_for_me) */
    int n;
    const int *nodes;      /* the child nodes */
    long long (*msg)[3];   /* {seq, leader rank, node} */
    MPI_Request *req;
} pc_leader_requests_t;
/* Posts the receives of one REQUEST from each of nodes[n] (q->msg, q->req: n entries, the caller's). */
int pc_leader_requests_post(const pc_node_call_t *nc, pc_leader_requests_t *q);
/* Request i completed: checks its call and node; *child = index in q->nodes, *leader = its rank. */
int pc_leader_request_read(const pc_node_call_t *nc, const pc_leader_requests_t *q, int i, int *child, int *leader);
/* Waits for every REQUEST still posted, checking each (followers consume theirs). */
int pc_leader_requests_wait(const pc_node_call_t *nc, pc_leader_requests_t *q);
/* REQUEST {seq, my rank, my node} to pc_leader_addressees(nc, node) processes
 * of `node` (nonblocking: msg and req[] (that many) stay valid until the
 * PMPI_Waitall of *nreq requests). */
int pc_leader_request_send(const pc_node_call_t *nc, int node, long long msg[3], MPI_Request *req, int *nreq);
/* Whether the tree engines guess child leaders for this message of nseg segments. */
int pc_leader_guessing(const pc_node_call_t *nc, size_t nseg);
/* Tag of the first segment of a parent -> child stream (any source; the rest from its sender). */
int pc_leader_first_tag(const pc_node_call_t *nc);
/* The guess of my node (its lowest rank), not its leader, in a guessing call: receives what
 * the parent's holder sent it, the message (into the call's buffer) or an empty one. */
int pc_leader_guess_consume(const pc_node_call_t *nc);

#endif
