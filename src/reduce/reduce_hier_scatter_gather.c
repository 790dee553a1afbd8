/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * hier_scatter_gather - a hierarchical reduce whose root receives about one
 * vector, not one per node: each process combines its data into its node's
 * shared accumulator as soon as it arrives and leaves (hier_nobarrier's node
 * step); the node leaders (each node's lowest rank, the root's node's
 * leader on the root's node) then run Rabenseifner's reduce among
 * themselves: a reduce-scatter by recursive halving, each leader ending
 * with 1/N of the fully reduced vector, and a binomial gather of the parts
 * to the root's node.
 *
 *   node step:  x2 ....... x0 ... x3 ........... x1    acc op= x, leave
 *   leaders:    L0 <-> L1, L2 <-> L3 (halves), L0 <-> L2, L1 <-> L3 (quarters)
 *   gather:     parts of m/N each up a binomial tree to the root's leader
 *
 * Why: with the node results sent up a binomial tree (hier_nobarrier,
 * dynleader) the root's node receives and combines ceil(log2 N) whole
 * vectors in sequence, and with a flat tree (dynleader_flat) N - 1 of them;
 * MPICH and SMPI's mpich reduce switch to Rabenseifner's reduce above 2 KiB
 * for that reason.  Here the root's link carries (N - 1)/N m in the gather
 * and no leader combines more than about m.
 * Cost (Hockney, balanced, m bytes, N nodes of q processes, N a power of
 * two, gamma per byte reduced): a process combines m gamma
 * (PAPCOLL_REDUCE_LOCK, as hier_nobarrier); among the leaders
 * 2 log2(N) alpha + 2 ((N - 1)/N) m beta + ((N - 1)/N) m gamma, against
 * ceil(log2 N) (alpha + m beta + m gamma) for hier_nobarrier's default
 * binomial.  Simulated (SimGrid SMPI 3.32, cluster:16x16 preset gemini,
 * MPI_INT + MPI_SUM, balanced), the root's time at 16 / 64 / 256 KiB:
 * 49.3 / 98.4 / 302.7 us, against 55.1 / 179.8 / 355.7 (hier_nobarrier),
 * 47.1 / 200.1 / 365.0 (SMPI's mvapich2 reduce) and 51.7 / 105.1 / 315.9
 * (SMPI's mpich reduce); docs/performance.md has the command.
 * Late arrival: as hier_nobarrier's: a non-leader pays only its own combine
 * and leaves; a fixed leader waits for its node's last process, and every
 * halving step pairs leaders across the machine, so after the last process
 * arrives its leader's whole reduce-scatter and the gather remain
 * (2 log2 N hops, but of shrinking parts: about 2 m beta in all).  Under
 * late:0.2 at 256 simulated ranks, 64 KiB, the time after the last arrival
 * is 98 us against 283 us for dynleader_onesided, whose non-leaders leave
 * earlier (e_bar 61 us against 560 us here, where the 16 leaders wait).
 * Order: arrival order on a node (commutative ops only), then halving
 * order; PAPCOLL_REPRODUCIBLE=1 makes the node step ordered (see
 * hier_nobarrier), and the halving order does not depend on arrival.
 * Limitations: as hier_nobarrier's (chunks of a bank, PAPCOLL_SHM_SIZE / 2;
 * one element larger than a bank is reduced by reduce_scatter_gather over
 * the whole communicator, logged).
 * Parameters: PAPCOLL_REDUCE_LOCK, PAPCOLL_REPRODUCIBLE, PAPCOLL_SHM_SIZE;
 * under SMPI PAPCOLL_SIM_MEMBW.  (hier_nobarrier with
 * PAPCOLL_REDUCE_INTER=reduce_scatter_gather runs the same code; this name
 * lets the rules choose it per size.)
 * Source: Parsons 2015 §3.7.1 (the node step); R. Rabenseifner,
 * "Optimization of collective reduction operations", ICCS 2004, and
 * Thakur, Rabenseifner & Gropp 2005 (the leaders' reduce).
 */
#include "reduce/reduce.h"

int pc_reduce_hier_scatter_gather(const pc_call_t *a)
{
    return pc_reduce_hier_nobarrier_inter(a, "reduce_scatter_gather", "hier_scatter_gather");
}
