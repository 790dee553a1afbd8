/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_reduce_adversarial - every reduce and allreduce algorithm (the
 * library's own lists plus "auto", or --algos=a,b) under adversarial process
 * arrival, on communicators whose nodes are unequal and whose node members
 * are not consecutive; then back-to-back mixed broadcasts and reductions on
 * one communicator, and many communicators at once.  Every call is checked
 * (tests/harness/reduce_call.h and bcast_call.h): results against the
 * reference in rank order, gaps, guard bytes, send buffers, non-roots'
 * receive buffers, return codes (MPI_ERR_OP where a forced algorithm does not
 * take the operation) and papcoll_last_algorithm().
 *
 * Parts (--parts=patterns,stress,comms):
 *   patterns  collectives x shapes x arrival patterns x algorithms x --calls
 *             calls: random root, a random case the algorithm takes, counts
 *             rotating through --counts, MPI_IN_PLACE half of the time.
 *             Shapes: world, reversed, interleaved (even world ranks first),
 *             shuffled (seeded permutation).  Patterns (--patterns, from
 *             tests/harness/arrival.h): together, all_but_root_late (the root
 *             first), root_last, node_late (one node's processes all late),
 *             node_last_very_late (the last arriver of every node 3D late),
 *             one_late (only: exactly one process late, every position in
 *             turn),
 *             leaders_last, random by default; unit delay --delay-us.
 *   stress    --stress-calls back-to-back calls on ONE communicator (the
 *             interleaved shape), one seeded sequence on all ranks: the
 *             collective (bcast, reduce, allreduce), its algorithm (any of
 *             the library's or auto), root, case (any: refused ones must
 *             return MPI_ERR_OP and leave the communicator usable), count
 *             (mostly small, up to --stress-max elements, with probability
 *             --stress-big-prob up to --stress-big), in-place, and random
 *             per-process delays 0..--stress-delay-us.
 *   comms     --comms communicators alive at once (dup, reversed split,
 *             interleaved split, halves split by parity), each used by every
 *             reduction algorithm, calls interleaved across communicators in
 *             a seeded order, then all freed; --comm-cycles times, so leaked
 *             per-communicator resources (shared memory) show up.
 *
 * Nodes: PAPCOLL_PPN=--ppn (virtual nodes of k consecutive MPI_COMM_WORLD
 * ranks) while each communicator's contexts are created; --ppn=0 uses the
 * real nodes.  The test computes node membership itself.
 *
 * Watchdog (tests/harness/watchdog.h): a call that does not return within
 * --call-timeout seconds is named and the job aborted.  Return codes other
 * than the expected ones are fatal (later calls could mismatch messages).
 */
#include <papcoll.h>

#include "harness/adversarial.h"
#include "harness/arrival.h"
#include "harness/bcast_call.h"
#include "harness/lists.h"
#include "harness/reduce_call.h"
#include "harness/reduce_cases.h"
#include "harness/shapes.h"
#include "harness/watchdog.h"
#include "test_random.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- options ------------------------------------------------------------ */

static harness_adversarial_options_t opt = {
    NULL, "patterns,stress,comms",
    "together,all_but_root_late,root_last,node_late,node_last_very_late,leaders_last,random", 3, 2, 2000, 1000, 16384,
    300000, 200, 20, 1, 4096, 120, 0.01, 20261123ULL};
static const char *colls = "reduce,allreduce", *counts_opt = "1,4099,65543"; /* --colls, --counts */
static int every_case;                                                        /* --every-case */

static const char *const collectives[3] = {"bcast", "reduce", "allreduce"};
static int world_rank, world_size;
static long failures, calls_done, refused;
static char **algos[3];
static int nalgo[3];
static test_rng_t rng;
static rc_buffers_t rbuf;
static harness_buffer_t bbuf;

/* ---- contexts and shapes ----------------------------------------------------- */

static int create_contexts(MPI_Comm comm)
{
    int in = 0, out = 0, rc = papcoll_bcast(NULL, 0, MPI_BYTE, 0, comm);
    if (rc == MPI_SUCCESS) rc = papcoll_reduce(&in, &out, 0, MPI_INT, MPI_SUM, 0, comm);
    if (rc == MPI_SUCCESS) rc = papcoll_allreduce(&in, &out, 0, MPI_INT, MPI_SUM, comm);
    return rc;
}

static void shape_init(harness_shape_t *s, const char *name, MPI_Comm comm)
{
    harness_shape_init(s, name, comm, opt.ppn, create_contexts);
}

/* ---- checked calls ------------------------------------------------------- */

static void fatal_rc(int rc, const char *ran)
{
    char err[MPI_MAX_ERROR_STRING] = "";
    int len;
    MPI_Error_string(rc, err, &len);
    fprintf(stderr, "FAIL rank %d: %s ran=%s: rc=%d (%s); aborting (later calls could mismatch)\n", world_rank,
            harness_watchdog_current(), ran, rc, err);
    MPI_Abort(MPI_COMM_WORLD, 3);
}

/* One reduction; `what` describes it for messages. */
static void checked_reduction(int k, const char *algo, const harness_shape_t *s, int root, const rc_case_t *c,
                              int count, int inplace, long delay, uint64_t salt, const char *what)
{
    harness_watchdog_label("%s %s algo=%s shape=%s p=%d root=%d case=%s count=%d%s delay=%ldus", what,
                           collectives[k], algo, s->name, s->size, root, c->name, count, inplace ? " in-place" : "",
                           delay);
    if (delay > 0) usleep((useconds_t)delay);
    rc_call_t call = {.collective = collectives[k], .algo = algo, .c = c, .count = count, .root = root,
                      .inplace = inplace, .null_recv = (int)(salt >> 63), .comm = s->comm, .rank = s->rank,
                      .size = s->size, .salt = salt};
    rc_result_t res;
    rc_call_checked(&call, &rbuf, &res);
    calls_done++;
    refused += res.refused;
    if (!res.problems) return;
    if (failures++ < 10)
        fprintf(stderr, "FAIL rank %d: %s (ran %s): %s\n", world_rank, harness_watchdog_current(), res.ran, res.first);
    if (res.rc != MPI_SUCCESS) fatal_rc(res.rc, res.ran); /* an error not expected: the ranks may now disagree */
}

static void checked_bcast(const char *algo, const harness_shape_t *s, int root, int count, MPI_Datatype type,
                          long delay, uint64_t salt, const char *what)
{
    harness_watchdog_label("%s bcast algo=%s shape=%s p=%d root=%d count=%d delay=%ldus", what, algo, s->name,
                           s->size, root, count, delay);
    if (delay > 0) usleep((useconds_t)delay);
    harness_bcast_result_t res;
    harness_bcast_checked(algo, s->comm, s->rank, root, count, type, salt, &bbuf, &res);
    calls_done++;
    if (res.rc != MPI_SUCCESS) fatal_rc(res.rc, res.ran);
    if (harness_bcast_ok(&res)) return;
    if (failures++ < 10)
        fprintf(stderr, "FAIL rank %d: %s ran=%s: %ld bad bytes (first at %zu), %ld guard bytes overwritten%s\n",
                world_rank, harness_watchdog_current(), res.ran, res.bad, res.first_bad, res.guard_bad,
                res.name_ok ? "" : ", wrong papcoll_last_algorithm()");
}

/* A random case that algorithm `algo` of collective k takes; with
 * --every-case the first it takes from case i on (i: the call's index, so
 * as many calls as cases cover them all). */
static const rc_case_t *accepted_case(int k, const char *algo, int i)
{
    for (int n = rc_case_count();; i++) {
        const rc_case_t *c = rc_case_at(every_case ? i % n : test_rng_below(&rng, n));
        if (rc_accepts(collectives[k], algo, c)) return c;
    }
}

/* ---- the three parts ------------------------------------------------------- */

static void part_patterns(void)
{
    enum { NSHAPES = HARNESS_NPATTERN_SHAPES };
    harness_shape_t shapes[NSHAPES];
    harness_pattern_shapes_init(shapes, opt.ppn, create_contexts, opt.seed);
    char **counts;
    int ncounts = harness_list_split(counts_opt, &counts);
    long n = 0;
    for (int k = 1; k < 3; k++) {
        if (!harness_list_has(colls, collectives[k])) continue;
        for (int pat = 0; pat < HARNESS_NPATTERNS; pat++) {
            if (!harness_list_has(opt.patterns, harness_pattern_names[pat])) continue;
            for (int s = 0; s < NSHAPES; s++)
                for (int a = 0; a < nalgo[k]; a++)
                    for (int c = 0; c < opt.calls; c++, n++) {
                        test_rng_seed(&rng, mix(opt.seed ^ ((uint64_t)n << 16) ^ 0x7ed0ceULL));
                        harness_shape_t *sh = &shapes[s];
                        int root = k == 1 ? test_rng_below(&rng, sh->size) : 0;
                        const rc_case_t *rc = accepted_case(k, algos[k][a], c);
                        int count = atoi(counts[n % ncounts]);
                        int inplace = test_rng_below(&rng, 2);
                        uint64_t draw = test_rng_next(&rng);
                        long delay = harness_delay_us(sh, pat, n, root, sh->rank, draw, opt.delay_us);
                        char what[96];
                        snprintf(what, sizeof what, "patterns call %ld pattern=%s", n, harness_pattern_names[pat]);
                        checked_reduction(k, algos[k][a], sh, root, rc, count, inplace, delay, draw, what);
                    }
        }
    }
    harness_list_free(counts, ncounts);
    for (int s = 0; s < NSHAPES; s++) harness_shape_free(&shapes[s]);
}

static void part_stress(void)
{
    harness_shape_t sh;
    shape_init(&sh, "interleaved", harness_split(0, harness_interleaved_key()));
    MPI_Datatype btypes[3] = {MPI_BYTE, MPI_INT, MPI_DOUBLE};
    int ks[3], nk = 0;
    for (int k = 0; k < 3; k++)
        if (k == 0 || harness_list_has(colls, collectives[k])) ks[nk++] = k;
    test_rng_seed(&rng, mix(opt.seed ^ 0x57e55edULL));
    for (long i = 0; i < opt.stress_calls; i++) {
        int k = ks[test_rng_below(&rng, nk)];
        const char *algo = algos[k][test_rng_below(&rng, nalgo[k])];
        int root = test_rng_below(&rng, sh.size);
        double u = test_rng_unit(&rng);
        int count;
        if (u < opt.stress_big_prob) count = opt.stress_max + test_rng_below(&rng, opt.stress_big - opt.stress_max + 1);
        else if (u < 0.3) count = test_rng_below(&rng, 65);
        else if (u < 0.7) count = test_rng_below(&rng, 1025);
        else count = test_rng_below(&rng, opt.stress_max + 1);
        uint64_t draw = test_rng_next(&rng);
        long delay = opt.stress_delay_us
                         ? (long)(mix(draw ^ ((uint64_t)sh.rank << 40)) % (uint64_t)(opt.stress_delay_us + 1))
                         : 0;
        char what[64];
        snprintf(what, sizeof what, "stress call %ld", i);
        if (k == 0) {
            checked_bcast(algo, &sh, root, count, btypes[test_rng_below(&rng, 3)], delay, draw, what);
            continue;
        }
        const rc_case_t *c = rc_case_at(test_rng_below(&rng, rc_case_count()));
        checked_reduction(k, algo, &sh, root, c, count, test_rng_below(&rng, 2), delay, draw, what);
    }
    harness_shape_free(&sh);
}

static void part_comms(void)
{
    int n = opt.comms, nrounds = nalgo[1] > nalgo[2] ? nalgo[1] : nalgo[2];
    harness_shape_t *sh = malloc((size_t)n * sizeof *sh);
    int *order = malloc((size_t)n * sizeof *order);
    char (*names)[32] = malloc((size_t)n * sizeof *names);
    for (int cycle = 0; cycle < opt.comm_cycles; cycle++) {
        for (int i = 0; i < n; i++) {
            MPI_Comm c = harness_numbered_comm(i, names[i], sizeof names[i]);
            shape_init(&sh[i], names[i], c);
        }
        for (int round = 0; round < nrounds; round++) {
            test_rng_seed(&rng, mix(opt.seed ^ 0xc0ffeeULL ^ ((uint64_t)cycle << 48) ^ ((uint64_t)round << 32)));
            for (int i = 0; i < n; i++) order[i] = i;
            for (int i = n - 1; i > 0; i--) { /* seeded shuffle: interleave comms */
                int j = test_rng_below(&rng, i + 1), t = order[i];
                order[i] = order[j], order[j] = t;
            }
            for (int o = 0; o < n; o++) {
                int i = order[o], k = 1 + (i + round) % 2;
                if (!harness_list_has(colls, collectives[k])) k = 3 - k;
                if (!harness_list_has(colls, collectives[k])) continue;
                const char *algo = algos[k][(i + round) % nalgo[k]];
                int root = test_rng_below(&rng, sh[i].size);
                const rc_case_t *c = accepted_case(k, algo, 0);
                int count = test_rng_below(&rng, opt.comm_max + 1);
                uint64_t draw = test_rng_next(&rng);
                char what[64];
                snprintf(what, sizeof what, "comms cycle %d round %d", cycle, round);
                checked_reduction(k, algo, &sh[i], root, c, count, test_rng_below(&rng, 2), 0, draw, what);
            }
        }
        for (int i = 0; i < n; i++) harness_shape_free(&sh[i]);
    }
    free(sh);
    free(order);
    free(names);
}

/* ---- main ---------------------------------------------------------------- */

static int known_pattern(const char *name) { return harness_pattern_index(name) >= 0; }

static void usage(const char *prog, int code)
{
    if (world_rank == 0)
        fprintf(code ? stderr : stdout,
                "usage: %s [options]\n"
                "  --algos=a,b            reduce/allreduce algorithms (and auto) to run; \"prefix*\" for those\n"
                "                         whose name starts so, if any (default all + auto)\n"
                "  --colls=a,b            reduce,allreduce (default both; bcast always joins the stress part)\n"
                "  --parts=a,b            patterns,stress,comms (default all)\n"
                "  --patterns=a,b         arrival patterns of tests/harness/arrival.h (default %s)\n"
                "  --ppn=K                virtual nodes of K world ranks; 0: the real nodes (default 3)\n"
                "  --seed=N               seed of every random choice (default 20261123); printed\n"
                "  --calls=N              calls per (collective, pattern, shape, algorithm) (default 2)\n"
                "  --counts=a,b           element counts the patterns part rotates through (default 1,4099,65543)\n"
                "  --every-case=1         the patterns part's call c of each (pattern, shape, algorithm) takes the\n"
                "                         first case from case c on that the algorithm takes (default 0: random)\n"
                "  --delay-us=D           unit delay of the patterns (default 2000)\n"
                "  --stress-calls=N       calls of the stress part (default 1000)\n"
                "  --stress-max=N         largest count of ordinary stress calls (default 16384)\n"
                "  --stress-big=N         largest count of big stress calls (default 300000)\n"
                "  --stress-big-prob=F    probability of a big stress call (default 0.01)\n"
                "  --stress-delay-us=D    largest random delay of a stress call (default 200)\n"
                "  --comms=N              communicators alive at once in the comms part (default 20)\n"
                "  --comm-cycles=N        create/use/free cycles of the comms part (default 1)\n"
                "  --comm-max=N           largest count of the comms part (default 4096)\n"
                "  --call-timeout=S       watchdog: abort naming the call after S s without progress (default 120)\n"
                "  --help                 this text\n",
                prog, opt.patterns);
    if (code) MPI_Abort(MPI_COMM_WORLD, code);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &world_size);
    const harness_opt_t own[] = {
        {"colls", HARNESS_OPT_STRING, &colls}, {"counts", HARNESS_OPT_STRING, &counts_opt},
        {"every-case", HARNESS_OPT_INT, &every_case}, {NULL}};
    const char *unknown = harness_adversarial_parse(&opt, own, argc, argv);
    if (unknown && !strcmp(unknown, "--help")) {
        usage(argv[0], 0);
        MPI_Finalize();
        return 0;
    }
    if (unknown) usage(argv[0], 2);
    harness_list_require(opt.patterns, known_pattern, "unknown pattern ", "");
    if (opt.algos) { /* every name must be an algorithm of reduce or allreduce: a typo must not pass silently */
        char **v;
        int nv = harness_list_split(opt.algos, &v);
        for (int i = 0; i < nv; i++) {
            char **m[2];
            int n0 = harness_algorithms("reduce", v[i], &m[0]), n1 = harness_algorithms("allreduce", v[i], &m[1]);
            harness_list_free(m[0], n0);
            harness_list_free(m[1], n1);
            if (n0 + n1 == 0 && !strchr(v[i], '*')) {
                if (world_rank == 0) fprintf(stderr, "no algorithm matches \"%s\" in --algos\n", v[i]);
                MPI_Abort(MPI_COMM_WORLD, 2);
            }
        }
        harness_list_free(v, nv);
    }
    harness_watchdog_init(opt.call_timeout, 0, world_rank);
    rc_cases_init();
    nalgo[0] = harness_algorithms("bcast", NULL, &algos[0]);
    for (int k = 1; k < 3; k++) {
        nalgo[k] = harness_algorithms(collectives[k], opt.algos, &algos[k]);
        if (nalgo[k] == 0) { /* --algos named only the other collective's algorithms */
            harness_list_free(algos[k], 0);
            nalgo[k] = harness_algorithms(collectives[k], "auto", &algos[k]);
        }
    }
    harness_node_key_init(opt.ppn);
    if (world_rank == 0) {
        printf("test_reduce_adversarial: np=%d ppn=%d seed=%llu cases=%d", world_size, opt.ppn, opt.seed,
               rc_case_count());
        for (int k = 1; k < 3; k++) {
            printf(" %s(%d):", collectives[k], nalgo[k]);
            for (int a = 0; a < nalgo[k]; a++) printf(" %s", algos[k][a]);
        }
        printf("\n");
        fflush(stdout);
    }
    static const harness_part_t parts[] = {{"patterns", part_patterns}, {"stress", part_stress}, {"comms", part_comms}};
    long total_failures = harness_run_parts(parts, 3, opt.parts, &failures, &calls_done, &refused);
    harness_watchdog_off(); /* every rank is past the parts' closing barrier and reductions */
    if (world_rank == 0)
        printf("test_reduce_adversarial: %s (%ld failures)\n", total_failures ? "FAILED" : "OK", total_failures);
    for (int k = 0; k < 3; k++) harness_list_free(algos[k], nalgo[k]);
    rc_buffers_free(&rbuf);
    harness_buffer_free(&bbuf);
    rc_cases_free();
    MPI_Finalize();
    return total_failures != 0;
}
