/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * node_numa.h - the NUMA domains of a node, as the node's processes agree on
 * them once per context: which node ranks share a memory domain.
 *
 * Real topology (PAPCOLL_NUMA_DOMAINS=0): each process looks up its CPU
 * (sched_getcpu) in /sys/devices/system/node/node<N>/cpu<C> and the node
 * exchanges the answers (PMPI_Allgather on the node communicator, the first
 * time only: a process that later migrates keeps its first domain).  No /sys
 * or no match: domain 0.  Virtual domains (k > 0): the node ranks split into
 * k contiguous groups of near-equal size (rank j -> group j k / size), so the
 * numa copy-out is exercised on one-domain machines.
 *
 * Cached as an attribute of the context's node communicator (freed with it).
 */
#ifndef PC_NODE_NUMA_H
#define PC_NODE_NUMA_H

#include "ctx/comm.h"

typedef struct pc_numa_domains {
    long forced;        /* PAPCOLL_NUMA_DOMAINS it was built for (0 = real topology) */
    int ndomains;
    int *domain_of;     /* [node_size] domain of each node rank */
    int *first;         /* [ndomains + 1] domain d = members[first[d] .. first[d + 1] - 1] */
    int *members;       /* [node_size] node ranks grouped by domain, increasing inside one */
} pc_numa_domains_t;

/* The node's domains for PAPCOLL_NUMA_DOMAINS = forced (k > 0 virtual; 1 =
 * the whole node as one domain).  Collective over ctx->node when forced == 0
 * and not yet known: every node process must call it in the same call with
 * the same forced (a parameter, same everywhere). */
int pc_numa_domains(pc_comm_t *ctx, long forced, const pc_numa_domains_t **out);

/* The NUMA node of the CPU this process runs on now (0 if unknown). */
int pc_numa_node_of_self(void);

#endif
