/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * node_copyout.h - Parsons 2015's copy-out variants (section 2.3.3): how a
 * message written once into a node moves to the node's other processes.
 *
 * One process of the node, the writer, holds the message in its private
 * buffer (the root, a node leader); the others, the readers, want it in
 * theirs.  The variant is a parameter (PAPCOLL_BCAST_COPYOUT,
 * PAPCOLL_ALLGATHER_COPYOUT), the same on every process of a call:
 *
 *   memcpy  the writer copies the message into the node ring, every reader
 *           copies it out (node.c adds Morimoto et al. 1999's direct writes for the
 *           broadcasts).  node_copyout.c.
 *   bcast   a binomial tree of MPI point-to-point messages over the node's
 *           processes, rooted at the writer, which holds the message
 *           privately (the ring is not used).  node_copyout_tree.c.
 *   numa    one process per NUMA domain (node_numa.h) copies out of the ring
 *           (the writer serves its own domain from its buffer), then a
 *           binomial tree of MPI messages inside the domain.
 *           node_copyout_tree.c.
 * The tree variants need every node process to know which node rank writes
 * (co->writer): the root on its node, a fixed leader elsewhere.
 *   (shared, the fourth, is an API of its own: papcoll_bcast_shared.)
 *
 * The numa variant on the ring: a domain's root reading the ring releases
 * each piece once for every process of its domain (its members never touch
 * the ring), and the writer releases it once for every process of its own
 * domain; so a cell is free again exactly when every domain root has read
 * it, whatever the domain sizes, and a message larger than the ring still
 * flows.  bcast (one domain, rooted at the writer) does not use the ring.
 *
 * A call: writer pc_copyout_put(pieces), then pc_copyout_send(pieces) once
 * the readers may be waiting (after any barrier they wait at); readers
 * pc_copyout_get(the same pieces).  Pieces are the ring's cells
 * (pc_shm_pieces); a range [first, last) names bytes [first cell,
 * min(last cell, bytes)) of buf.  The tree messages use PC_TAG_NODE_COPYOUT on
 * the context's communicator, from known sources.
 */
#ifndef PC_NODE_COPYOUT_H
#define PC_NODE_COPYOUT_H

#include <stddef.h>

#include "ctx/shm.h"
#include "node/node_numa.h"

typedef enum { PC_COPYOUT_MEMCPY, PC_COPYOUT_BCAST, PC_COPYOUT_NUMA } pc_copyout_variant_t;

typedef struct pc_copyout {
    pc_comm_t *ctx;
    pc_shm_t *shm;
    unsigned long seq;                  /* the ring's stamps */
    pc_copyout_variant_t variant;
    const pc_numa_domains_t *domains;   /* bcast: one domain; numa: the node's (pc_copyout_init) */
    int writer;                         /* node rank of the writer (tree variants: known to all), -1 unknown (memcpy) */
    char *buf;                          /* the message (writer: source; reader: destination) */
    size_t bytes;
} pc_copyout_t;

/* Variant of a parameter value ("memcpy", "bcast", "numa"; anything else: memcpy). */
pc_copyout_variant_t pc_copyout_variant(const char *name);
const char *pc_copyout_name(pc_copyout_variant_t v);

/* Fills co.  For numa, the node's domains (PAPCOLL_NUMA_DOMAINS = numa_domains):
 * collective over the node the first time, so call it where every node
 * process passes at the start of the call (pc_node_begin, allgather hier). */
int pc_copyout_init(pc_copyout_t *co, pc_comm_t *ctx, pc_shm_t *shm, unsigned long seq, pc_copyout_variant_t v,
                    long numa_domains, int writer, void *buf, size_t bytes);

/* Writer: pieces [first, last) into the ring, for the readers that read it. */
void pc_copyout_put(const pc_copyout_t *co, size_t first, size_t last);
/* Writer: the bytes of pieces [first, last) to its tree children (tree
 * variants; memcpy: nothing). */
int pc_copyout_send(const pc_copyout_t *co, size_t first, size_t last);
/* Reader: the bytes of pieces [first, last) into co->buf. */
int pc_copyout_get(const pc_copyout_t *co, size_t first, size_t last);

/* The tree variants (node_copyout_tree.c). */
void pc_copyout_tree_put(const pc_copyout_t *co, size_t first, size_t last);
int pc_copyout_tree_send(const pc_copyout_t *co, size_t first, size_t last);
int pc_copyout_tree_get(const pc_copyout_t *co, size_t first, size_t last);

#endif
