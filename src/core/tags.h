/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tags.h - every tag papcoll uses on a context's private communicator.
 *
 * One tag per purpose, never shared between purposes, in one block per
 * collective (broadcast 100-399, reduce 400-499, allreduce 500-599,
 * allgather 600-699, alltoall 700-799, gather 800-849, scatter 850-899, barrier 900-949, reduce_scatter 950-999,
 * scan 1000-1049, nonblocking collectives 1100-1999; the windowed tags from 2048), so a
 * message can only ever match the receive it was meant for.  Every message
 * a call sends is consumed in that call (one exception, received from a known
 * source: PC_TAG_REDUCE_CLAIRVOYANT_PLAN); control messages matched with
 * MPI_ANY_SOURCE also carry the call's sequence number in their tag
 * (pc_window_tag) and payload.
 */
#ifndef PC_CORE_TAGS_H
#define PC_CORE_TAGS_H

enum {
    PC_TAG_BCAST_DATA = 100,
    PC_TAG_BCAST_SCATTER = 101,
    PC_TAG_BCAST_ALLGATHER = 102,
    PC_TAG_ARRIVED = 110,      /* receiver -> root: "I am in the call" (carries the sequence number) */
    PC_TAG_GROUP_HEADER = 111, /* sub-group broadcast header: sequence, segment size, successors */
    PC_TAG_GROUP_DATA = 112,   /* sub-group broadcast data (pipelined chain) */
    PC_TAG_GROUP_SCATTER = 113,   /* sub-group broadcast data (scatter) */
    PC_TAG_GROUP_ALLGATHER = 114, /* sub-group broadcast data (ring allgather) */
    PC_TAG_PUSH_DATA = 115,       /* arrival_nb: root -> not yet arrived receiver, the whole message */
    PC_TAG_NODE_DATA = 120,    /* node leader -> node leader data (dynamic and fixed leaders) */
    PC_TAG_MULTISENDER = 121,  /* multisender: one piece, sender of a node -> receiver of a child node */
    PC_TAG_NODE_COPYOUT = 130 /* node copy-out trees (node/node_copyout.h, bcast and numa variants):
                                  a tree parent -> its child inside a node, the message; broadcasts and
                                  allgather hier alike (sources known, no MPI_ANY_SOURCE) */
};

/* Windowed tags.  Control messages whose source is a dynamic leader are
 * received with MPI_ANY_SOURCE: their tag also carries the call's sequence
 * number, pc_window_tag(slot, seq) = PC_TAG_WINDOWED + (seq % window) *
 * PC_TAG_SLOTS + slot, where the window is as many calls as MPI_TAG_UB
 * leaves room for (pc_tags_init: 4 million calls under MPICH, 33 million
 * under Open MPI, 479 at the standard's minimum 32767).  A message of a
 * later call shares this call's tag only once its sender is a whole window
 * of calls ahead of its receiver; the payload repeats the full number
 * (checked).  How far ahead a sender can be:
 *   - scatter dynleader (REQUEST, MEMBER) and reduce / allreduce dynleader
 *     (the leaders' headers): any number of calls, since a scatter's root
 *     and a reduce's non-roots send and leave.  Their receivers keep a later
 *     call's message for that call (ctx/early.h): exact for any window
 *     (tested with a window of one call, PAPCOLL_TAG_WINDOW=1).
 *   - the broadcasts' READY, REQUEST, ARRIVED, FIRST and CP data: a few
 *     calls.  Every process reads every call through its node's ring, whose
 *     first cell each call reuses (its node cannot be 2 calls ahead of it),
 *     and a node's leader waits for each child node's REQUEST (a node is
 *     about one call ahead of its children at most), so the lag is bounded
 *     by about twice the depth of the tree of nodes (26 calls at 8192
 *     nodes), far below the window.  (The test with moving roots passes
 *     with a window of 4 calls at 8 nodes and fails with 1 or 2.) */
enum {
    PC_TAG_LEADER_READY = 0,   /* a node leader -> every process of a peer node */
    PC_TAG_LEADER_REQUEST = 1, /* a child node's leader -> every process of its parent node */
    PC_TAG_LEADER_ARRIVED = 2, /* a node leader -> the root (arrival_dynleader) */
    PC_TAG_LEADER_FIRST = 3,   /* a node's data holder -> a child node's leader, the first segment (the next
                                  ones on PC_TAG_NODE_DATA from its sender); or -> the child's guess (lowest
                                  rank): the message, or empty */
    PC_TAG_REDUCE_LEADER = 4,  /* a dynamic leader -> its parent node's mailbox, the first chunk behind a
                                  {seq, rank} header (reduce dynleader) */
    PC_TAG_ALLREDUCE_LEADER = 5, /* the same, allreduce dynleader */
    PC_TAG_SCATTER_REQUEST = 6,  /* scatter dynleader, a node's leader -> the root, {seq, rank} */
    PC_TAG_SCATTER_MEMBER = 7,   /* scatter dynleader, a node's leader (or the root) -> a process, {seq} and
                                    its block */
    PC_TAG_BARRIER_ROUND = 8,    /* barrier last_arriver, a node's runner of round k -> the mailbox of the node
                                    2^k ahead, {seq, k} */
    PC_TAG_REDUCE_PART = 9,      /* reduce dynleader_scatter_gather, a node's last arriver -> a part's owner,
                                    {seq} and the node's part */
    PC_TAG_CP_DATA = 32,         /* + step (< 32): cp_rdb / cp_ring blocks between leaders */
    PC_TAG_SLOTS = 64,           /* slots per call */
    PC_TAG_WINDOWED = 2048       /* the first windowed tag, above every fixed one */
};

