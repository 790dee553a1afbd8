/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_adapt - adaptive selection (PAPCOLL_ADAPT=1, src/select/adapt.h) must
 * keep every process on the same algorithm in every call.
 *
 * Broadcast, reduce and allreduce with automatic selection, two message
 * sizes (two size classes), many calls, from two call sites (two functions
 * that are never inlined), every result checked after every call.  Roots
 * rotate; the reduce's root passes MPI_IN_PLACE every third call; every
 * fourth reduction uses a user-defined commutative op (another rule and
 * candidate set).  Options:
 *   --calls=N        rounds (each: 3 collectives x 2 sizes), default 200
 *   --split-sites    even ranks call from one site, odd ranks from the other:
 *                    the processes disagree on the call site, adaptive
 *                    selection must fall back to keying without it (a hang
 *                    here is the failure; ctest's timeout catches it)
 *   --late-site      from the middle of the run every process also calls
 *                    from a third site (every third round, small sizes):
 *                    a site that appears after the others were agreed on
 *                    joins the agreements (each carries the agreed sites'
 *                    data only, so every process must count them alike)
 *   --delays         rank-dependent arrival delays (busy waits) that change
 *                    every 50 rounds, so the arrival spread changes
 *   --expect-report=site|any|unagreed|mixed   after MPI_Finalize rank 0 reads
 *                    the report PAPCOLL_ADAPT_REPORT names (a file, removed
 *                    first) and checks that decisions were keyed by call site
 *                    (site), had fallen back to no call site (any), that no
 *                    agreement on sites took place (unagreed), or only that
 *                    it has states (mixed: the checks below say the rest)
 *   --expect-period-above=N    and that some group, settled, had stretched
 *                    its agreement period beyond N calls (PAPCOLL_ADAPT_PERIOD_MAX)
 *   --free-comm-every=N   the collectives run on a duplicate of
 *                    MPI_COMM_WORLD freed and duplicated again every N rounds,
 *                    whatever agreement is in flight (default: never freed)
 *   --expect-native  and that some state measured `native`, the MPI
 *                    library's own collective (a candidate of every built-in
 *                    rule), and more than one broadcast algorithm ran
 *   --expect-waiting[=COLL,...]  and that no state (of those collectives;
 *                    default every one) measured anything and no agreement
 *                    was posted (fewer calls per site than PAPCOLL_ADAPT_START:
 *                    the static choice, at no cost), and one broadcast
 *                    algorithm ran per size
 *   --expect-explored=COLL,...  and that some state of each of those
 *                    collectives explored (its PAPCOLL_ADAPT_START was reached)
 *   --expect-first=native|rule   and that every waiting state ran the MPI
 *                    library's own collective (native: PAPCOLL_ADAPT_FIRST's
 *                    default; every broadcast then ran `native`) or the
 *                    rule's first candidate (rule)
 * With PAPCOLL_ADAPT=1 in the environment it also checks that adaptation
 * ran: more than one broadcast algorithm was used (exploration).
 */
#include <mpi.h>
#include <papcoll.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

enum { SMALL = 100, LARGE = 6000 }; /* ints: 400 B and 24 KB */

static int rank, size;
static MPI_Comm work; /* the communicator of the collectives */
static int buf_i[LARGE], res_i[LARGE];

static void user_sum(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    for (int i = 0; i < *len; i++) ((int *)inout)[i] += ((const int *)in)[i];
}

static int value(int r, int round, int i) { return (r + 1) * 1000 + round * 7 + i % 13; }

static long expected_sum(int round, int i)
{
    long s = 0;
    for (int r = 0; r < size; r++) s += value(r, round, i);
    return s;
}

static void busy_wait(double seconds)
{
    double until = MPI_Wtime() + seconds;
    while (MPI_Wtime() < until) {
    }
}

/* One round of the three collectives at one size, inlined into each of the
 * two call-site functions below (so the calls have two return addresses);
 * `site` names them in messages. */
