/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * params.c - the parameter table and its parsing (see params.h).
 */
#include "core/params.h"
#include "core/lock.h"

#include <stdatomic.h>

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FIELD(f) offsetof(pc_params_t, f)

const pc_param_def_t pc_param_table[] = {
    /* ---- every collective ---- */
    {"PAPCOLL_TUNE", NULL, PC_PARAM_STRING, "", FIELD(tune), NULL,
     "Selection rules tried before the built-in ones, e.g. `bcast[bytes<=8K]=binomial; bcast=scatter_ring_allgather` (docs/tuning.md)."},
    {"PAPCOLL_ADAPT", NULL, PC_PARAM_LONG, "1", FIELD(adapt), "0|1",
     "1 (default): adaptive selection (STAR-MPI): where the matching rule names several candidates (`bcast[bytes<=32K]=hier|dynleader|cp_binomial`; built-in and PAPCOLL_TUNE_FILE rules always count the MPI library's own collective, `native`, among them), a call site that has made PAPCOLL_ADAPT_START calls measures each candidate online per communicator, collective and size class, keeps the one with the lowest mean time in the call (reduce and gather: the root's time weighs as much as all the others'), and explores again when the arrival spread changes; 0: the rule's first usable candidate, always (the off switch)."},
    {"PAPCOLL_ADAPT_START", NULL, PC_PARAM_STRING, "1000,reduce=100", FIELD(adapt_start), NULL,
     "PAPCOLL_ADAPT: calls a call site (of a collective and size class) makes at PAPCOLL_ADAPT_FIRST's choice before its candidates are measured, `N` for every collective or `N,COLL=N,...` per collective (COLL as in PAPCOLL_TUNE: bcast, reduce, allreduce, ...); until then a site costs nothing (no measurement, no agreement message), so programs with few calls per site pay no exploration. Default 1000, reduce 100: a broadcast's exploration can cost a program as much as 100-200 of its calls (it disturbs the arrival wave the program has settled into), a reduce's about its own 30 calls, which its candidates' faster root wins back within a few hundred calls (docs/tuning.md). 0: measure from the first call."},
    {"PAPCOLL_ADAPT_FIRST", NULL, PC_PARAM_STRING, "native", FIELD(adapt_first), "native|rule",
     "PAPCOLL_ADAPT: what a call site runs for its first PAPCOLL_ADAPT_START calls, unmeasured: native (default) = the MPI library's own collective where the rule counts it (built-in and PAPCOLL_TUNE_FILE rules do), so a program with few calls per site runs exactly what it would without papcoll; rule = the rule's first candidate, the static choice (PAPCOLL_ADAPT=0's), which gains under imbalanced arrival from the first call but may lose where nobody is late."},
    {"PAPCOLL_ADAPT_PROBE", NULL, PC_PARAM_LONG, "0", FIELD(adapt_probe), "0|1",
     "PAPCOLL_ADAPT with PAPCOLL_ADAPT_FIRST=native: 1 = a cheap early probe per (communicator, collective, size class) group of allreduce, allgather, alltoall or reduce_scatter whose rule's first candidate (the static choice) is not `native` but counts it: the group's first two calls run `native` and the next two that candidate, each a warm-up call then a measured one, and from the fifth call on every call site of the group still waiting for PAPCOLL_ADAPT_START calls runs the candidate instead of `native` if its mean time in the call was at most `native`'s / PAPCOLL_ADAPT_PROBE_RATIO (cost: those four calls, one reduce and one one-int broadcast per group, once); 0 (default: the probe's two calls of a slower candidate cost a program with few calls, e.g. 1% of NAS FT's run at 128 and 256 simulated ranks) = no probe, waiting sites run `native`. Not for PAPCOLL_TUNE rules, sizes that vary between processes, or PAPCOLL_ADAPT_START <= 5."},
    {"PAPCOLL_ADAPT_PROBE_RATIO", NULL, PC_PARAM_DOUBLE, "2", FIELD(adapt_probe_ratio), NULL,
     "PAPCOLL_ADAPT_PROBE: how many times faster than `native` the rule's first candidate must measure in the probe's single call each to replace it in waiting sites (values below 1 count as 1). A single call each is noisy under imbalanced arrival, and a false switch would cost a program with few calls per site, hence only a blatant win (default 2)."},
    {"PAPCOLL_ADAPT_PERIOD", NULL, PC_PARAM_LONG, "16", FIELD(adapt_period), NULL,
     "PAPCOLL_ADAPT: calls of a (collective, size class) group between two agreements (a nonblocking reduce and broadcast on papcoll's private communicator, each completed a quarter period later)."},
    {"PAPCOLL_ADAPT_PERIOD_MAX", NULL, PC_PARAM_LONG, "1024", FIELD(adapt_period_max), NULL,
     "PAPCOLL_ADAPT: once every call site of a group has decided, each agreement doubles the period up to this many calls (an agreement costs a nonblocking reduce and broadcast); any exploration brings it back to PAPCOLL_ADAPT_PERIOD. A change of the arrival spread is seen at most one period late. Values <= PAPCOLL_ADAPT_PERIOD keep the period fixed."},
    {"PAPCOLL_ADAPT_MARGIN", NULL, PC_PARAM_DOUBLE, "0.05", FIELD(adapt_margin), NULL,
     "PAPCOLL_ADAPT: another candidate replaces the reference (`native`, the MPI library's own collective, where the rule counts it; else the rule's first) only if its measured mean is more than this fraction below the reference's (0.05: 5%; 0: the lowest mean always wins; 1 or more: the reference always stays); among candidates within this fraction of the lowest mean, the one of the lowest mean time in the call is the choice (for reduce and gather, whose cost weighs the root, algorithms can tie at very different times for the others). Under random arrival a few calls per candidate measure mostly noise, and in a tie the MPI library's own collective does no harm."},
    {"PAPCOLL_ADAPT_EXPLORE", NULL, PC_PARAM_LONG, "4", FIELD(adapt_explore), NULL,
     "PAPCOLL_ADAPT: measured calls per candidate before a decision (after one warm-up call each)."},
    {"PAPCOLL_ADAPT_REEXPLORE", NULL, PC_PARAM_LONG, "2000", FIELD(adapt_reexplore), NULL,
     "PAPCOLL_ADAPT: calls of a decided state after which its candidates are measured again, doubled each time such a measurement confirms the choice (up to 1024 times); 0 = only when the arrival spread changes."},
    {"PAPCOLL_ADAPT_SPREAD_FACTOR", NULL, PC_PARAM_DOUBLE, "2", FIELD(adapt_spread_factor), NULL,
     "PAPCOLL_ADAPT: explore again when (spread + cost) of a period differs by more than this factor from the one after the decision (spread = standard deviation over processes of their mean time in the call; cost = the choice's mean)."},
    {"PAPCOLL_ADAPT_SITES", NULL, PC_PARAM_LONG, "1", FIELD(adapt_sites), "0|1",
     "PAPCOLL_ADAPT: 1 = separate decisions per call site (the caller's address, module-relative), once the processes were seen to agree on the sites; 0 = per communicator, collective and size class only."},
    {"PAPCOLL_ADAPT_COST", NULL, PC_PARAM_STRING, "call", FIELD(adapt_cost), "call|iteration",
     "PAPCOLL_ADAPT: what a candidate costs: call = each process's time in the call (arrival to exit); iteration = the time from its exit from the previous call at the same site to its exit from this one (the program's computation between the calls included: it sees how an algorithm shapes the next call's arrivals), and another candidate must beat the reference by PAPCOLL_ADAPT_MARGIN of the reference's time in the call."},
    {"PAPCOLL_ADAPT_REPORT", NULL, PC_PARAM_STRING, "", FIELD(adapt_report), NULL,
     "PAPCOLL_ADAPT: at MPI_Finalize (or when a communicator is freed) the lowest rank of each communicator writes its states (candidates' mean costs, choice): 1 = to stderr, a path = appended to that file; empty = no report."},
    {"PAPCOLL_PHASE_REPORT", NULL, PC_PARAM_STRING, "", FIELD(phase_report), NULL,
     "Where each collective's time goes: every process splits its time in each call into copies through the node's shared memory (under SMPI their modelled time), waits on the node's shared memory, and the rest (MPI messages, reductions), sums them per collective, algorithm and role (root, node leader, other), and at MPI_Finalize appends one line per sum: 1 = to stderr, a path = to that file; empty = off. `papcoll phases FILE` summarises the file."},
    {"PAPCOLL_TUNE_FILE", NULL, PC_PARAM_STRING, "", FIELD(tune_file), NULL,
     "File of selection rules (PAPCOLL_TUNE's grammar, one or more per line, # comments), tried after PAPCOLL_TUNE and before the built-in rules; a file that cannot be read or has a syntax error is ignored with a warning naming FILE:LINE; `papcoll-bench --check-tune FILE` checks one (docs/tuning.md)."},
    {"PAPCOLL_SEGSIZE_MIN", NULL, PC_PARAM_SIZE, "1K", FIELD(segsize_min), NULL,
     "Smallest segment the alpha-beta model may choose."},
    {"PAPCOLL_SEGSIZE_MAX", NULL, PC_PARAM_SIZE, "1M", FIELD(segsize_max), NULL,
     "Largest segment the alpha-beta model may choose."},
    {"PAPCOLL_ALPHA", NULL, PC_PARAM_DOUBLE, "2e-6", FIELD(alpha), NULL,
     "Model latency per message, seconds (Hockney alpha)."},
    {"PAPCOLL_BETA", NULL, PC_PARAM_DOUBLE, "2e-10", FIELD(beta), NULL,
     "Model time per byte, seconds (Hockney beta; 2e-10 = 5 GB/s)."},
    {"PAPCOLL_MAX_INFLIGHT", NULL, PC_PARAM_LONG, "8", FIELD(max_inflight), NULL,
     "Nonblocking segments in flight per peer in pipelined algorithms (bounds what a late receiver is sent)."},
    {"PAPCOLL_PPN", NULL, PC_PARAM_LONG, "0", FIELD(ppn), NULL,
     "Group processes into virtual nodes of k consecutive MPI_COMM_WORLD ranks; 0 uses the real node (MPI_COMM_TYPE_SHARED)."},
    {"PAPCOLL_LARGE_COUNT_LIMIT", NULL, PC_PARAM_LONG, "2147483647", FIELD(large_count_limit), NULL,
     "MPI-4's large-count functions (MPI_Bcast_c ..., where the MPI library has them): the count or displacement above which a call takes the path for counts beyond int (folded datatypes, pieces of this many elements, the library's own _c function for the reduce_scatter forms and the v forms). INT_MAX (default) is the only value for programs; a small value (at least 1) is for tests, which then exercise those paths with small buffers."},
    {"PAPCOLL_TAG_WINDOW", NULL, PC_PARAM_LONG, "0", FIELD(tag_window), NULL,
     "Calls before a windowed tag (the control messages of dynamic leaders, received from any source) repeats: 0 takes as many as MPI_TAG_UB leaves room for (millions); a small value (at least 1) is for tests, which then see later calls' messages arrive early and be kept for their call."},
    {"PAPCOLL_SHM_SIZE", NULL, PC_PARAM_SIZE, "2M", FIELD(shm_size), NULL,
     "Shared-memory ring per communicator and node (hierarchical algorithms); larger messages are pipelined through it, and a node's writer then waits for its slowest reader. The same size is taken again, once used on a communicator, by the reduction area (hier*, dynleader* reductions), and 2 x ceil(log2 nodes) half-size slots by reduce dynleader_onesided's inbox."},
    {"PAPCOLL_SHM_CELL", NULL, PC_PARAM_SIZE, "32K", FIELD(shm_cell), NULL,
     "Cell (piece) size of the shared-memory ring: the granularity of intra-node copies (32K: best of 16K-128K for cp_chain at 1 MiB, simulated 16x16 ib-ddr)."},
    {"PAPCOLL_SHM_POISON", NULL, PC_PARAM_LONG, "0", FIELD(shm_poison), NULL,
     "Testing aid: 1 = fill the data parts of the node's shared-memory ring and reduction area with 0xA5 bytes when a communicator creates them, so that an algorithm reading node memory before writing it gets wrong results instead of the zeros new shared memory usually holds; 0 (default) = leave them as they come (only their counters and stamps are zeroed)."},
    {"PAPCOLL_SHM_BACKEND", NULL, PC_PARAM_STRING, "posix", FIELD(shm_backend), "posix|mpi",
     "Where each node's shared memory (ring, reduction, exchange and broadcast areas; reduce dynleader_onesided's inbox is always an MPI window) comes from: posix (default) = a POSIX shared-memory object that node rank 0 makes and the node maps (no communicator is created, so threads of an MPI_THREAD_MULTIPLE program may create their own communicators meanwhile); mpi = MPI_Win_allocate_shared on the node's communicator. A node that cannot make or map the object (/dev/shm without room for it, or absent) takes the MPI window, logged at info. SimGrid SMPI builds always take the MPI window. Same value on every process."},
    {"PAPCOLL_SIM_MEMBW", NULL, PC_PARAM_SIZE, "5G", FIELD(sim_membw), NULL,
     "Under SimGrid SMPI only: memory bandwidth (bytes/s) charged for every copy into or out of shared memory."},
    {"PAPCOLL_NODE_PROTOCOL", NULL, PC_PARAM_STRING, "auto", FIELD(node_protocol), "auto|ring|write|read",
     "Intra-node transport of the hierarchical algorithms (Morimoto et al. 1999, docs/transport.md). Broadcast copy-out: ring = every reader copies out of the node ring (two copies per byte); write = a reader that arrives before the data posts its buffer and the writer copies into it directly (one copy, process_vm_writev; the copy model under SMPI), a later reader copies out of the ring; read = the same race, but the writer publishes its source and each posted reader copies from it itself (process_vm_readv), all in parallel, the writer returning once every one is done; auto = read from PAPCOLL_NODE_WRITE_MIN bytes, ring below. Reductions (hier of reduce, allreduce, reduce_scatter, contiguous datatypes): with read (auto: chunks of PAPCOLL_NODE_WRITE_MIN bytes or more) the last process of a node to arrive does not copy its chunk in: the others pull their slices of it from its buffer. write/read/auto fall back to ring when single copies are not allowed (ptrace policy), detected when the node segment is created."},
    {"PAPCOLL_NODE_WRITE_MIN", NULL, PC_PARAM_SIZE, "64M", FIELD(node_write_min), NULL,
     "PAPCOLL_NODE_PROTOCOL=auto: smallest message (reductions: chunk, at most PAPCOLL_SHM_SIZE/2) that takes the single-copy (read) protocol. 64M: on the 2-core VM measured (docs/transport.md) a process_vm_writev/readv single copy was not faster than the two pipelined copies of the ring (4 B - 16 MiB), and pulled reduction copy-ins were slower; measure with papcoll-transport-bench and papcoll-bench and lower it where single copies pay."},
    {"PAPCOLL_REPRODUCIBLE", NULL, PC_PARAM_LONG, "0", FIELD(reproducible), "0|1",
     "1: reductions combine contributions in an order fixed by ranks, never by arrival, so floating-point results do not depend on timing (the dynamic-leader and shared-memory reductions then wait for their predecessors in that order); 0 (default): algorithms that combine in arrival order may give results that differ in the last bits from run to run for non-associative (floating-point) ops."},
    {"PAPCOLL_FALLBACK", NULL, PC_PARAM_STRING, "warn", FIELD(fallback), "warn|silent|error",
     "What a call does when the algorithm a collective's parameter names (PAPCOLL_REDUCE=hier, ...) cannot run it (an algorithm for commutative or predefined ops, given another op): warn (default) = auto selects for that call, and rank 0 of the communicator warns once per collective; silent = the same without the warning; error = the call fails with MPI_ERR_OP through the communicator's error handler. As MPICH's MPIR_CVAR_COLLECTIVE_FALLBACK (whose default is silent). papcoll_NAME_by_name always fails with MPI_ERR_OP: its caller named the algorithm for that call."},
    {"PAPCOLL_LOG", NULL, PC_PARAM_STRING, "warn", FIELD(log), "off|warn|info|debug",
     "Logging to stderr: debug prints one line per call (the function as called, e.g. allgatherv or reduce_scatter_block; bytes: all blocks together, or in alltoallv, gatherv and scatterv, whose counts only each process knows, what this process sends plus receives, marked \"(sent+received here)\"; p; algorithm; why), and why arguments are refused or a pair of predefined op and datatype is taken or refused."},
    /* ---- broadcast ---- */
    {"PAPCOLL_BCAST", NULL, PC_PARAM_STRING, "auto", FIELD(bcast.algorithm), NULL,
     "Broadcast algorithm: a name from `papcoll-bench --list`, or auto (tune rules, then built-in rules)."},
    {"PAPCOLL_BCAST_SEGSIZE", NULL, PC_PARAM_SIZE, "0", FIELD(bcast.segsize), NULL,
     "Segment size of the pipelined broadcasts; 0 derives it from the alpha-beta model."},
    {"PAPCOLL_BCAST_CHUNKS", NULL, PC_PARAM_LONG, "0", FIELD(bcast.chunks), NULL,
     "Number of segments of the pipelined broadcasts (the SMPI bcast exercise's -c); overrides PAPCOLL_BCAST_SEGSIZE when > 0."},
    {"PAPCOLL_BCAST_ARRIVAL_PUSH_MAX", "PAPCOLL_ARRIVAL_PUSH_MAX", PC_PARAM_LONG, "2", FIELD(bcast.arrival_push_max), NULL,
     "arrival_nb: pushes (whole-message MPI_Isend to a receiver that has not arrived yet) incomplete at once; the root also pushes at most one message per model time T = alpha + beta m; 0 disables pushing."},
    {"PAPCOLL_BCAST_ARRIVAL_PUSH_BYTES", "PAPCOLL_ARRIVAL_PUSH_BYTES", PC_PARAM_SIZE, "32K", FIELD(bcast.arrival_push_bytes), NULL,
     "arrival_nb: largest message pushed; keep it below the MPI library's eager limit (SMPI detaches sends smaller than smpi/send-is-detached-thresh, 65536; Open MPI btl_tcp_eager_limit 64K with headers, btl_vader_eager_limit 4K) or a push only moves when its receiver arrives."},
    {"PAPCOLL_BCAST_ARRIVAL_SAG_MIN", "PAPCOLL_ARRIVAL_SAG_MIN", PC_PARAM_LONG, "0", FIELD(bcast.arrival_sag_min), NULL,
     "arrival_b/arrival_nb/arrival_dynleader: groups of at least this many processes (root included) are served by binomial scatter + ring allgather instead of a pipelined chain or binomial tree; 0 = never."},
    {"PAPCOLL_BCAST_ARRIVAL_SAG_BYTES", "PAPCOLL_ARRIVAL_SAG_BYTES", PC_PARAM_SIZE, "256K", FIELD(bcast.arrival_sag_bytes), NULL,
     "arrival_b/arrival_nb/arrival_dynleader: smallest message for which PAPCOLL_ARRIVAL_SAG_MIN applies."},
    {"PAPCOLL_BCAST_ARRIVAL_WINDOW", "PAPCOLL_ARRIVAL_WINDOW", PC_PARAM_DOUBLE, "0", FIELD(bcast.arrival_window), NULL,
     "arrival_b/arrival_nb/arrival_dynleader: after the first arrival of a round the root waits up to this fraction of T (model time to send the message, alpha + beta m) for more arrivals; 0 serves at once."},
    {"PAPCOLL_BCAST_KNOMIAL_RADIX", NULL, PC_PARAM_LONG, "4", FIELD(bcast.knomial_radix), NULL,
     "Radix k >= 2 of the k-nomial trees of knomial (over processes) and cp_knomial (over nodes); 4 as MVAPICH2's and Open MPI's knomial broadcasts. A smaller value makes those algorithms fail with MPI_ERR_ARG."},
    {"PAPCOLL_BCAST_INTER", NULL, PC_PARAM_STRING, "binomial", FIELD(bcast.inter), NULL,
     "Broadcast among node leaders in hier and hier_nobarrier: any flat algorithm name, native, or auto."},
    {"PAPCOLL_BCAST_COPYOUT", NULL, PC_PARAM_STRING, "memcpy", FIELD(bcast.copyout), "memcpy|bcast|numa",
     "Node copy-out of the hierarchical broadcasts with fixed leaders (hier, hier_nobarrier; the dynamic-leader ones keep memcpy), Parsons 2015 §2.3.3 (docs/copyout.md): memcpy = every reader copies out of the node ring (with PAPCOLL_NODE_PROTOCOL's direct writes); bcast = a binomial tree of MPI messages over the node's processes from its writer, which holds the message privately (the ring is not used); numa = one process per NUMA domain (PAPCOLL_NUMA_DOMAINS) copies out of the ring (the writer serves its own domain), then a binomial tree of MPI messages inside its domain. Same value on every process."},
    {"PAPCOLL_NUMA_DOMAINS", NULL, PC_PARAM_LONG, "0", FIELD(numa_domains), NULL,
     "numa copy-out (PAPCOLL_BCAST_COPYOUT, PAPCOLL_ALLGATHER_COPYOUT): 0 = the real NUMA domains (each process's CPU, sched_getcpu, looked up in /sys/devices/system/node, agreed by the node once per communicator); k > 0 = k virtual domains, the node ranks split into k contiguous groups (tests on one-domain machines)."},
    {"PAPCOLL_BCAST_CP_SEGSIZE", "PAPCOLL_CP_SEGSIZE", PC_PARAM_SIZE, "8K", FIELD(bcast.cp_segsize), NULL,
     "Inter-node segment of the competitive pipelined broadcasts cp_binomial and cp_chain (8K: best of 4K-64K at 256K-1M, simulated 16x16 ib-ddr with SMPI's default bandwidth factors; sweep a real cluster)."},
    {"PAPCOLL_BCAST_CP_NOSEG_MAX", "PAPCOLL_CP_NOSEG_MAX", PC_PARAM_SIZE, "16K", FIELD(bcast.cp_noseg_max), NULL,
     "cp_* broadcasts send messages up to this size unsegmented (the CP paper Fig. 7)."},
    {"PAPCOLL_BCAST_LEADER", "PAPCOLL_CP_LEADER", PC_PARAM_STRING, "first", FIELD(bcast.leader), "first|fixed",
     "Node leaders of cp_binomial, cp_chain, cp_rdb, cp_ring, dynleader: first = the first process to arrive (the CP paper's competitive CP); fixed = the lowest rank of each node (the CP paper's P baselines)."},
    {"PAPCOLL_BCAST_LEADER_GUESS_MAX", NULL, PC_PARAM_SIZE, "64K", FIELD(bcast.leader_guess_max), NULL,
     "dynleader, cp_* (tree of nodes): a node's leader sends a single-segment message up to this size to a child node's lowest rank at once when that node's leader has not asked yet, and again to the leader if it is another process; 0: always wait for the leader's request (no copy twice)."},
    /* ---- reduce ---- */
    {"PAPCOLL_REDUCE", NULL, PC_PARAM_STRING, "auto", FIELD(reduce.algorithm), NULL,
     "Reduce algorithm: a name from `papcoll-bench --coll=reduce --list`, or auto."},
    {"PAPCOLL_REDUCE_INTER", NULL, PC_PARAM_STRING, "binomial", FIELD(reduce.inter), NULL,
     "Reduce among node leaders in hier and hier_nobarrier: any flat reduce algorithm name, native, or auto."},
    {"PAPCOLL_REDUCE_SEGSIZE", NULL, PC_PARAM_SIZE, "0", FIELD(reduce.segsize), NULL,
     "Segment of the pipelined tree reductions (binomial); 0 = whole message per hop."},
    {"PAPCOLL_REDUCE_LOCK", NULL, PC_PARAM_STRING, "auto", FIELD(reduce.lock), "auto|serial|parallel",
     "hier_nobarrier: how arriving processes add into the node's shared buffer: serial (one lock for the buffer), parallel (one lock per cell, processes work on different cells at once), auto (serial below 64 bytes, a cache line, else parallel; Parsons 2015 §3.7.1)."},
    {"PAPCOLL_REDUCE_LEADER", NULL, PC_PARAM_STRING, "last", FIELD(reduce.leader), "last|fixed",
     "Node leaders of the dynamic-leader reductions: last = the last process to arrive on the node (Parsons 2015 Fig. 3.14); fixed = the lowest rank of each node."},
    {"PAPCOLL_REDUCE_KNOMIAL_RADIX", NULL, PC_PARAM_LONG, "4", FIELD(reduce.knomial_radix), NULL,
     "Radix k >= 2 of two_level's k-nomial tree of node leaders (2: binomial); 4 as MVAPICH2's inter-node reduce. A smaller value makes two_level fail with MPI_ERR_ARG."},
    {"PAPCOLL_REDUCE_PART_OWNERS", NULL, PC_PARAM_LONG, "0", FIELD(reduce.part_owners), NULL,
     "two_level_scatter_gather: how many nodes own a part of the result (the root's node and the next ones in node order; 0 or more than the nodes: every node). Every other node's leader sends its node's parts to the owners and leaves, so fewer owners keep fewer leaders waiting (lower e_bar) but give each owner (nodes - 1) / owners parts of count / owners elements to receive (a later root). Same value on every process."},
    {"PAPCOLL_REDUCE_CLAIRVOYANT_PERIOD", NULL, PC_PARAM_LONG, "16", FIELD(reduce.clairvoyant_period), NULL,
     "clairvoyant: the first three calls and every this many on a (communicator, root) observe the arrival order (a stamp message up each tree edge, the root's prediction sent to every process); a prediction is used once two observations agree, so a wrong one lasts at most twice this many calls. 1: every call. Same value on every process."},
    {"PAPCOLL_REDUCE_CLAIRVOYANT_LATE", NULL, PC_PARAM_LONG, "8", FIELD(reduce.clairvoyant_late), NULL,
     "clairvoyant: most ranks predicted late (placed one hop from the root or from a later one; at most 32); 0: no prediction, the binomial tree. Same value on every process."},
    /* ---- allreduce ---- */
    {"PAPCOLL_ALLREDUCE", NULL, PC_PARAM_STRING, "auto", FIELD(allreduce.algorithm), NULL,
     "Allreduce algorithm: a name from `papcoll-bench --coll=allreduce --list`, or auto."},
    {"PAPCOLL_ALLREDUCE_INTER", NULL, PC_PARAM_STRING, "recursive_doubling", FIELD(allreduce.inter), NULL,
     "Allreduce among node leaders in hier: any flat allreduce algorithm name, native, or auto."},
    {"PAPCOLL_ALLREDUCE_UNIT", NULL, PC_PARAM_SIZE, "8K", FIELD(allreduce.unit), NULL,
     "straggler_nodeblock: largest message between two nodes; a node's blocks (count / nodes elements) go in "
     "as many units as this needs, each of whole blocks of count / p elements; 0 = one unit per node. "
     "8K was the fastest of 0, 4K-32K in simulation (docs/performance.md); measure your network's."},
    /* ---- allgather ---- */
    {"PAPCOLL_ALLGATHER", NULL, PC_PARAM_STRING, "auto", FIELD(allgather.algorithm), NULL,
     "Allgather and allgatherv algorithm: a name from `papcoll-bench --coll=allgather --list`, or auto."},
    {"PAPCOLL_ALLGATHER_INTER", NULL, PC_PARAM_STRING, "auto", FIELD(allgather.inter), NULL,
     "Allgather among node leaders in hier (the node-aggregated blocks, allgatherv-shaped): any flat allgather algorithm name, native, or auto."},
    {"PAPCOLL_ALLGATHER_SENDERS", NULL, PC_PARAM_LONG, "0", FIELD(allgather.senders), NULL,
     "multisender_bruck: processes of each node that send among nodes at once, the k - 1 of its k-ary Bruck (capped by the smallest node's size and the number of nodes - 1); 0 = all of them (Parsons 2015 §2.3.2)."},
    {"PAPCOLL_ALLGATHER_COPYOUT", NULL, PC_PARAM_STRING, "memcpy", FIELD(allgather.copyout), "memcpy|bcast|numa",
     "Node copy-out of allgather hier (Parsons 2015 §2.3.3, docs/copyout.md): memcpy = every process copies the node-ordered result out of the node ring; bcast = the node leader sends it down a binomial tree of MPI messages over the node; numa = one process per NUMA domain (PAPCOLL_NUMA_DOMAINS) copies it out, then a tree inside its domain. Same value on every process."},
    /* ---- alltoall, gather, scatter ---- */
    {"PAPCOLL_ALLTOALL", NULL, PC_PARAM_STRING, "auto", FIELD(alltoall.algorithm), NULL,
     "Alltoall and alltoallv algorithm: a name from `papcoll-bench --coll=alltoall --list`, or auto."},
    {"PAPCOLL_ALLTOALL_INTER", NULL, PC_PARAM_STRING, "auto", FIELD(alltoall.inter), NULL,
     "Alltoall among node leaders in hier: any flat alltoall algorithm name, native, or auto."},
    {"PAPCOLL_EXCHANGE_AREA", NULL, PC_PARAM_SIZE, "64M", FIELD(exchange_area), NULL,
     "Largest node exchange area per communicator and node (two banks), where alltoall aware, aware_barrier and allgather multisender_* stage a node's data in shared memory. The area grows to what a call needs up to this size (at least PAPCOLL_SHM_SIZE and at least doubling when it grows), so a call whose data fits moves in one round; larger calls run in rounds of half this size."},
    {"PAPCOLL_ALLTOALL_MIN_FRAGMENT", NULL, PC_PARAM_SIZE, "4K", FIELD(alltoall_min_fragment), NULL,
     "Alltoall aware, aware_barrier: smallest fragment a node's sender sends while part of its node's data for a destination node is still missing (a run that closes a gap goes at any size)."},
    {"PAPCOLL_GATHER", NULL, PC_PARAM_STRING, "auto", FIELD(gather.algorithm), NULL,
     "Gather and gatherv algorithm: a name from `papcoll-bench --coll=gather --list`, or auto."},
    {"PAPCOLL_GATHER_INTER", NULL, PC_PARAM_STRING, "auto", FIELD(gather.inter), NULL,
     "Gather among node leaders in hier: any flat gather algorithm name, native, or auto."},
    {"PAPCOLL_SCATTER", NULL, PC_PARAM_STRING, "auto", FIELD(scatter.algorithm), NULL,
     "Scatter and scatterv algorithm: a name from `papcoll-bench --coll=scatter --list`, or auto."},
    {"PAPCOLL_SCATTER_INTER", NULL, PC_PARAM_STRING, "auto", FIELD(scatter.inter), NULL,
     "Scatter among node leaders in hier: any flat scatter algorithm name, native, or auto."},
    {"PAPCOLL_SCATTER_GUESS_MAX", NULL, PC_PARAM_SIZE, "8K", FIELD(scatter_guess_max), NULL,
     "Scatter dynleader, plain form: the root sends a node whose blocks add up to at most this size to the node's lowest rank at once, without waiting for the node's first process to ask (one latency less when the lowest rank comes first, which the others let it do when they arrive together); keep it below the MPI library's eager limit, or the root waits for a late lowest rank. 0: always wait for the request."},
    /* ---- reduce_scatter ---- */
    {"PAPCOLL_REDUCE_SCATTER", NULL, PC_PARAM_STRING, "auto", FIELD(reduce_scatter.algorithm), NULL,
     "Reduce_scatter and reduce_scatter_block algorithm: a name from `papcoll-bench --coll=reduce_scatter --list`, or auto."},
    {"PAPCOLL_REDUCE_SCATTER_INTER", NULL, PC_PARAM_STRING, "auto", FIELD(reduce_scatter.inter), NULL,
     "Reduce_scatter among node leaders in hier (each node's share of the node-ordered vector): any flat reduce_scatter algorithm name, native, or auto."},
    {"PAPCOLL_REDUCE_SCATTER_SENDERS", NULL, PC_PARAM_LONG, "0", FIELD(reduce_scatter_senders), NULL,
     "Reduce_scatter multisender: processes of each node that run the inter-node pairwise exchange in parallel (the node's reducer, its lowest rank, combines what they receive); 0 = all but one, larger values are capped at all but one (Parsons 2015 §2.3.2). Every process must see the same value."},
    /* ---- barrier ---- */
    {"PAPCOLL_BARRIER", NULL, PC_PARAM_STRING, "auto", FIELD(barrier.algorithm), NULL,
     "Barrier algorithm: a name from `papcoll-bench --coll=barrier --list`, or auto."},
    {"PAPCOLL_BARRIER_RADIX", NULL, PC_PARAM_LONG, "4", FIELD(barrier.radix), NULL,
     "Radix k >= 2 of the dissemination barrier (dissemination over all processes, hier among the node leaders): each round a process sends to the k - 1 ranks j k^r ahead and hears from the k - 1 behind, ceil(log_k p) rounds (MPICH's k-dissemination, Hoefler et al. 2006's n-way dissemination); 2 is Hensgen 1988's binary one. 4 halves the rounds for 3 messages per round, which a network's per-message overhead pays for when it is well below its latency. A smaller value makes those algorithms fail with MPI_ERR_ARG. Every process must see the same value."},
    /* ---- scan and exscan ---- */
    {"PAPCOLL_SCAN", NULL, PC_PARAM_STRING, "auto", FIELD(scan.algorithm), NULL,
     "Scan and exscan algorithm (one list for both): a name from `papcoll-bench --coll=scan --list`, or auto."},
    {"PAPCOLL_SCAN_SEGMENT", NULL, PC_PARAM_SIZE, "64K", FIELD(scan.segment), NULL,
     "Scan and exscan linear: segment of the pipelined chain, in bytes of packed data (whole elements, at least one)."},
    {"PAPCOLL_SCAN_INTER", NULL, PC_PARAM_STRING, "recursive_doubling", FIELD(scan.inter), NULL,
     "Exscan among node leaders in scan and exscan hier (also hier's algorithm over the whole communicator where it cannot run): any flat scan algorithm name, native, or auto."},
    /* ---- nonblocking collectives (src/nbc/, docs/nonblocking.md) ---- */
    {"PAPCOLL_IBARRIER", NULL, PC_PARAM_STRING, "auto", FIELD(nbc.ibarrier), "auto|native|dissemination",
     "MPI_Ibarrier: native = the MPI library's own (PMPI_Ibarrier); dissemination = papcoll's schedule; auto = dissemination. Same value on every process."},
    {"PAPCOLL_IBCAST", NULL, PC_PARAM_STRING, "auto", FIELD(nbc.ibcast), "auto|native|binomial",
     "MPI_Ibcast: native = the MPI library's own; binomial = papcoll's schedule; auto = binomial. Same value on every process."},
    {"PAPCOLL_IREDUCE", NULL, PC_PARAM_STRING, "auto", FIELD(nbc.ireduce), "auto|native|binomial|dynleader",
     "MPI_Ireduce: native = the MPI library's own; binomial = papcoll's schedule; dynleader = combine into the node's shared accumulator, the node's last arriver sends to the root (messages that fit PAPCOLL_SHM_SIZE / 2, PAPCOLL_REPRODUCIBLE=0; else binomial, logged); both commutative ops only (a non-commutative op runs native, logged); auto = binomial (dynleader's first call on a communicator may block until its node peers make it: docs/nonblocking.md). Same value on every process."},
    {"PAPCOLL_IALLREDUCE", NULL, PC_PARAM_STRING, "auto", FIELD(nbc.iallreduce), "auto|native|recursive_doubling|rabenseifner|dynleader",
     "MPI_Iallreduce: native = the MPI library's own; recursive_doubling (any op, rank order kept); rabenseifner (commutative ops with at least as many elements as the largest power of two <= p, else recursive_doubling, logged); dynleader (node shared accumulators, the node's last arriver sends to rank 0; commutative ops, messages that fit PAPCOLL_SHM_SIZE / 2, PAPCOLL_REPRODUCIBLE=0, else recursive_doubling, logged); auto = rabenseifner where it applies from PAPCOLL_IALLREDUCE_LARGE bytes, else recursive_doubling. Same value on every process."},
    {"PAPCOLL_IALLREDUCE_LARGE", NULL, PC_PARAM_SIZE, "64K", FIELD(nbc.iallreduce_large), NULL,
     "MPI_Iallreduce auto: smallest message (count x type size) that takes rabenseifner."},
    {"PAPCOLL_NBC_PROGRESS_THREAD", NULL, PC_PARAM_LONG, "0", FIELD(nbc.progress_thread), "0|1",
     "1: a thread advances papcoll's nonblocking collectives while any is active (polling every 20 us; 1 ms idle), so they also progress while the program computes or blocks in other MPI calls; needs MPI_THREAD_MULTIPLE (otherwise a warning, and progress only in the completion calls). 0 (default): progress only inside MPI_Wait*/MPI_Test* (docs/nonblocking.md)."},
    {"PAPCOLL_IALLGATHER", NULL, PC_PARAM_STRING, "auto", FIELD(nbc.iallgather), "auto|native|ring|bruck",
     "MPI_Iallgather and MPI_Iallgatherv: native = the MPI library's own; ring (p - 1 rounds); bruck (ceil(log2 p) rounds, a temporary of all blocks); auto = bruck below PAPCOLL_IALLGATHER_LARGE bytes (all blocks together), else ring. Same value on every process."},
    {"PAPCOLL_IALLGATHER_LARGE", NULL, PC_PARAM_SIZE, "80K", FIELD(nbc.iallgather_large), NULL,
     "MPI_Iallgather(v) auto: smallest message (all blocks together) that takes ring."},
    {"PAPCOLL_IALLTOALL", NULL, PC_PARAM_STRING, "auto", FIELD(nbc.ialltoall), "auto|native|linear|pairwise",
     "MPI_Ialltoall, MPI_Ialltoallv and MPI_Ialltoallw: native = the MPI library's own; linear (every message posted at once); pairwise (p - 1 rounds, one exchange each); auto = pairwise for MPI_Ialltoall from PAPCOLL_IALLTOALL_LARGE bytes per block, else linear (always for MPI_Ialltoallv and MPI_Ialltoallw). Same value on every process."},
    {"PAPCOLL_IALLTOALL_LARGE", NULL, PC_PARAM_SIZE, "32K", FIELD(nbc.ialltoall_large), NULL,
     "MPI_Ialltoall auto: smallest block (bytes one process sends another) that takes pairwise."},
    {"PAPCOLL_IGATHER", NULL, PC_PARAM_STRING, "auto", FIELD(nbc.igather), "auto|native|linear|binomial",
     "MPI_Igather and MPI_Igatherv: native = the MPI library's own; linear (the root receives every block at once); binomial (MPI_Igather only; MPI_Igatherv takes linear, logged); auto = binomial for MPI_Igather below PAPCOLL_IGATHER_LARGE bytes per block, else linear. Same value on every process."},
    {"PAPCOLL_IGATHER_LARGE", NULL, PC_PARAM_SIZE, "8K", FIELD(nbc.igather_large), NULL,
     "MPI_Igather auto: smallest block (bytes per process) that takes linear."},
    {"PAPCOLL_ISCATTER", NULL, PC_PARAM_STRING, "auto", FIELD(nbc.iscatter), "auto|native|linear|binomial",
     "MPI_Iscatter and MPI_Iscatterv: native = the MPI library's own; linear (the root sends every block at once); binomial (MPI_Iscatter only; MPI_Iscatterv takes linear, logged); auto = binomial for MPI_Iscatter below PAPCOLL_ISCATTER_LARGE bytes per block, else linear. Same value on every process."},
    {"PAPCOLL_ISCATTER_LARGE", NULL, PC_PARAM_SIZE, "8K", FIELD(nbc.iscatter_large), NULL,
     "MPI_Iscatter auto: smallest block (bytes per process) that takes linear."},
    {"PAPCOLL_IREDUCE_SCATTER", NULL, PC_PARAM_STRING, "auto", FIELD(nbc.ireduce_scatter), "auto|native|pairwise|linear",
     "MPI_Ireduce_scatter and MPI_Ireduce_scatter_block: native = the MPI library's own; pairwise (p - 1 rounds; commutative ops, a non-commutative op runs linear, logged); linear (every block at once, combined in rank order: any op; p - 1 temporaries of a block); auto = pairwise for commutative ops, else linear. Same value on every process."},
    {"PAPCOLL_ISCAN", NULL, PC_PARAM_STRING, "auto", FIELD(nbc.iscan), "auto|native|recursive_doubling|linear",
     "MPI_Iscan and MPI_Iexscan: native = the MPI library's own; recursive_doubling (ceil(log2 p) rounds, any op); linear (a chain: rank i waits for i - 1, then hands its prefix to i + 1: p - 1 rounds end to end, any op); auto = recursive_doubling. Same value on every process."},
};
const int pc_param_table_size = (int)(sizeof pc_param_table / sizeof pc_param_table[0]);

