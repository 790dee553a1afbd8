/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * adapt.h - adaptive selection among a rule's candidates (PAPCOLL_ADAPT, on
 * by default; PAPCOLL_ADAPT=0 is the off switch).
 *
 * The idea of STAR-MPI (Faraj, Yuan, Lowenthal, ICS 2006): the best algorithm
 * depends on the platform, the message size and, under imbalanced arrival,
 * on the application's arrival pattern, which no static rule sees.  So when
 * the matching rule names several candidates (tune.h: `a|b|c`; select.c adds
 * the MPI library's own collective, `native`, to every built-in and
 * PAPCOLL_TUNE_FILE rule), measure each online, keep the cheapest, and
 * measure again when the pattern changes.
 *
 * Do no harm.  A call site runs the MPI library's own collective (`native`,
 * where the rule counts it; PAPCOLL_ADAPT_FIRST=rule: the rule's first
 * candidate), unmeasured (no clock read) and with no agreement message, until it has made
 * PAPCOLL_ADAPT_START calls (phase WAIT; like MVAPICH's online tuning after a
 * call-count threshold, which runs the library's tables until then): a
 * program with few calls per site runs what it would without papcoll and
 * pays nothing for exploration it could not recover.  The default, 1000
 * calls, comes from Floyd-Warshall under SMPI (docs/tuning.md, "What it
 * costs"): an exploration there cost as much as 90 (128 ranks) to 185 (512)
 * of the site's calls, mostly because the candidates resynchronise processes
 * that `native` had let drift into a pipelined wave, so a site must make
 * several times that many calls for a 20% gain to pay it back.  The reduce's
 * default is 100 (PAPCOLL_ADAPT_START=1000,reduce=100): its exploration costs
 * about its own 30 calls (the non-roots leave early whatever runs next) and
 * its candidates' faster root wins that back within a few hundred calls
 * (matvec, 512 calls per site: 1.03-1.18x `native`'s run time).
 * With PAPCOLL_ADAPT_PROBE=1 (off by default: the probe's calls of a losing
 * candidate cost a program with few calls 1% of NAS FT's run, adapt_probe.c)
 * one exception, cheap and once per group: for the collectives nobody leaves before the last
 * arrival (allreduce, allgather, alltoall, reduce_scatter: one call's time
 * says what an algorithm costs there, where a broadcast's or a reduce's
 * measures as much the arrival pattern its processes were let go in), where
 * the rule's first candidate (the static choice) is not `native` but the
 * rule counts `native`, the group's first four calls run `native` and then
 * that candidate, each a warm-up call (first-use costs, part of the pattern
 * the other algorithm left) then a measured one (`native` first: the error
 * of measuring the second in the first's pattern falls on keeping `native`);
 * a nonblocking reduce to rank 0 and a one-int broadcast at the 5th call make
 * every waiting state of the group run the candidate from then on if it
 * measured at most `native`'s / PAPCOLL_ADAPT_PROBE_RATIO (2: only a blatant
 * win, one call each is noisy).  A program with few calls per site then gets
 * a blatant win (SIMULATED, NAS FT's seven alltoalls at 1024 ranks: `aware`
 * 2.7x faster than SMPI's Bruck) and otherwise runs `native`, having paid
 * two calls of the candidate, one reduce and one broadcast per group.
 * Then it explores (the reference is `native` whatever the probe decided,
 * so a wrong probe decision is corrected at sites with many calls); the
 * decision keeps `native` unless another
 * candidate measures PAPCOLL_ADAPT_MARGIN faster, so in steady state `auto`
 * is not measurably slower than the MPI library at that site.  For reduce and
 * gather the root's time weighs as much as all the other processes' together
 * (pc_adapt_weigh_root): an algorithm that lets the others leave early but
 * keeps the root waiting is no gain to a program that goes on at the root.
 *
 * State.  A *group* is (communicator, collective, size class (2^(k-1), 2^k],
 * rule, usable candidates): every process of the communicator maps a call to
 * the same group, because all of that is the same on every process (same
 * call order, same sizes, same op; only the v-collectives' sizes differ, and
 * their class is the single "vary" class).  A group holds *states*: state 0
 * keyed without the call site, and one per call site (the caller's return
 * address as module name + offset, so ASLR does not matter) once the
 * processes were seen to agree on the sites.
 *
 * Cost.  Each process measures its own time in the call (arrival to exit,
 * e_i = f_i - a_i), and a candidate's cost is the mean over processes and
 * calls (the root weighed as above): the average per-process time e_bar of
 * Patarasuk & Yuan 2008 ("Efficient MPI_Bcast across different process
 * arrival patterns"), the benchmark's metric (DESIGN.md section 6).
 * It needs no clock synchronization, it counts the waits an algorithm causes
 * to early processes under late arrivals (what arrival-tolerant algorithms
 * remove), and the part no algorithm controls (waiting for the last arrival
 * in an allreduce) is the same for every candidate under one pattern.
 * What it misses: an algorithm also shapes the next call's arrival pattern
 * (who leaves first computes first), so a candidate measured inside the
 * pattern the others left is not the candidate in its own.  With
 * PAPCOLL_ADAPT_COST=iteration the cost is the time from this process's exit
 * from the previous call of the state to its exit from this one (the
 * program's iteration: its computation, the same for every candidate, plus
 * the call), and another candidate must beat the reference by
 * PAPCOLL_ADAPT_MARGIN of the reference's time in the call.
 *
 * Consistency (every process must run the same algorithm in the same call).
 * Decisions change only at points every process reaches with identical
 * information: the early probe's calls 1-4 depend on the group's call count
 * only, and its decision, broadcast by rank 0 at the group's 5th call,
 * applies from that call on (agreements begin after PAPCOLL_ADAPT_START > 5
 * calls, so they never meet the probe's); and every period-th call of a group (PAPCOLL_ADAPT_PERIOD; doubled
 * at each agreement once every state of the group has settled, up to
 * PAPCOLL_ADAPT_PERIOD_MAX, back to PAPCOLL_ADAPT_PERIOD when one explores:
 * the agreements' cost, a large share of small calls at a period of 16,
 * fades once a site has settled) each process posts a nonblocking allreduce (a reduce to rank 0, completed a quarter
 * period later, then a broadcast, completed another quarter later; natively
 * the MPI library's MPI_Ireduce and MPI_Ibcast, under SMPI papcoll's own
 * in two levels through the node leaders, since SMPI's are linear:
 * adapt_messages.c) on papcoll's
 * private communicator of (a) the
 * group key and a hash of the sequence of call-site keys (site.h) since the last
 * agreement (MAX of x and -x: equal everywhere iff min == max) and (b) every
 * agreed state's per-candidate cost sums and the process's mean time in the
 * call (SUM).  Waiting for a stage costs nothing unless a process is a
 * quarter period behind, where a blocking allreduce would make every early
 * process wait for the last arrival.  Only at the end are exploration
 * results, decisions and site agreement applied.
 * While the sites are not agreed (the group's first period, new sites) calls
 * run state 0; if the site sequences differ, the group falls back to state
 * 0 only, reset, for good.  Residual risk, documented: a program whose
 * processes agreed on call sites for a whole period and later call the same
 * collective from different sites may run different algorithms before the
 * next agreement detects it; PAPCOLL_ADAPT_SITES=0 rules that out.
 *
 * The agreed data are each agreed site's candidate sums and mean time (2
 * ncand + 2 doubles per agreed state), not a fixed table: with room for 9
 * states of 8 candidates (1.3 KiB per process) and SMPI's linear
 * nonblocking reduce and broadcast, the agreements made a 4 KiB allreduce
 * 1.15x slower over 64 calls at 64 simulated ranks (1.04x with the agreed
 * slices).
 *
 * Exploration: the candidates in turn, each for a block of consecutive
 * calls: a warm-up call (not measured: first-use costs such as shared
 * segments, and what the previous candidate's call spills into this one:
 * processes it let go early wait longer here; nor are the calls that post or
 * complete agreement messages) then PAPCOLL_ADAPT_EXPLORE measured calls,
 * round after round until each has them (measured 1.4-2x off when candidates
 * alternated call by call in a back-to-back loop), then the reference,
 * unmeasured, until the next agreement (rather than more rounds: the decision
 * can be up to a period and a half away, and the candidates may cost twice
 * the reference); at the first agreement where
 * every candidate has them, of the candidates within PAPCOLL_ADAPT_MARGIN
 * (5%) of the lowest mean cost the one of the lowest mean time in the call
 * is chosen, if its cost is more than the margin below the reference's
 * (`native` where the rule counts it, else the rule's first), which wins
 * otherwise.  Reduce and gather (more than two processes) score instead the
 * larger of a candidate's root time and e_bar, each over the best
 * candidate's, both taken from the two sums (adapt_decide.c): the root's
 * result soon and the others free soon, where one algorithm may have the
 * fastest root and another the lowest e_bar; a tie of scores goes to the
 * lower cost.  Explore
 * again after PAPCOLL_ADAPT_REEXPLORE calls (doubled, up to 1024 times, each
 * time that confirms the choice), or when (spread + cost) of a period differs
 * by more than PAPCOLL_ADAPT_SPREAD_FACTOR from the one after the decision
 * (spread: standard deviation over processes of their mean time in the call,
 * which grows with the arrival imbalance).  A decided state measures about
 * 16 calls per period for it (adapt.c, exploit_measured), the rest read no
 * clock.  Nothing but MPI_Wtime enters a
 * decision: under SMPI (simulated time) the same run makes the same choices.
 * Decisions (the probe's included) are logged at PAPCOLL_LOG=debug by the
 * communicator's rank 0; PAPCOLL_ADAPT_REPORT writes every state at
 * MPI_Finalize, with its group's probe (both means, the winner).
 * Only blocking collectives adapt (pc_coll_run): nonblocking and persistent
 * ones (src/nbc) select without it.  Under MPI_THREAD_MULTIPLE a communicator's
 * table is touched by one thread at a time (MPI forbids concurrent
 * collectives on one communicator); only the list of tables is locked.
 */
#ifndef PC_ADAPT_H
#define PC_ADAPT_H

#include <stddef.h>
#include <stdint.h>

#include "ctx/comm.h"
#include "select/select.h"

/* What pc_adapt_record() needs of the call pc_adapt_choose() prepared. */
typedef struct pc_adapt_ticket {
    struct adapt_state *state; /* NULL: nothing to record */
    int candidate;             /* index into the selection's candidates */
    int measured;              /* 0 for a candidate's warm-up call */
    double weight;             /* of this process's time in the candidate's cost (pc_adapt_weigh_root) */
    int iteration_cost;        /* PAPCOLL_ADAPT_COST=iteration: the cost runs from the last exit here */
    int probe;                 /* the early probe's measured calls: 2 (the rule's first), 3 (`native`); else 0 */
    struct adapt_group *group; /* the call's group once its site's state was found (pc_adapt_repeat), else NULL */
    uint64_t site;             /* the site's hash (0 when the group does not key on sites) */
} pc_adapt_ticket_t;

/* Whether adaptive selection applies to a call whose selection is sel
 * (PAPCOLL_ADAPT=1, several candidates, more than one process). */
int pc_adapt_applies(const pc_comm_t *ctx, const pc_selection_t *sel);

/* Chooses among sel's candidates for a call of collective coll (coll_id,
 * bytes: (size_t)-1 when sizes differ between processes; waits_for_all:
 * nobody leaves before the last arrival, the early probe's condition) on ctx; may
 * complete or post the group's agreement (collective over ctx->comm, in the
 * same call on every process).  Sets ticket->candidate and a reason in why.
 * Returns MPI_SUCCESS or an MPI error code (ticket->candidate is then 0). */
int pc_adapt_choose(pc_comm_t *ctx, int coll_id, const char *coll, size_t bytes, int waits_for_all,
                    const pc_selection_t *sel, pc_adapt_ticket_t *ticket, char *why, size_t whylen);

/* A repeat of a call pc_adapt_choose() left quiet (no agreement step, no
 * probe, no new state, nothing measured), in group g from the site whose
 * hash it gave (ticket->group, ticket->site): when the next call of g from
 * that site is quiet too, does that call's bookkeeping exactly as
 * pc_adapt_choose() would and returns the candidate to run; else -1, with
 * nothing changed (the call then takes pc_adapt_choose()). */
int pc_adapt_repeat(const pc_comm_t *ctx, struct adapt_group *g, uint64_t site);

/* The call's arrival and exit on this process (MPI_Wtime, seconds). */
void pc_adapt_record(const pc_adapt_ticket_t *ticket, double start, double end);

/* For collectives whose root collects everyone's data (reduce, gather): the
 * root's time weighs as much as all the other processes' together, so that
 * a candidate's cost is (root's time + mean of the others') / 2.  The root
 * usually goes on with the result: an algorithm that lets the other
 * processes leave early but makes the root wait longer is no gain. */
void pc_adapt_weigh_root(pc_adapt_ticket_t *ticket, int is_root, int p);

#endif