static inline __attribute__((always_inline)) void collectives(const char *site, int round, int count, MPI_Op user_op, char (*bcast_algos)[64], int *nalgos)
{
    int root = round % size;
    for (int i = 0; i < count; i++) buf_i[i] = rank == root ? value(root, round, i) : -1;
    CHECK(papcoll_bcast(buf_i, count, MPI_INT, root, work) == MPI_SUCCESS, "bcast rc");
    for (int i = 0; i < count; i++)
        if (buf_i[i] != value(root, round, i)) {
            CHECK(0, "%s round %d rank %d: bcast count %d element %d = %d, expected %d (%s)", site, round, rank,
                  count, i, buf_i[i], value(root, round, i), papcoll_last_algorithm());
            break;
        }
    const char *algo = papcoll_last_algorithm();
    int known = 0;
    for (int k = 0; k < *nalgos; k++) known |= !strcmp(bcast_algos[k], algo);
    if (!known && *nalgos < 16) snprintf(bcast_algos[(*nalgos)++], 64, "%s", algo);

    MPI_Op op = round % 4 == 3 ? user_op : MPI_SUM;
    int inplace = rank == root && round % 3 == 0;
    for (int i = 0; i < count; i++) (inplace ? res_i : buf_i)[i] = value(rank, round, i);
    CHECK(papcoll_reduce(inplace ? MPI_IN_PLACE : buf_i, res_i, count, MPI_INT, op, root, work) == MPI_SUCCESS,
          "reduce rc");
    if (rank == root)
        for (int i = 0; i < count; i++)
            if (res_i[i] != expected_sum(round, i)) {
                CHECK(0, "%s round %d: reduce count %d element %d = %d, expected %ld (%s)", site, round, count, i,
                      res_i[i], expected_sum(round, i), papcoll_last_algorithm());
                break;
            }

    for (int i = 0; i < count; i++) buf_i[i] = value(rank, round, i);
    CHECK(papcoll_allreduce(buf_i, res_i, count, MPI_INT, op, work) == MPI_SUCCESS, "allreduce rc");
    for (int i = 0; i < count; i++)
        if (res_i[i] != expected_sum(round, i)) {
            CHECK(0, "%s round %d rank %d: allreduce count %d element %d = %d, expected %ld (%s)", site, round, rank,
                  count, i, res_i[i], expected_sum(round, i), papcoll_last_algorithm());
            break;
        }
}

/* The two call sites: separate functions, never inlined. */
__attribute__((noinline)) static void site_a(int round, int count, MPI_Op op, char (*algos)[64], int *n)
{
    collectives("site A", round, count, op, algos, n);
}

__attribute__((noinline)) static void site_b(int round, int count, MPI_Op op, char (*algos)[64], int *n)
{
    collectives("site B", round, count, op, algos, n);
}

__attribute__((noinline)) static void site_c(int round, int count, MPI_Op op, char (*algos)[64], int *n)
{
    collectives("site C", round, count, op, algos, n);
}

/* The item after l in a comma-separated list ("" at its end). */
static const char *next_item(const char *l)
{
    l += strcspn(l, ",");
    return *l ? l + 1 : l;
}

/* Whether the report line is of the collective `coll` (its first n bytes;
 * coll NULL: any).  A line reads "papcoll adapt: comm 0 (p=4) reduce bytes ...". */
static int line_of(const char *line, const char *coll, size_t n)
{
    const char *c = strstr(line, ") ");
    return !coll || (c && strcspn(c + 2, " ") == n && !strncmp(c + 2, coll, n));
}

/* Whether the report line is of a collective in the comma-separated list
 * (NULL: every one). */
static int line_in(const char *line, const char *colls)
{
    if (!colls) return 1;
    for (const char *l = colls; *l; l = next_item(l))
        if (line_of(line, l, strcspn(l, ","))) return 1;
    return 0;
}

/* Whether every collective of the list has a line in `seen` (one flag per
 * list entry, set by the report loop). */