enum {
    PC_TAG_REDUCE_DATA = 400,      /* tree reductions: partial results towards the root */
    PC_TAG_REDUCE_SCATTER = 401,   /* reduce_scatter_gather: recursive halving; two_level_scatter_gather: a
                                      leader's part j -> part j's owner */
    PC_TAG_REDUCE_GATHER = 402,    /* reduce_scatter_gather: binomial gather of the blocks; two_level_scatter_gather:
                                      a finished part -> the root */
    PC_TAG_REDUCE_TO_ROOT = 403,   /* a stand-in root -> the root: binomial's result for a non-commutative op
                                      (reduced at rank 0), reduce_scatter_gather's block 0 (root left out) */
    PC_TAG_REDUCE_FOLD = 404,      /* reduce_scatter_gather, p not a power of two: a left-out process's data */
    PC_TAG_REDUCE_CLAIRVOYANT_STAMP = 405, /* clairvoyant, observation calls: a child's arrival stamp -> its parent */
    PC_TAG_REDUCE_CLAIRVOYANT_PLAN = 406,  /* clairvoyant: the root's prediction -> every process; the one message
                                              consumed in a later call: its receive is posted in the observation
                                              call that sends it and completed in the next call on (comm, root)
                                              or when the communicator is freed; source = the root */
    PC_TAG_REDUCE_NODE = 410,      /* node leader -> node leader partial results (dynleader: the chunks
                                      after the first, from the first chunk's sender) */
    PC_TAG_ALLREDUCE_DATA = 500,   /* recursive doubling exchanges */
    PC_TAG_ALLREDUCE_SCATTER = 501, /* ring / rabenseifner: reduce-scatter phase */
    PC_TAG_ALLREDUCE_GATHER = 502, /* ring / rabenseifner: allgather phase */
    PC_TAG_ALLREDUCE_FOLD = 503,   /* recursive_doubling / rabenseifner, p not a power of two: a left-out
                                      process's data to its neighbour */
    PC_TAG_ALLREDUCE_UNFOLD = 504, /* the same: the result back to the left-out process */
    PC_TAG_ALLREDUCE_PIECE = 505,  /* straggler: a process's piece -> its node's collector (flat: -> the owner) */
    PC_TAG_ALLREDUCE_PARTIAL = 506, /* straggler: a node's partial block j, its collector -> block j's owner */
    PC_TAG_ALLREDUCE_BLOCK = 507,  /* straggler: an owner's finished block -> each node's collector (flat:
                                      -> every other process); 0 elements: delegated to the deputy (straggler_deputy) */
    PC_TAG_ALLREDUCE_RANGE = 508,  /* straggler: a collector's finished blocks -> its node's processes */
    PC_TAG_ALLREDUCE_DEPUTY = 509, /* straggler_deputy: an owner -> its deputy, the decision: 0 elements (not
                                      delegated) or the sum of the other nodes' partials of its block */
    PC_TAG_ALLREDUCE_DEPUTY_PART = 512,  /* straggler_deputy: a delegating owner -> its deputy, its node's partial */
    PC_TAG_ALLREDUCE_DEPUTY_BLOCK = 513, /* straggler_deputy: a deputy's finished block -> each node's collector (who
                                            got 0 elements of PC_TAG_ALLREDUCE_BLOCK from the owner) */
    PC_TAG_ALLREDUCE_FORWARD = 514, /* straggler_nodeblock: a gatherer's partial of block j -> block j's owner */
    PC_TAG_ALLREDUCE_BACK = 515,    /* straggler_nodeblock: an owner's finished block -> its node's gatherers */
    PC_TAG_ALLREDUCE_UNIT = 516,    /* straggler_nodeblock: a gatherer's finished unit -> a collector of it */
    PC_TAG_ALLREDUCE_NODE = 510,   /* dynleader: a node's result -> its parent node's mailbox (chunks after
                                      the first, from the first chunk's sender) */
    PC_TAG_ALLREDUCE_RESULT = 511  /* dynleader: the result, a node's mailbox -> its child nodes' mailboxes */
};

enum {
    PC_TAG_BARRIER_DATA = 900,   /* dissemination (flat, and among hier's leaders), recursive doubling: empty */
    PC_TAG_BARRIER_FOLD = 901,   /* recursive_doubling, p not a power of two: a left-out process has arrived */
    PC_TAG_BARRIER_UNFOLD = 902  /* the same: its release */
};