static pc_params_t current;

const char *pc_param_type_name(pc_param_type_t t)
{
    switch (t) {
    case PC_PARAM_SIZE: return "size";
    case PC_PARAM_LONG: return "int";
    case PC_PARAM_DOUBLE: return "double";
    case PC_PARAM_STRING: return "string";
    }
    return "?";
}

int pc_parse_size(const char *text, size_t *out)
{
    char *end;
    errno = 0;
    if (!text || !isdigit((unsigned char)*text)) return -1;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno) return -1;
    unsigned long long mult = 1;
    switch (toupper((unsigned char)*end)) {
    case 'K': mult = 1ULL << 10; end++; break;
    case 'M': mult = 1ULL << 20; end++; break;
    case 'G': mult = 1ULL << 30; end++; break;
    default: break;
    }
    if (mult > 1 && *end == 'i') end++;
    if (toupper((unsigned char)*end) == 'B') end++;
    if (*end != '\0') return -1;
    if (v > (unsigned long long)SIZE_MAX / mult) return -1;
    *out = (size_t)(v * mult);
    return 0;
}

/* One decimal count at *s; advances *s past it.  -1 if none or too large. */
static int parse_count(const char **s, unsigned long *out)
{
    if (!isdigit((unsigned char)**s)) return -1;
    char *end;
    errno = 0;
    unsigned long v = strtoul(*s, &end, 10);
    if (errno) return -1;
    *s = end;
    *out = v;
    return 0;
}

