/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * aware_barrier - alltoall aware (alltoall_aware.c) with a node barrier
 * after each round's copy-in and before any send: the same static senders
 * and receivers per node pair, the same fragments, but no data leaves a node
 * before all its processes are in, so nothing is pre-sent.  Parsons 2015's
 * control experiment (3.9.3, Fig. 3.26): it isolates the gain of several
 * senders per node (network utilisation) from that of pre-sending.
 *
 *   node A = {a0 a1}, a1 late:   aware:          a0's data to B leaves at once
 *                                aware_barrier:  A sends nothing until a1 is in
 *
 * Cost (Hockney): as aware, plus one node barrier per round (q shared-memory
 * updates).  Late arrival: every node waits for its last process before
 * sending, like hier, but its N - 1 node-to-node messages leave from up to
 * N - 1 different processes, and the receivers on other nodes are not held
 * up by one late leader.
 * Parameters: PAPCOLL_ALLTOALL_MIN_FRAGMENT, PAPCOLL_SHM_SIZE (as aware).
 * Source: Parsons 2015 §§3.7.3 and 3.9.3 (Fig. 3.26).
 */
#include "alltoall/alltoall_aware.h"

int pc_alltoall_aware_barrier(const pc_call_t *a) { return pc_alltoall_aware_run(a, 1, "aware_barrier"); }
