/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_adapt_probe - adaptive selection's early probe (PAPCOLL_ADAPT_PROBE,
 * src/select/adapt_probe.c) with the default PAPCOLL_ADAPT_START: a few calls
 * of one collective at one size from one call site, every result checked,
 * each call's algorithm (papcoll_last_algorithm()) recorded on every process.
 * Checks that every process ran the same algorithm in every call, and:
 *   --expect=probe   calls 1-2 ran `native`, calls 3-4 one algorithm other
 *                    than `native` (the rule's first), calls 5.. all ran
 *                    one algorithm, either of those two (the probe's winner)
 *   --expect=switch  the same, and the winner is the rule's first
 *   --expect=keep    the same, and the winner is `native`
 *   --expect=none    every call ran `native` (PAPCOLL_ADAPT_PROBE=0: waiting
 *                    sites exactly as without the probe; a broadcast: never
 *                    probed)
 * With PAPCOLL_ADAPT_REPORT naming a file (removed first), rank 0 reads it
 * after MPI_Finalize: for probe/switch/keep its line must name the probe's
 * winner, the one calls 5.. ran; for none it must show no probe, the state
 * waiting on `native` and no agreement.  Options: --coll=bcast|alltoall,
 * --bytes=N (the broadcast's bytes, or alltoall's bytes per block; ints),
 * --calls=N (default 12).
 */
#include <mpi.h>
#include <papcoll.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

enum { MAX_CALLS = 64, NAME = 48 };

static int rank, size;

static int value(int from, int to, int call, int i) { return from * 100003 + to * 1009 + call * 31 + i % 17; }

/* One call from this single site; returns the algorithm it ran. */
__attribute__((noinline)) static void one_call(const char *coll, int call, int count, int *sbuf, int *rbuf, char *algo)
{
    if (!strcmp(coll, "bcast")) {
        int root = call % size;
        for (int i = 0; i < count; i++) sbuf[i] = rank == root ? value(root, 0, call, i) : -1;
        CHECK(papcoll_bcast(sbuf, count, MPI_INT, root, MPI_COMM_WORLD) == MPI_SUCCESS, "bcast rc");
        snprintf(algo, NAME, "%s", papcoll_last_algorithm());
        for (int i = 0; i < count; i++)
            if (sbuf[i] != value(root, 0, call, i)) {
                CHECK(0, "call %d rank %d: bcast element %d = %d (%s)", call, rank, i, sbuf[i], algo);
                break;
            }
        return;
    }
    for (int to = 0; to < size; to++)
        for (int i = 0; i < count; i++) sbuf[to * count + i] = value(rank, to, call, i);
    CHECK(papcoll_alltoall(sbuf, count, MPI_INT, rbuf, count, MPI_INT, MPI_COMM_WORLD) == MPI_SUCCESS, "alltoall rc");
    snprintf(algo, NAME, "%s", papcoll_last_algorithm());
    for (int from = 0; from < size; from++)
        for (int i = 0; i < count; i++)
            if (rbuf[from * count + i] != value(from, rank, call, i)) {
                CHECK(0, "call %d rank %d: alltoall block %d element %d = %d (%s)", call, rank, from, i,
                      rbuf[from * count + i], algo);
                from = size;
                break;
            }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *coll = "bcast", *expect = "probe";
    int calls = 12, bytes = 400;
    for (int i = 1; i < argc; i++) {
        if (!strncmp(argv[i], "--coll=", 7)) coll = argv[i] + 7;
        else if (!strncmp(argv[i], "--bytes=", 8)) bytes = atoi(argv[i] + 8);
        else if (!strncmp(argv[i], "--calls=", 8)) calls = atoi(argv[i] + 8);
        else if (!strncmp(argv[i], "--expect=", 9)) expect = argv[i] + 9;
        else {
            if (rank == 0)
                fprintf(stderr, "usage: test_adapt_probe [--coll=bcast|alltoall] [--bytes=N] [--calls=N]\n"
                                "       [--expect=probe|switch|keep|none]\n");
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    }
    if (calls < 6 || calls > MAX_CALLS || bytes < 4 || (strcmp(coll, "bcast") && strcmp(coll, "alltoall"))) {
        if (rank == 0) fprintf(stderr, "test_adapt_probe: bad --calls (6..%d), --bytes or --coll\n", MAX_CALLS);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int want_none = !strcmp(expect, "none");
    const char *report = getenv("PAPCOLL_ADAPT_REPORT");
    if (rank == 0 && report) remove(report);
    MPI_Barrier(MPI_COMM_WORLD);

    int count = bytes / 4, n = strcmp(coll, "bcast") ? count * size : count;
    int *sbuf = malloc(sizeof(int) * (size_t)n), *rbuf = malloc(sizeof(int) * (size_t)n);
    static char algo[MAX_CALLS][NAME], root_algo[MAX_CALLS][NAME];
    for (int c = 0; c < calls; c++) one_call(coll, c, count, sbuf, rbuf, algo[c]);
    free(sbuf);
    free(rbuf);

    /* the same algorithm in every call on every process */
    memcpy(root_algo, algo, sizeof algo);
    MPI_Bcast(root_algo, (int)sizeof root_algo, MPI_CHAR, 0, MPI_COMM_WORLD);
    for (int c = 0; c < calls; c++)
        CHECK(!strcmp(algo[c], root_algo[c]), "call %d: rank %d ran %s, rank 0 %s", c + 1, rank, algo[c], root_algo[c]);
    const char *winner = algo[4];
    if (want_none) {
        for (int c = 0; c < calls; c++)
            CHECK(!strcmp(algo[c], "native"), "no probe expected: call %d ran %s, not native", c + 1, algo[c]);
    } else {
        const char *first = algo[2]; /* the rule's first */
        CHECK(!strcmp(algo[0], "native") && !strcmp(algo[1], "native"), "probe calls 1-2 ran %s and %s, not native twice",
              algo[0], algo[1]);
        CHECK(strcmp(first, "native") && !strcmp(first, algo[3]),
              "probe calls 3-4 ran %s and %s: expected the rule's first (not native) twice", first, algo[3]);
        CHECK(!strcmp(winner, "native") || !strcmp(winner, first), "call 5 ran %s: neither %s nor native", winner, first);
        for (int c = 5; c < calls; c++)
            CHECK(!strcmp(algo[c], winner), "call %d ran %s, call 5 %s: the probe's winner must stay", c + 1, algo[c],
                  winner);
        if (!strcmp(expect, "switch"))
            CHECK(!strcmp(winner, first), "expected the probe to switch to %s, it kept %s", first, winner);
        if (!strcmp(expect, "keep")) CHECK(!strcmp(winner, "native"), "expected the probe to keep native, ran %s", winner);
    }
    if (rank == 0) {
        printf("test_adapt_probe: %s %d B, %d calls:", coll, bytes, calls);
        for (int c = 0; c < calls && c < 6; c++) printf(" %s", algo[c]);
        printf(" ...\n");
    }
    int all = 0;
    MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    char want[NAME];
    snprintf(want, sizeof want, "%s", winner);
    MPI_Finalize();
    if (rank == 0 && report) { /* written in MPI_Finalize */
        char line[2048];
        int lines = 0, probes = 0, waiting_native = 0, agreements = 0, winner_ok = 0;
        FILE *f = fopen(report, "r");
        while (f && fgets(line, sizeof line, f)) {
            lines++;
            const char *p = strstr(line, "; probe: ");
            probes += p != NULL;
            waiting_native += strstr(line, "waiting, running native,") != NULL;
            const char *every = strstr(line, " agreements, the last every ");
            const char *num = every;
            while (num && num > line && num[-1] != ' ') num--;
            if (num && atol(num) != 0) agreements++;
            const char *w = p ? strstr(p, ", winner ") : NULL;
            if (w) {
                w += strlen(", winner ");
                size_t len = strcspn(w, "\n");
                winner_ok += len == strlen(want) && !strncmp(w, want, len);
                printf("test_adapt_probe: report: %s", p + 2);
            }
        }
        if (f) fclose(f);
        int ok = want_none ? lines > 0 && probes == 0 && waiting_native == lines && agreements == 0
                           : lines > 0 && probes == lines && winner_ok == lines;
        if (!ok) {
            fprintf(stderr, "FAIL: PAPCOLL_ADAPT_REPORT %s: %d lines, %d with a probe (winner %s in %d), %d waiting on "
                            "native, %d with agreements (expected --expect=%s)\n",
                    report, lines, probes, want, winner_ok, waiting_native, agreements, expect);
            all = 1;
        }
    }
    return all != 0;
}