int pc_parse_count_list(const char *text, const char *name, unsigned long *out)
{
    unsigned long all, v, found = 0;
    int have = 0;
    const char *s = text ? text : "";
    if (parse_count(&s, &all)) return -1;
    while (*s == ',') {
        const char *key = ++s;
        while (islower((unsigned char)*s) || *s == '_') s++;
        size_t len = (size_t)(s - key);
        if (!len || *s++ != '=' || parse_count(&s, &v)) return -1;
        if (!have && name && strlen(name) == len && !strncmp(key, name, len)) {
            found = v;
            have = 1;
        }
    }
    if (*s) return -1;
    if (out) *out = have ? found : all;
    return 0;
}

void pc_format_size(size_t v, char *buf, size_t buflen)
{
    static const char suffix[] = "GMK";
    for (int i = 0; i < 3; i++) {
        size_t unit = (size_t)1 << (10 * (3 - i));
        if (v >= unit && v % unit == 0) {
            snprintf(buf, buflen, "%zu%c", v / unit, suffix[i]);
            return;
        }
    }
    snprintf(buf, buflen, "%zu", v);
}

static int choice_allowed(const char *choices, const char *value)
{
    size_t n = strlen(value);
    for (const char *c = choices; c && *c;) {
        const char *bar = strchr(c, '|');
        size_t len = bar ? (size_t)(bar - c) : strlen(c);
        if (len == n && strncmp(c, value, n) == 0) return 1;
        c = bar ? bar + 1 : c + len;
    }
    return choices == NULL;
}