enum {
    PC_TAG_REDUCE_SCATTER_DATA = 950,   /* pairwise, ring, recursive halving exchanges */
    PC_TAG_REDUCE_SCATTER_FOLD = 951,   /* recursive_halving, p not a power of two: an even rank's data */
    PC_TAG_REDUCE_SCATTER_UNFOLD = 952, /* the same: the even rank's block back */
    PC_TAG_REDUCE_SCATTER_MULTISENDER = 953 /* multisender: a node's sender of pairwise step s -> the sender of
                                               step s of node + s, that node's share of the sender's node partial */
};
enum {
    PC_TAG_ALLGATHER_DATA = 600,   /* ring, recursive doubling, bruck exchanges of blocks */
    PC_TAG_ALLGATHER_FOLD = 601,   /* recursive_doubling, p not a power of two: a left-out process's block */
    PC_TAG_ALLGATHER_UNFOLD = 602, /* the same: every block back to the left-out process */
    PC_TAG_ALLGATHER_MS_BRUCK = 610, /* multisender_bruck: sender s of a node -> sender s of the node j k^i
                                        before it, the node shares gathered so far (one chunk, one round) */
    PC_TAG_ALLGATHER_MS_RIGHT = 611, /* multisender_ring: a node's rightward sender -> the next node's */
    PC_TAG_ALLGATHER_MS_LEFT = 612   /* multisender_ring: a node's leftward sender -> the previous node's */
};

enum {
    PC_TAG_ALLTOALL_DATA = 700,        /* isend, pairwise: one block, sender -> its destination */
    PC_TAG_ALLTOALL_BRUCK = 701,       /* bruck: the forwarded positions of one step */
    PC_TAG_ALLTOALL_BRUCK_SIZES = 702, /* bruck, v form: their sizes, ahead of them */
    PC_TAG_ALLTOALL_NODE_IN = 710,     /* hier: a process's blocks -> its node leader (node communicator) */
    PC_TAG_ALLTOALL_NODE_OUT = 711,    /* hier: the node leader -> a process, the blocks for it */
    PC_TAG_ALLTOALL_FRAGMENT = 720     /* aware, aware_barrier: a node's sender -> a destination node's receiver,
                                          one fragment (a header, then a run of segments) */
};

enum {
    PC_TAG_GATHER_DATA = 800,      /* linear, binomial: blocks towards the root */
    PC_TAG_GATHER_SIZES = 801,     /* v form: binomial, a subtree's byte total ahead of its data; hier, the
                                      root -> its node leader: every node's share */
    PC_TAG_GATHER_NODE = 802       /* hier: the root's node leader -> the root, the node-ordered result */
};

enum {
    PC_TAG_SCATTER_DATA = 850,     /* linear, binomial: blocks away from the root */
    PC_TAG_SCATTER_SIZES = 851,    /* v form: binomial, multisender, the block sizes of a subtree ahead of its
                                      data; hier, the root -> its node leader: every node's share */
    PC_TAG_SCATTER_NODE = 852,     /* hier: the root -> its node leader, the node-ordered blocks */
    PC_TAG_SCATTER_HANDOFF = 853,  /* multisender: a node's holder -> one of its senders, a child's data */
    PC_TAG_SCATTER_MULTISENDER = 854, /* multisender: a sender -> a child node's holder */
    PC_TAG_SCATTER_SHARE = 855,    /* dynleader: the root -> a node's leader, (v form) the block sizes, then the
                                      node's blocks */
    PC_TAG_SCATTER_REST = 856      /* dynleader: a block's bytes beyond PC_MAX_MSG, after its first message */
};

enum {
    PC_TAG_SCAN_DATA = 1000,  /* recursive_doubling exchanges of partial results (scan and exscan) */
    PC_TAG_SCAN_CHAIN = 1001  /* linear: one segment of a prefix, rank i -> rank i + 1 */
};

/* Nonblocking collectives (src/nbc/): every message of a request carries the
 * tag PC_TAG_NBC_FIRST + (its sequence number on the communicator modulo
 * PC_TAG_NBC_WINDOW).  MPI orders the start of nonblocking collectives on a
 * communicator alike on every process, so the numbers agree; within one
 * request a pair of processes exchanges its messages in schedule order, so
 * MPI's non-overtaking matches them.  Requests outstanding together on one
 * communicator are told apart as long as fewer than PC_TAG_NBC_WINDOW of
 * them are active at once. */
enum {
    PC_TAG_NBC_FIRST = 1100,
    PC_TAG_NBC_WINDOW = 900
};

/* The window, in calls: set once per process from MPI_TAG_UB (pc_tags_init). */
extern unsigned long pc_tag_window;
/* Reads MPI_TAG_UB (the same in every process of a job) and sets pc_tag_window. */
int pc_tags_init(void);

#endif
