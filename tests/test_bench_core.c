/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_bench_core - papcoll-bench's metrics, arrival patterns, collective
 * names and block layouts, without MPI, against hand-computed values
 * (including Patarasuk & Yuan 2008's Lemma 2 bound, the allgather's wait for the last
 * arrival, and the bounds of gather, scatter, alltoall and reduce_scatter).
 */
#include "blocks.h"
#include "check.h"
#include "metrics.h"
#include "pattern.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int near(double a, double b) { return fabs(a - b) <= 1e-12 * (1 + fabs(b)); }

int main(void)
{
    /* 4 processes, root 1: arrivals 0, 2, 1, 5; exits 6, 7, 4, 9 (T = 2) */
    double a[4] = {0, 2, 1, 5}, f[4] = {6, 7, 4, 9};
    rep_metrics_t m;
    metrics_of_rep(a, f, 4, 1, 2.0, &m);
    /* e = 6, 5, 3, 4 -> e_bar 4.5, g 6; mean a = 2, |a - 2| = 2,0,1,3 -> delta_bar 1.5; omega 5;
     * after_last = 9 - 5 = 4; Delta = 5 - 2 = 3; ranks 0 and 2 wait 2 and 1 for the root: W = 3;
     * bound = (W + Delta + 3*2)/4 = 3, ratio = 1.5 */
    CHECK(near(m.e_bar, 4.5) && near(m.g, 6) && near(m.delta_bar, 1.5) && near(m.omega, 5), "basic metrics");
    CHECK(near(m.after_last, 4) && near(m.bound, 3) && near(m.ratio, 1.5), "bound %g ratio %g", m.bound, m.ratio);
    /* balanced: bound = (n-1) T / n */
    double a2[3] = {1, 1, 1}, f2[3] = {2, 3, 4};
    metrics_of_rep(a2, f2, 3, 0, 3.0, &m);
    CHECK(near(m.bound, 2.0) && near(m.delta_bar, 0) && near(m.omega, 0) && near(m.e_bar, 2.0), "balanced bound");

    /* allgather, same call: b_i = max(0, max_{j!=i} a_j + T - a_i) = 7, 5, 6 and, for the last (rank 3),
     * max(0, 2 + 2 - 5) = 0: bound 18 / 4 = 4.5 = e_bar; no root: e_root and root_bound NaN */
    for (int c = BENCH_ALLGATHER; c <= BENCH_ALLGATHERV; c++) {
        metrics_of_call((bench_coll_t)c, a, f, 4, 1, 2.0, &m);
        CHECK(near(m.bound, 4.5) && near(m.ratio, 1) && near(m.after_last, 4) && near(m.e_bar, 4.5),
              "%s bound %g ratio %g", bench_coll_name((bench_coll_t)c), m.bound, m.ratio);
        CHECK(isnan(m.e_root) && isnan(m.root_bound), "%s has no root", bench_coll_name((bench_coll_t)c));
    }
    /* gather(v) like reduce: root_bound = b_root = max(0, 5 + 2 - 2) = 5, bound 5 / 4; scatter(v) like bcast (3);
     * alltoall(v), reduce_scatter(_block) like allgather (4.5); e_root for the rooted ones only */
    const bench_coll_t fan_in[] = {BENCH_REDUCE, BENCH_GATHER, BENCH_GATHERV},
                       fan_out[] = {BENCH_BCAST, BENCH_SCATTER, BENCH_SCATTERV},
                       all_to_all[] = {BENCH_ALLREDUCE, BENCH_ALLTOALL, BENCH_ALLTOALLV, BENCH_ALLTOALLW, BENCH_REDUCE_SCATTER,
                                       BENCH_REDUCE_SCATTER_BLOCK};
    for (int i = 0; i < 3; i++) {
        metrics_of_call(fan_in[i], a, f, 4, 1, 2.0, &m);
        CHECK(near(m.root_bound, 5) && near(m.bound, 1.25) && near(m.e_root, 5), "%s: root_bound %g bound %g",
              bench_coll_name(fan_in[i]), m.root_bound, m.bound);
        metrics_of_call(fan_out[i], a, f, 4, 1, 2.0, &m);
        CHECK(near(m.bound, 3) && isnan(m.root_bound) && near(m.e_root, 5), "%s: bound %g",
              bench_coll_name(fan_out[i]), m.bound);
    }
    for (int i = 0; i < (int)(sizeof all_to_all / sizeof all_to_all[0]); i++) {
        metrics_of_call(all_to_all[i], a, f, 4, 1, 2.0, &m);
        CHECK(near(m.bound, 4.5) && isnan(m.root_bound) && isnan(m.e_root), "%s: bound %g",
              bench_coll_name(all_to_all[i]), m.bound);
    }
    metrics_of_call(BENCH_GATHER, a, f, 1, 0, 2.0, &m);
    CHECK(m.root_bound == 0 && m.bound == 0, "one process: bounds 0");

    bench_coll_t parsed;
    CHECK(bench_coll_parse("allgatherv", &parsed) == 0 && parsed == BENCH_ALLGATHERV &&
          !strcmp(bench_coll_catalogue(parsed), "allgather") && bench_coll_parse("allgatherw", &parsed) == -1,
          "allgatherv runs allgather's algorithms");
    const char *forms[][2] = {{"reduce_scatter", "reduce_scatter"}, {"reduce_scatter_block", "reduce_scatter"},
                              {"alltoallv", "alltoall"}, {"gatherv", "gather"}, {"scatterv", "scatter"}, {"scatter", "scatter"},
                              {"barrier", "barrier"}, {"scan", "scan"}, {"exscan", "scan"}};
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++)
        CHECK(bench_coll_parse(forms[i][0], &parsed) == 0 && !strcmp(bench_coll_name(parsed), forms[i][0]) &&
              !strcmp(bench_coll_catalogue(parsed), forms[i][1]), "--coll=%s", forms[i][0]);
    CHECK(bench_coll_parse("reduce_scatterv", &parsed) == -1 && bench_coll_parse("", &parsed) == -1, "unknown --coll");
    CHECK(bench_coll_vform(BENCH_REDUCE_SCATTER) && !bench_coll_vform(BENCH_REDUCE_SCATTER_BLOCK) &&
          bench_coll_rooted(BENCH_SCATTERV) && !bench_coll_rooted(BENCH_ALLTOALL), "collective classes");
    CHECK(!bench_coll_rooted(BENCH_BARRIER) && !bench_coll_vform(BENCH_BARRIER) && !bench_coll_gathers(BENCH_BARRIER) &&
              !bench_coll_reduces(BENCH_BARRIER) && !bench_coll_fan_in(BENCH_BARRIER) && !bench_coll_fan_out(BENCH_BARRIER),
          "barrier: no root, no data, everyone waits for everyone (the all-to-all bound)");
    /* scan: rank i waits for ranks below it only: arrivals 0, 3, 1 with T = 2 give (0 + 0 + 4) / 3 */
    const double sa[3] = {0, 3, 1}, sf[3] = {1, 5, 6};
    metrics_of_call(BENCH_EXSCAN, sa, sf, 3, 0, 2.0, &m);
    CHECK(bench_coll_prefix(BENCH_SCAN) && bench_coll_reduces(BENCH_EXSCAN) && !bench_coll_rooted(BENCH_SCAN) &&
              near(m.bound, 4.0 / 3) && isnan(m.root_bound), "scan: the prefix bound %g", m.bound);

    /* allgather: 2 ints each, rank order; allgatherv (8 B, ints): 4, 8, 12, 4 bytes = 1, 2, 3, 1 elements,
     * reverse rank order: rank 3 at 0, rank 2 at 1, rank 1 at 4, rank 0 at 6 */
    int counts[4], displs[4];
    CHECK(blocks_layout(0, 8, 4, 4, counts, displs) == 8 && counts[0] == 2 && counts[3] == 2 && displs[1] == 2 &&
          displs[3] == 6, "allgather layout");
    CHECK(blocks_layout(1, 8, 4, 4, counts, displs) == 7 && counts[0] == 1 && counts[1] == 2 && counts[2] == 3 &&
          counts[3] == 1 && displs[3] == 0 && displs[2] == 1 && displs[1] == 4 && displs[0] == 6, "allgatherv layout");
    /* 3 B: only rank 2 (floor(9 / 2) = 4 B) holds an int; 1 B: nobody */
    CHECK(blocks_layout(1, 3, 4, 4, counts, displs) == 1 && counts[2] == 1 && blocks_layout(1, 1, 4, 4, counts, displs) == 0,
          "below one element");
    CHECK(blocks_layout(0, (size_t)1 << 30, 1, 4, counts, displs) == -1, "counts beyond INT_MAX accepted");
    /* reduce_scatter (8 B, ints): 1, 2, 3, 1 elements in rank order */
    CHECK(blocks_rank_layout(1, 8, 4, 4, counts, displs) == 7 && counts[2] == 3 && displs[0] == 0 && displs[1] == 1 &&
          displs[2] == 3 && displs[3] == 6, "reduce_scatter layout");
    /* alltoallv (8 B, ints, p = 3): s sends d blocks_count(1, 8, 4, (s + 2 d) mod 3) = 1, 2, 3 elements for 0, 1, 2;
     * rank 1 sends 0, 1, 2: 2, 1, 3 elements, placed 2 first: displs 4, 3, 0; receives from 0, 1, 2: 3, 1, 2 */
    CHECK(blocks_pair_layout(1, 8, 4, 3, 1, 1, counts, displs) == 6 && counts[0] == 2 && counts[1] == 1 &&
          counts[2] == 3 && displs[2] == 0 && displs[1] == 3 && displs[0] == 4, "alltoallv send layout");
    CHECK(blocks_pair_layout(1, 8, 4, 3, 1, 0, counts, displs) == 6 && counts[0] == 3 && counts[1] == 1 &&
          counts[2] == 2 && displs[2] == 0 && displs[1] == 2 && displs[0] == 3, "alltoallv receive layout");
    CHECK(blocks_pair_layout(0, 8, 4, 3, 1, 0, counts, displs) == 6 && counts[2] == 2 && displs[2] == 4, "alltoall layout");
    { /* what s sends d is what d receives from s */
        int sc[5], sd[5], rc[5], rd[5], agree = 1;
        for (int s = 0; s < 5; s++)
            for (int d = 0; d < 5; d++) {
                blocks_pair_layout(1, 100, 1, 5, s, 1, sc, sd);
                blocks_pair_layout(1, 100, 1, 5, d, 0, rc, rd);
                agree &= sc[d] == rc[s];
            }
        CHECK(agree, "alltoallv send and receive counts agree");
    }
    CHECK(blocks_pair_seed(0, 1, 0) != blocks_pair_seed(1, 0, 0) && blocks_pair_seed(2, 3, 1) != blocks_pair_seed(2, 3, 2) &&
          blocks_pair_seed(2, 3, 1) != blocks_pair_seed(2, 4, 1), "pair seeds depend on sender, receiver, repetition");
    /* values in [1, vmax], a function of (rank, element, repetition): different inputs, different values */
    int same = 0;
    for (int r = 0; r < 8; r++)
        for (size_t k = 0; k < 64; k++) {
            long x = blocks_value(r, k, 3, 255);
            CHECK(x >= 1 && x <= 255 && x == blocks_value(r, k, 3, 255), "value %ld", x);
            same += x == blocks_value(r + 1, k, 3, 255) || x == blocks_value(r, k + 1, 3, 255) ||
                    x == blocks_value(r, k, 4, 255) || x == blocks_value(r, k, -3, 255);
        }
    CHECK(same < 20, "values of neighbouring blocks, elements or repetitions coincide %d times in 512", same);

    double v[5] = {5, 1, 4, 2, 3};
    CHECK(near(percentile(v, 5, 0.5), 3) && near(percentile(v, 5, 0.25), 2) && near(percentile(v, 5, 1), 5), "percentiles");
    rep_metrics_t reps[3] = {{.e_bar = 3, .ratio = 1, .after_last = 3},
                             {.e_bar = 1, .ratio = 3, .after_last = 1},
                             {.e_bar = 2, .ratio = 2, .after_last = 2}};
    double e_samples[100];
    for (int i = 0; i < 100; i++) e_samples[i] = 100 - i; /* 100 .. 1 */
    summary_t s;
    metrics_summarize(reps, 3, e_samples, 100, &s);
    CHECK(s.reps == 3 && near(s.e_bar, 2) && near(s.ratio, 2) && near(s.e_bar_lo, 1.05) && near(s.e_bar_hi, 2.95),
          "summary %g %g %g", s.e_bar, s.e_bar_lo, s.e_bar_hi);
    CHECK(near(s.e_p50, 50.5) && near(s.e_p90, 90.1) && near(s.e_p99, 99.01), "e_i percentiles %g %g %g", s.e_p50,
          s.e_p90, s.e_p99);
    CHECK(near(s.after_p50, 2) && near(s.after_p90, 2.8) && near(s.after_p99, 2.98), "after percentiles %g %g %g",
          s.after_p50, s.after_p90, s.after_p99);
    metrics_summarize(reps, 3, NULL, 0, &s);
    CHECK(isnan(s.e_p50) && isnan(s.e_p99), "no samples: NaN percentiles");

    pattern_t p;
    char err[256];
    int secs;
    CHECK(pattern_parse("first-child-late:7", &p, err, sizeof err) == 0, "parse fcl");
    /* n = 8, root 3: relative ranks 1, 2, 4 are ranks 4, 5, 7 */
    for (int r = 0; r < 8; r++) {
        double d = pattern_delay(&p, r, 8, 3, 0, 1, &secs);
        CHECK(d == ((r == 4 || r == 5 || r == 7) ? 7 : 0) && !secs, "first-child-late rank %d: %g", r, d);
    }
    CHECK(pattern_parse("root-late:2.5", &p, err, sizeof err) == 0 && pattern_delay(&p, 3, 8, 3, 0, 1, &secs) == 2.5 &&
              pattern_delay(&p, 0, 8, 3, 0, 1, &secs) == 0, "root-late");
    CHECK(pattern_parse("uniform:16", &p, err, sizeof err) == 0, "parse uniform");
    double lo = 1e9, hi = -1, sum = 0;
    for (int rep = 0; rep < 200; rep++)
        for (int r = 0; r < 50; r++) {
            double d = pattern_delay(&p, r, 50, 0, rep, 42, &secs);
            lo = d < lo ? d : lo, hi = d > hi ? d : hi, sum += d;
            CHECK(d == pattern_delay(&p, r, 50, 0, rep, 42, &secs), "deterministic");
        }
    CHECK(lo >= 0 && hi < 16 && hi > 15 && fabs(sum / 10000 - 8) < 0.3, "uniform range %g..%g mean %g", lo, hi, sum / 10000);
    CHECK(pattern_parse("late:0.2:64", &p, err, sizeof err) == 0, "parse late");
    int late = 0;
    for (int rep = 0; rep < 100; rep++)
        for (int r = 0; r < 100; r++) {
            double d = pattern_delay(&p, r, 100, 5, rep, 7, &secs);
            CHECK(d == 0 || d == 64, "late value");
            CHECK(!(r == 5 && d != 0), "root never late");
            late += d == 64;
        }
    CHECK(fabs(late / 9900.0 - 0.2) < 0.02, "late fraction %g", late / 9900.0);
    /* persistent: the same ranks late in every repetition, about FRACTION of them, never the root */
    CHECK(pattern_parse("persistent:0.2:16", &p, err, sizeof err) == 0, "parse persistent");
    late = 0;
    for (int r = 0; r < 1000; r++) {
        double d0 = pattern_delay(&p, r, 1000, 5, 0, 7, &secs);
        CHECK(d0 == 0 || d0 == 16, "persistent value");
        CHECK(!(r == 5 && d0 != 0), "persistent: root never late");
        for (int rep = -2; rep < 30; rep++)
            CHECK(pattern_delay(&p, r, 1000, 5, rep, 7, &secs) == d0, "persistent rank %d", r);
        late += d0 == 16;
    }
    CHECK(fabs(late / 999.0 - 0.2) < 0.04, "persistent fraction %g", late / 999.0);
    CHECK(pattern_parse("balanced", &p, err, sizeof err) == 0 && pattern_delay(&p, 1, 4, 0, 3, 1, &secs) == 0, "balanced");
    CHECK(pattern_parse("microbench:4000", &p, err, sizeof err) == 0 && p.xtime == 4000, "microbench");
    CHECK(pattern_parse("straggler:5:10", &p, err, sizeof err) == 0, "parse straggler");
    for (int r = 0; r < 8; r++) /* exactly rank 5, root or not, in every repetition */
        CHECK(pattern_delay(&p, r, 8, 5, r, 1, &secs) == (r == 5 ? 10 : 0) && !secs, "straggler rank %d", r);
    CHECK(pattern_parse("straggler:9:3", &p, err, sizeof err) == 0 && pattern_delay(&p, 3, 4, 0, 0, 1, &secs) == 3 &&
              pattern_delay(&p, 2, 4, 0, 0, 1, &secs) == 0, "straggler rank beyond n: the last");
    const char *bad[] = {"uniform", "uniform:-1", "late:2:3", "late:0.5", "persistent:0.5", "wobbly:3", "microbench:1.5",
                         "trace:/nonexistent", "straggler:3", "straggler:-1:4", "straggler:1.5:4"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK(pattern_parse(bad[i], &p, err, sizeof err) == -1 && err[0], "bad pattern %s accepted", bad[i]);

    /* trace replay: lines are calls, columns ranks; repetitions and ranks wrap */
    const char *path = "test_bench_core_trace.txt";
    FILE *t = fopen(path, "w");
    fprintf(t, "# offsets in seconds\n0 0.5 1e-3\n\n2 0 0 # second call\n");
    fclose(t);
    CHECK(pattern_parse("trace:test_bench_core_trace.txt", &p, err, sizeof err) == 0 && p.trace_rows == 2 && p.trace_cols == 3,
          "trace parse: %s", err);
    CHECK(pattern_delay(&p, 1, 3, 0, 0, 1, &secs) == 0.5 && secs, "trace value");
    CHECK(pattern_delay(&p, 0, 3, 0, 3, 1, &secs) == 2, "trace repetition wraps");
    CHECK(pattern_delay(&p, 4, 6, 0, 0, 1, &secs) == 0.5, "trace rank wraps");
    pattern_free(&p);
    t = fopen(path, "w");
    fprintf(t, "0 1\n0 1 2\n");
    fclose(t);
    CHECK(pattern_parse("trace:test_bench_core_trace.txt", &p, err, sizeof err) == -1, "ragged trace rejected");
    pattern_free(&p);
    remove(path);
    printf("test_bench_core: %d failures\n", failures);
    return failures != 0;
}