static pc_log_level_t log_level_of(const char *s)
{
    if (!strcmp(s, "off")) return PC_LOG_OFF;
    if (!strcmp(s, "info")) return PC_LOG_INFO;
    if (!strcmp(s, "debug")) return PC_LOG_DEBUG;
    return PC_LOG_WARN;
}

static pc_node_protocol_t node_protocol_of(const char *s)
{
    if (!strcmp(s, "ring")) return PC_NODE_PROTOCOL_RING;
    if (!strcmp(s, "write")) return PC_NODE_PROTOCOL_WRITE;
    if (!strcmp(s, "read")) return PC_NODE_PROTOCOL_READ;
    return PC_NODE_PROTOCOL_AUTO;
}

/* Parses `value` for definition d and stores it into p; -1 if malformed. */
static int assign(pc_params_t *p, const pc_param_def_t *d, const char *value)
{
    char *field = (char *)p + d->offset;
    char *end;
    switch (d->type) {
    case PC_PARAM_SIZE: {
        size_t v;
        if (pc_parse_size(value, &v)) return -1;
        *(size_t *)field = v;
        break;
    }
    case PC_PARAM_LONG: {
        errno = 0;
        long v = strtol(value, &end, 10);
        if (errno || end == value || *end || v < 0) return -1;
        *(long *)field = v;
        break;
    }
    case PC_PARAM_DOUBLE: {
        errno = 0;
        double v = strtod(value, &end);
        if (errno || end == value || *end || !(v >= 0)) return -1;
        *(double *)field = v;
        break;
    }
    case PC_PARAM_STRING: {
        if (!choice_allowed(d->choices, value)) return -1;
        if (d->offset == FIELD(adapt_start) && pc_parse_count_list(value, NULL, NULL)) return -1;
        char *copy = strdup(value);
        if (!copy) return -1;
        free(*(char **)field);
        *(char **)field = copy;
        break;
    }
    }
    if (p->log) p->log_level = log_level_of(p->log);
    if (p->node_protocol) p->node_protocol_kind = node_protocol_of(p->node_protocol);
    return 0;
}