static int all_seen(const char *colls, const int *seen)
{
    int k = 0;
    for (const char *l = colls; *l && k < 16; l = next_item(l), k++)
        if (!seen[k]) return 0;
    return 1;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int calls = 200, split = 0, delays = 0, late_site = 0;
    const char *expect = NULL;
    long period_above = 0;
    int expect_native = 0, expect_waiting = 0, free_every = 0;
    const char *waiting_colls = NULL, *explored_colls = NULL; /* "bcast,allreduce": NULL = every collective */
    const char *expect_first = NULL; /* --expect-first: native or rule */
    for (int i = 1; i < argc; i++) {
        if (!strncmp(argv[i], "--calls=", 8)) calls = atoi(argv[i] + 8);
        else if (!strcmp(argv[i], "--split-sites")) split = 1;
        else if (!strcmp(argv[i], "--delays")) delays = 1;
        else if (!strcmp(argv[i], "--late-site")) late_site = 1;
        else if (!strncmp(argv[i], "--expect-report=", 16)) expect = argv[i] + 16;
        else if (!strncmp(argv[i], "--expect-period-above=", 22)) period_above = atol(argv[i] + 22);
        else if (!strcmp(argv[i], "--expect-native")) expect_native = 1;
        else if (!strncmp(argv[i], "--free-comm-every=", 18)) free_every = atoi(argv[i] + 18);
        else if (!strcmp(argv[i], "--expect-waiting")) expect_waiting = 1;
        else if (!strncmp(argv[i], "--expect-waiting=", 17)) expect_waiting = 1, waiting_colls = argv[i] + 17;
        else if (!strncmp(argv[i], "--expect-explored=", 18)) explored_colls = argv[i] + 18;
        else if (!strncmp(argv[i], "--expect-first=", 15)) expect_first = argv[i] + 15;
        else {
            if (rank == 0)
                fprintf(stderr, "usage: test_adapt [--calls=N] [--split-sites] [--late-site] [--delays] [--expect-report=site|any|unagreed|mixed]\n"
                                "       [--expect-period-above=N] [--expect-native] [--expect-waiting[=COLL,...]]\n"
                                "       [--expect-explored=COLL,...] [--expect-first=native|rule] [--free-comm-every=N]\n");
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    }
    const char *report = getenv("PAPCOLL_ADAPT_REPORT");
    if (expect && rank == 0 && report) remove(report);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Op user_op;
    MPI_Op_create(user_sum, 1, &user_op);
    char algos[16][64];
    int nalgos = 0;
    MPI_Comm_dup(MPI_COMM_WORLD, &work);
    for (int round = 0; round < calls; round++) {
        if (free_every > 0 && round > 0 && round % free_every == 0) {
            MPI_Comm_free(&work);
            MPI_Comm_dup(MPI_COMM_WORLD, &work);
        }
        if (delays && (round / 50) % 2 == 0) busy_wait(1e-4 * ((rank * 3 + round) % size));
        for (int s = 0; s < 2; s++) {
            int count = s ? LARGE : SMALL;
            /* same sites: small from A, large from B, and every 5th round the
             * other way round; split: by rank parity */
            int use_a = split ? rank % 2 == 0 : (s == 0) != (round % 5 == 4);
            if (late_site && s == 0 && round >= calls / 2 && round % 3 == 0)
                site_c(round, count, user_op, algos, &nalgos);
            else if (use_a) site_a(round, count, user_op, algos, &nalgos);
            else site_b(round, count, user_op, algos, &nalgos);
        }
    }
    const char *adapt = getenv("PAPCOLL_ADAPT");
    if (((adapt && !strcmp(adapt, "1")) || expect_native) && rank == 0)
        CHECK(nalgos > 1, "adaptive selection on but every broadcast ran %s: no exploration", nalgos ? algos[0] : "?");
    if (expect_waiting && rank == 0)
        CHECK(nalgos <= 2, "fewer calls than PAPCOLL_ADAPT_START but %d broadcast algorithms ran", nalgos);
    if (expect_first && !strcmp(expect_first, "native") && rank == 0)
        for (int i = 0; i < nalgos; i++)
            CHECK(!strcmp(algos[i], "native"), "a broadcast before PAPCOLL_ADAPT_START calls ran %s, not native", algos[i]);
    MPI_Op_free(&user_op);
    MPI_Comm_free(&work);
    int all = 0;
    MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) printf("test_adapt: %d rounds, %d broadcast algorithms seen, %s\n", calls, nalgos, all ? "FAILED" : "ok");
    MPI_Finalize();
    if (expect && rank == 0) { /* the report is written in MPI_Finalize */
        char line[1024];
        int site = 0, any = 0, lines = 0, native = 0, waiting = 0, first_wrong = 0;
        int waiting_lines = 0, waiting_states = 0, explored_seen[16] = {0};
        long longest = 0, agreements = 0, waiting_agreements = 0;
        int most_sites = 0, ngroups = 0; /* agreed sites of one group (the text before " site ") */
        char group[256][160];
        int group_sites[256];
        FILE *f = report ? fopen(report, "r") : NULL;
        while (f && fgets(line, sizeof line, f)) {
            lines++;
            const char *at = strstr(line, " site ");
            site += at != NULL;
            if (at && at - line < 160) {
                int g = 0;
                while (g < ngroups && (strlen(group[g]) != (size_t)(at - line) || strncmp(group[g], line, (size_t)(at - line))))
                    g++;
                if (g == ngroups && ngroups < 256) {
                    snprintf(group[g], sizeof group[g], "%.*s", (int)(at - line), line);
                    group_sites[ngroups++] = 0;
                }
                if (g < ngroups && ++group_sites[g] > most_sites) most_sites = group_sites[g];
            }
            any += strstr(line, " any site") != NULL;
            const char *every = strstr(line, " agreements, the last every ");
            long period = every ? atol(every + strlen(" agreements, the last every ")) : 0;
            if (period > longest) longest = period;
            const char *tail = every ? every : line;
            while (tail > line && tail[-1] != ' ') tail--;
            agreements += every ? atol(tail) : 0;
            const char *run = strstr(line, "waiting, running ");
            waiting += run != NULL;
            if (line_in(line, waiting_colls)) {
                waiting_lines++;
                waiting_states += run != NULL;
                waiting_agreements += every ? atol(tail) : 0;
            }
            const char *explorations = strstr(line, " explorations ");
            if (explored_colls && explorations && atol(explorations + 14) > 0) {
                int k = 0;
                for (const char *l = explored_colls; *l && k < 16; l = next_item(l), k++)
                    explored_seen[k] |= line_of(line, l, strcspn(l, ","));
            }
            if (run && expect_first) { /* the name run, against native or the first of the means' list "us: NAME -" */
                const char *name = run + strlen("waiting, running "), *first = strstr(line, " us: ");
                size_t len = strcspn(name, ",");
                const char *want = !strcmp(expect_first, "native") ? "native" : first ? first + 5 : "";
                if (len != strcspn(want, " ") || strncmp(name, want, len)) {
                    fprintf(stderr, "FAIL: waiting state ran %.*s, expected %s: %s", (int)len, name, expect_first, line);
                    first_wrong++;
                }
            }
            native += strstr(line, " native ") != NULL && strstr(line, " native -") == NULL; /* measured */
        }
        if (f) fclose(f);
        int ok = lines > 0 && (!strcmp(expect, "any")        ? any > 0 && site == 0
                               : !strcmp(expect, "unagreed") ? any == 0 && site == 0
                               : !strcmp(expect, "mixed")    ? 1
                                                             : site > 0 && any == 0);
        if (expect_native && !native) {
            fprintf(stderr, "FAIL: PAPCOLL_ADAPT_REPORT %s: no state measured native\n", report ? report : "(unset)");
            ok = 0;
        }
        if (expect_waiting && (!waiting_lines || waiting_states != waiting_lines || waiting_agreements)) {
            fprintf(stderr, "FAIL: PAPCOLL_ADAPT_REPORT %s: %d of %d states (%s) waiting, %ld agreements (expected all, 0)\n",
                    report ? report : "(unset)", waiting_states, waiting_lines, waiting_colls ? waiting_colls : "all",
                    waiting_agreements);
            ok = 0;
        }
        if (explored_colls && !all_seen(explored_colls, explored_seen)) {
            fprintf(stderr, "FAIL: PAPCOLL_ADAPT_REPORT %s: not every one of %s has a state that explored\n",
                    report ? report : "(unset)", explored_colls);
            ok = 0;
        }
        if (first_wrong || (expect_first && !waiting)) ok = 0;
        if (late_site && most_sites < 3) {
            fprintf(stderr, "FAIL: PAPCOLL_ADAPT_REPORT %s: at most %d agreed sites per group, expected the late third\n",
                    report ? report : "(unset)", most_sites);
            ok = 0;
        }
        if (period_above > 0 && longest <= period_above) {
            fprintf(stderr, "FAIL: PAPCOLL_ADAPT_REPORT %s: longest agreement period %ld calls, expected above %ld\n",
                    report ? report : "(unset)", longest, period_above);
            ok = 0;
        }
        if (!ok) {
            fprintf(stderr, "FAIL: PAPCOLL_ADAPT_REPORT %s: %d lines, %d keyed by site, %d without (expected %s)\n",
                    report ? report : "(unset)", lines, site, any, expect);
            all = 1;
        }
    }
    return all != 0;
}
