/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * adapt_probe.c - the early probe (PAPCOLL_ADAPT_PROBE=1; off by default): a
 * group's first calls compare the rule's first candidate (the static choice)
 * with the MPI library's own collective once, so that a program with few
 * calls per site does not run `native` when the static choice is blatantly
 * faster (SIMULATED, NAS FT at 1024 ranks: 7 alltoalls, `aware` 2.7x faster
 * than SMPI's Bruck, all lost while every site waits for PAPCOLL_ADAPT_START
 * calls).
 *
 * Idea.  Per group (communicator, collective, size class, rule, candidates:
 * every process maps a call to the same group and counts the group's calls
 * alike; call sites are not agreed that early), once, while its states wait
 * (phase WAIT), only for the collectives nobody leaves before the last
 * arrival (allreduce, allgather, alltoall, reduce_scatter: each process's
 * result needs every process's data), and only where the rule's first
 * candidate is not `native` but `native` is a candidate:
 *   call 1  `native`, unmeasured (what a waiting state runs anyway);
 *   call 2  `native`, measured: each process's time in the call;
 *   call 3  the rule's first candidate, unmeasured (a warm-up: first-use
 *           costs such as shared-memory windows and segments, and the
 *           arrival pattern `native`'s exits left, see below);
 *   call 4  the same, measured; at its end each process posts a nonblocking
 *           reduce (SUM) of its two costs to rank 0 of papcoll's private
 *           communicator (p - 1 messages; SMPI's MPI_Iallreduce would send
 *           p (p - 1));
 *   call 5  before choosing: the reduce completes, rank 0 decides, and a
 *           blocking broadcast of one int (once per group) tells everyone.
 * From call 5 on every waiting state of the group (the sites that appear
 * later included) runs the probe's winner instead of `native`, on every
 * process from the same call.  Calls 1-4 depend only on the group's call
 * count, the same everywhere; agreements begin after PAPCOLL_ADAPT_START
 * (> 5) calls, so nothing collides with calls 1-5.
 *
 * Why only those collectives.  A call's arrivals are the previous call's
 * exits plus the program's work.  Where nobody leaves before the last
 * arrival, every process leaves within the algorithm's time after the last
 * arrival, so one call's time says what the algorithm costs in this
 * program.  A broadcast or a reduce lets processes go at very different
 * times (a tree's depth apart), and the pattern it leaves lasts many calls:
 * one call's time then measures the pattern as much as the algorithm.
 * SIMULATED, Floyd-Warshall at 128 ranks (gemini, 32 KiB broadcasts):
 * probed, `cp_knomial` measured 21-27 us against `native`'s 62-129 us
 * (whichever went first, a warm-up call each), and the program ran
 * `cp_knomial` at 46 us per broadcast where `native` takes 25 over the run
 * (it lets the processes drift into a wave matched to its tree): run time
 * 0.98x.  Such sites wait for PAPCOLL_ADAPT_START calls and explore.
 *
 * Why `native` first: the pattern the first algorithm leaves is small here,
 * but what there is falls on the second; measured first, `native` sees the
 * program's own pattern, and the error falls on the side of keeping
 * `native`, the probe's purpose (do no harm, switch only on a blatant win).
 *
 * Exploration from the START-th call on is unchanged: its reference stays
 * `native`, so a wrong probe decision is corrected there at sites with many
 * calls.
 *
 * Cost: two calls of the candidate and two of `native` (which a waiting
 * state would have run anyway), one reduce of two doubles (p - 1 messages)
 * and one broadcast of an int per group, once; two clock reads in calls 2
 * and 4.  The cost is each process's time in the call whatever
 * PAPCOLL_ADAPT_COST says (there is no previous call of the same candidate
 * for an iteration's cost).
 *
 * Late arrival.  The cost is a process's arrival-to-exit time, so whoever
 * arrives early pays for the late ones in both measured calls; a late
 * process in call 2 and not in call 4 (or the reverse) shifts one of the two
 * single samples by its lateness.  The broadcast at call 5 makes every
 * process wait for rank 0 and rank 0 for the reduce, i.e. for the last
 * process's end of call 4: once per group, as a barrier would.
 *
 * Why off by default: where the candidate loses, the probe's two calls of it
 * are a price a program with few calls cannot recover.  SIMULATED (gemini,
 * docs/apps.md "Default auto"): NAS FT's seven alltoalls run 1.48x faster
 * at 1024 ranks with the probe (`aware` against SMPI's Bruck), but 0.99x at
 * class A on 128 and class B on 256 ranks, where `aware` is 1.3x slower
 * than `native` and the probe keeps `native` after paying for two calls of
 * it.  The default does no harm; PAPCOLL_ADAPT_PROBE=1 is the bet for a
 * program that expects the static choice to win big.
 *
 * Why a ratio (PAPCOLL_ADAPT_PROBE_RATIO, default 2) rather than the
 * exploration's 5% margin: one measured call each, under imbalanced
 * arrival, is mostly noise at small gains, and a false switch away from
 * `native` would break "do no harm" for exactly the programs that cannot
 * recover from it (few calls per site).  Only a blatant win switches (FT's
 * alltoall: 2.7x).
 *
 * Not probed: broadcast, reduce, gather, scatter, scan (above),
 * PAPCOLL_ADAPT_PROBE=0, PAPCOLL_ADAPT_FIRST=rule (waiting sites run the
 * static choice already), PAPCOLL_ADAPT_START <= 5 (exploration
 * comes right away, and agreements could collide with calls 1-5), the
 * "vary" size class (v-collectives whose sizes differ between processes:
 * calls 2 and 4 may move very different amounts of data), PAPCOLL_TUNE rules
 * (the user's explicit candidates; also the only rules under which processes
 * can put one call in different groups, which the agreement detects with a
 * check the probe's messages do not carry), one process (adaptation is off).
 */
#include "select/adapt_impl.h"
#include "core/log.h"
#include "core/progress.h"
#include "core/params.h"

#include <string.h>

void pc_adapt_probe_init(adapt_group_t *g, int p, int waits_for_all)
{
    const pc_params_t *prm = pc_params();
    int ref = pc_adapt_reference(g);
    g->probe = PROBE_OFF;
    g->probe_req = MPI_REQUEST_NULL;
    if (!prm->adapt_probe || !waits_for_all || prm->adapt_first[0] != 'n' || pc_adapt_start_calls(g) <= 5 || p < 2 ||
        g->size_class == SIZE_CLASS_VARY || g->rule_id >> 16 == PC_RULES_TUNE)
        return;
    if (ref == 0 || strcmp(g->cand[ref], "native")) return; /* the first is native, or no native */
    g->probe = PROBE_RUNNING;
}

int pc_adapt_wait_choice(const adapt_group_t *g)
{
    return g->probe == PROBE_DONE ? g->probe_winner : pc_adapt_first_choice(g);
}

int pc_adapt_probe_call(const adapt_group_t *g, unsigned long call)
{
    return (g->probe == PROBE_RUNNING && call <= 4) ? (int)call : 0;
}

int pc_adapt_probe_candidate(const adapt_group_t *g, int step)
{
    return step < 3 ? pc_adapt_reference(g) : 0;
}

/* Posts the reduce of this process's two costs to rank 0 (call 4's end). */
static void post(adapt_group_t *g)
{
    int rc = PMPI_Ireduce(g->probe_cost, g->probe_sum, 2, MPI_DOUBLE, MPI_SUM, 0, g->table->comm, &g->probe_req);
    if (rc != MPI_SUCCESS) g->probe_req = MPI_REQUEST_NULL;
    g->probe = PROBE_REDUCING;
}

void pc_adapt_probe_record(const pc_adapt_ticket_t *ticket, double in_call)
{
    adapt_group_t *g = ticket->state->group;
    if (g->probe != PROBE_RUNNING) return;
    g->probe_cost[ticket->probe == 4 ? 0 : 1] = in_call * ticket->weight;
    if (ticket->probe == 4) post(g);
}

int pc_adapt_probe_decide(adapt_group_t *g)
{
    const adapt_table_t *t = g->table;
    int ref = pc_adapt_reference(g);
    if (g->probe == PROBE_RUNNING) post(g); /* call 4 failed here (no record): the others posted theirs */
    MPI_Status status;
    int rc = g->probe_req != MPI_REQUEST_NULL ? pc_wait_request(&g->probe_req, &status) : MPI_ERR_OTHER;
    g->probe_req = MPI_REQUEST_NULL;
    int winner = ref;
    if (t->rank == 0 && rc == MPI_SUCCESS) {
        double ratio = pc_params()->adapt_probe_ratio;
        if (!(ratio >= 1)) ratio = 1;
        g->probe_mean[0] = g->probe_sum[0] / t->size;
        g->probe_mean[1] = g->probe_sum[1] / t->size;
        if (g->probe_mean[0] <= g->probe_mean[1] / ratio) winner = 0;
    }
    /* every process, even one whose reduce failed, joins the broadcast */
    int brc = PMPI_Bcast(&winner, 1, MPI_INT, 0, t->comm);
    if (brc != MPI_SUCCESS || winner < 0 || winner >= g->ncand) winner = ref;
    g->probe_winner = winner;
    g->probe = PROBE_DONE;
    if (t->rank == 0 && pc_log_enabled(PC_LOG_DEBUG)) {
        char what[160];
        pc_adapt_describe_state(g->state[0], what, sizeof what);
        pc_log(PC_LOG_DEBUG, "adapt: %s: probe: %s %.2f us, native %.2f us (mean time in call): %s until "
               "PAPCOLL_ADAPT_START calls per site", what, g->cand[0], 1e6 * g->probe_mean[0], 1e6 * g->probe_mean[1],
               g->cand[winner]);
    }
    return rc != MPI_SUCCESS ? rc : brc;
}

void pc_adapt_probe_finish(adapt_group_t *g)
{
    if (g->probe != PROBE_REDUCING || g->probe_req == MPI_REQUEST_NULL) return;
    MPI_Status status;
    pc_wait_request(&g->probe_req, &status); /* undecided: the report says so */
}