/* By name or former name (alias). */
static const pc_param_def_t *find_def(const char *name)
{
    for (int i = 0; i < pc_param_table_size; i++)
        if (!strcmp(pc_param_table[i].name, name) ||
            (pc_param_table[i].alias && !strcmp(pc_param_table[i].alias, name)))
            return &pc_param_table[i];
    return NULL;
}

/* The environment's value of d: its name, else its former name. */
static const char *env_value(const pc_param_def_t *d, const char **used)
{
    const char *v = getenv(*used = d->name);
    if (!v && d->alias) v = getenv(*used = d->alias);
    return v;
}

void pc_params_load_defaults(pc_params_t *p)
{
    memset(p, 0, sizeof *p);
    for (int i = 0; i < pc_param_table_size; i++)
        if (assign(p, &pc_param_table[i], pc_param_table[i].default_value))
            abort(); /* a malformed default is a programming error */
}

static void load(void)
{
    pc_params_load_defaults(&current);
    for (int i = 0; i < pc_param_table_size; i++) {
        const char *name, *env = env_value(&pc_param_table[i], &name);
        if (env && assign(&current, &pc_param_table[i], env))
            fprintf(stderr, "papcoll: warning: ignoring %s=\"%s\" (malformed %s%s%s), using \"%s\"\n",
                    name, env, pc_param_type_name(pc_param_table[i].type),
                    pc_param_table[i].choices ? ": " : "",
                    pc_param_table[i].choices ? pc_param_table[i].choices : "",
                    pc_param_table[i].default_value);
    }
}

