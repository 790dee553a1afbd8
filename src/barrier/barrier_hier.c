/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * hier - the two-level barrier: every process counts itself in its node's
 * arrival counter (shared memory); the node's leader (its lowest rank)
 * waits until the whole node is in, runs the dissemination barrier among
 * the node leaders (radix PAPCOLL_BARRIER_RADIX, 4: dissemination.c), then
 * releases its node through a shared word; the others wait for that release.
 *
 *   node 0: P0* P1 P2        node 1: P3* P4 P5        (* leader)
 *     arrivals++ ----------\     arrivals++ ----------\
 *     P0 waits for 3        \    P3 waits for 3        \
 *     P0 <== dissemination among leaders (ceil(log_r N) rounds) ==> P3
 *     release = seq --> P1 P2 leave      release = seq --> P4 P5 leave
 *
 * Cost (Hockney): ceil(log_r N) alpha for N nodes, plus two shared-memory
 * hand-offs (arrival, release) per node; r - 1 messages per leader and
 * round instead of per process (dissemination over all p processes sends
 * p (r - 1) ceil(log_r p) messages, this N (r - 1) ceil(log_r N)).
 * Late arrival: after the last arrival, its node's leader must notice the
 * count (one cache-line transfer, but it is an early arriver: when it is
 * descheduled, oversubscribed or polling slowly, it is on the critical
 * path), then ceil(log_r N) rounds and the release.  last_arriver takes the
 * leader off that path (with binary rounds).
 * Limitations: the node segment (ctx/shm.h) is created on the first call;
 * generation-safe words: the arrival counter is monotonic (node_size per
 * barrier), the release word holds the call's sequence number.
 * Source: the universal hierarchical shape of Parsons 2015 Fig. 2.1 (node
 * gather in shared memory, an inter-node algorithm among leaders, node
 * release), with Hensgen 1988's dissemination among the leaders.
 */
#include "barrier/barrier.h"
#include "ctx/shm.h"

int pc_barrier_hier(const pc_call_t *a)
{
    pc_comm_t *c = a->ctx;
    pc_shm_t *shm;
    int rc = pc_shm_get(c, &shm);
    if (rc != MPI_SUCCESS) return rc;
    pc_shm_arrive(shm);
    if (c->node_rank != 0) {
        pc_shm_wait_release(shm, a->seq);
        return MPI_SUCCESS;
    }
    pc_shm_wait_arrived(shm);
    if (c->nnodes > 1) {
        int rank, size;
        PMPI_Comm_rank(c->leaders, &rank);
        PMPI_Comm_size(c->leaders, &size);
        rc = pc_barrier_disseminate(c->leaders, rank, size, PC_TAG_BARRIER_DATA, a->params->barrier.radix);
    }
    pc_shm_give_release(shm, a->seq); /* also after an error: nobody of the node waits forever */
    return rc;
}