static atomic_ulong generation;

const pc_params_t *_Atomic pc_params_loaded;

const pc_params_t *pc_params_load(void)
{
    pc_lock();
    if (!atomic_load_explicit(&pc_params_loaded, memory_order_relaxed)) {
        load();
        atomic_store_explicit(&pc_params_loaded, &current, memory_order_release);
    }
    pc_unlock();
    return &current;
}

int pc_params_set(const char *name, const char *value)
{
    const pc_param_def_t *d = name ? find_def(name) : NULL;
    if (!d || !value) return -1;
    (void)pc_params();
    int rc = assign(&current, d, value);
    if (rc == 0) atomic_fetch_add_explicit(&generation, 1, memory_order_release);
    return rc;
}

unsigned long pc_params_generation(void) { return atomic_load_explicit(&generation, memory_order_acquire); }

int pc_params_format(const char *name, char *buf, size_t buflen)
{
    const pc_param_def_t *d = name ? find_def(name) : NULL;
    if (!d) return -1;
    const char *field = (const char *)pc_params() + d->offset;
    switch (d->type) {
    case PC_PARAM_SIZE: pc_format_size(*(const size_t *)field, buf, buflen); break;
    case PC_PARAM_LONG: snprintf(buf, buflen, "%ld", *(const long *)field); break;
    case PC_PARAM_DOUBLE: snprintf(buf, buflen, "%g", *(const double *)field); break;
    case PC_PARAM_STRING: snprintf(buf, buflen, "%s", *(char *const *)field); break;
    }
    return 0;
}
