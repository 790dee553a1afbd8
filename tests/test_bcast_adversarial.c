/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_bcast_adversarial - every broadcast algorithm (the library's own list
 * plus "auto", or --algos=a,b) under adversarial process arrival, on
 * communicators whose nodes are unequal and whose node members are not
 * consecutive, back to back and on many communicators at once.  Every byte
 * is checked (plus guard bytes past the end, and the root's buffer must not
 * change), every return code, and papcoll_last_algorithm().
 *
 * Parts (--parts=patterns,stress,comms):
 *   patterns  algorithms x shapes x arrival patterns x --calls random roots
 *             (sizes rotate through --sizes).  Shapes: world, reversed
 *             (ranks in reverse order), interleaved (even world ranks first,
 *             then odd ones), shuffled (seeded permutation).  Patterns
 *             (tests/harness/arrival.h): together, root_last,
 *             all_but_root_late, leaders_last, other_first, node_late,
 *             binomial_reverse, rank_reverse, random by default;
 *             --patterns may also name node_last_very_late.
 *   stress    --stress-calls back-to-back calls on ONE communicator (the
 *             interleaved shape): random root, size (0..--stress-max, with
 *             probability --stress-big-prob up to --stress-big), datatype
 *             (byte/int/double), algorithm (one seeded sequence on all
 *             ranks) and random per-process delays 0..--stress-delay-us.
 *   comms     --comms communicators alive at once (dup, reversed split,
 *             interleaved split, halves split by parity), each used with
 *             every algorithm, calls interleaved across communicators
 *             (round j: comm i runs algorithm (i + j) mod nalgo, comms in a
 *             seeded order), then all freed; repeated --comm-cycles times so
 *             leaked per-communicator resources (shared memory) show up.
 *
 * Nodes: PAPCOLL_PPN=--ppn (virtual nodes of k consecutive MPI_COMM_WORLD
 * ranks) is set before the first call on every communicator; --ppn=0 uses
 * the real nodes (MPI_COMM_TYPE_SHARED).  The test computes node membership
 * itself (it does not ask the library) to build the arrival patterns.
 *
 * Watchdog (tests/harness/watchdog.h): every call arms alarm(--call-timeout);
 * if a call does not return in time the process prints the call in progress
 * (part, index, algorithm, root, size, pattern, shape) and aborts the job.
 * Under SMPI it fires when no rank has started or finished a call for
 * --call-timeout seconds of wall time (a simulation spinning in simulated
 * time shows up too); it is disarmed after a final barrier.
 * Return codes other than MPI_SUCCESS are fatal (later calls could
 * mismatch messages).
 *
 * Delays are usleep (under SMPI it advances simulated time).
 */
#include <papcoll.h>

#include "harness/adversarial.h"
#include "harness/arrival.h"
#include "harness/bcast_call.h"
#include "harness/lists.h"
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
    "together,root_last,all_but_root_late,leaders_last,other_first,node_late,binomial_reverse,rank_reverse,random", 3,
    2, 2000, 1000, 300 * 1024, 1300 * 1024, 200, 100, 2, 16384, 120, 0.01, 20261123ULL};
static const char *sizes_opt = "1,4099,65543,300007"; /* --sizes */

static int world_rank, world_size;
static long failures, calls_done;

/* ---- deterministic randomness (same on every rank when seeded alike) ---- */

static test_rng_t rng;
static uint64_t rnd(void) { return test_rng_next(&rng); }
static int rnd_below(int n) { return test_rng_below(&rng, n); }
static double rnd_unit(void) { return test_rng_unit(&rng); }

/* ---- shapes -------------------------------------------------------------- */

static void shape_init(harness_shape_t *s, const char *name, MPI_Comm comm)
{
    harness_shape_init(s, name, comm, opt.ppn, harness_bcast_context);
}

/* ---- one checked call ---------------------------------------------------- */

static harness_buffer_t buffer;

/* Runs and checks one broadcast; `what` describes it for messages. */
static void checked_bcast(const char *algo, const harness_shape_t *s, int root, int count, MPI_Datatype type,
                          long delay, uint64_t salt, const char *what)
{
    int tsize;
    MPI_Type_size(type, &tsize);
    size_t bytes = (size_t)count * (size_t)tsize;
    harness_watchdog_label("%s algo=%s shape=%s p=%d root=%d bytes=%zu delay=%ldus", what, algo, s->name, s->size,
                           root, bytes, delay);
    if (delay > 0) usleep((useconds_t)delay);
    harness_bcast_result_t res;
    harness_bcast_checked(algo, s->comm, s->rank, root, count, type, salt, &buffer, &res);
    calls_done++;
    const char *current = harness_watchdog_current();
    if (res.rc != MPI_SUCCESS) {
        char err[MPI_MAX_ERROR_STRING] = "";
        int len;
        MPI_Error_string(res.rc, err, &len);
        fprintf(stderr, "FAIL rank %d: %s ran=%s: rc=%d (%s); aborting (later calls could mismatch)\n", world_rank,
                current, res.ran, res.rc, err);
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
    if (!harness_bcast_ok(&res)) {
        if (failures < 10) {
            if (res.bad)
                fprintf(stderr, "FAIL rank %d: %s ran=%s: %ld bad bytes, first at %zu (got 0x%02x want 0x%02x)%s\n",
                        world_rank, current, res.ran, res.bad, res.first_bad, res.got, res.want,
                        s->rank == root ? " [root buffer changed]" : "");
            if (res.guard_bad)
                fprintf(stderr, "FAIL rank %d: %s ran=%s: %ld guard bytes past the end overwritten\n", world_rank,
                        current, res.ran, res.guard_bad);
            if (!res.name_ok)
                fprintf(stderr, "FAIL rank %d: %s: papcoll_last_algorithm()=\"%s\"\n", world_rank, current, res.ran);
        }
        failures++;
    }
}

/* ---- lists --------------------------------------------------------------- */

static char **algos;
static int nalgo;

static void select_algorithms(void)
{
    if (!opt.algos) {
        nalgo = harness_algorithms("bcast", NULL, &algos);
        return;
    }
    nalgo = harness_list_split(opt.algos, &algos);
    for (int i = 0; i < nalgo; i++)
        if (!harness_is_algorithm("bcast", algos[i])) {
            if (world_rank == 0) fprintf(stderr, "unknown algorithm \"%s\" in --algos\n", algos[i]);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
}

/* ---- the three parts ----------------------------------------------------- */

static void part_patterns(void)
{
    enum { NSHAPES = HARNESS_NPATTERN_SHAPES };
    harness_shape_t shapes[NSHAPES];
    harness_pattern_shapes_init(shapes, opt.ppn, harness_bcast_context, opt.seed);
    char **sizes;
    int nsizes = harness_list_split(sizes_opt, &sizes);
    long k = 0;
    for (int pat = 0; pat < HARNESS_NPATTERNS; pat++) {
        if (!harness_list_has(opt.patterns, harness_pattern_names[pat])) continue;
        for (int s = 0; s < NSHAPES; s++)
            for (int a = 0; a < nalgo; a++)
                for (int c = 0; c < opt.calls; c++, k++) {
                    test_rng_seed(&rng, mix(opt.seed ^ ((uint64_t)k << 16) ^ 0x9a77ULL));
                    harness_shape_t *sh = &shapes[s];
                    int root = rnd_below(sh->size);
                    int count = atoi(sizes[(k + c) % nsizes]);
                    uint64_t draw = rnd();
                    long delay = harness_delay_us(sh, pat, k, root, sh->rank, draw, opt.delay_us);
                    char what[96];
                    snprintf(what, sizeof what, "patterns call %ld pattern=%s", k, harness_pattern_names[pat]);
                    checked_bcast(algos[a], sh, root, count, MPI_BYTE, delay, draw, what);
                }
    }
    harness_list_free(sizes, nsizes);
    for (int s = 0; s < NSHAPES; s++) harness_shape_free(&shapes[s]);
}

static void part_stress(void)
{
    harness_shape_t sh;
    shape_init(&sh, "interleaved", harness_split(0, harness_interleaved_key()));
    MPI_Datatype types[3] = {MPI_BYTE, MPI_INT, MPI_DOUBLE};
    test_rng_seed(&rng, mix(opt.seed ^ 0x57e55ULL));
    for (long k = 0; k < opt.stress_calls; k++) {
        int root = rnd_below(sh.size), a = rnd_below(nalgo), t = rnd_below(3);
        double u = rnd_unit();
        long bytes;
        if (u < opt.stress_big_prob) bytes = opt.stress_max + rnd_below(opt.stress_big - opt.stress_max + 1);
        else if (u < 0.3) bytes = rnd_below(65);
        else if (u < 0.7) bytes = rnd_below(16385);
        else bytes = rnd_below(opt.stress_max + 1);
        int tsize;
        MPI_Type_size(types[t], &tsize);
        uint64_t draw = rnd();
        long delay = opt.stress_delay_us ? (long)(mix(draw ^ ((uint64_t)sh.rank << 40)) % (uint64_t)(opt.stress_delay_us + 1)) : 0;
        char what[96];
        snprintf(what, sizeof what, "stress call %ld type=%s", k, t == 0 ? "byte" : t == 1 ? "int" : "double");
        checked_bcast(algos[a], &sh, root, (int)(bytes / tsize), types[t], delay, draw, what);
    }
    harness_shape_free(&sh);
}

static void part_comms(void)
{
    int n = opt.comms;
    harness_shape_t *sh = malloc((size_t)n * sizeof *sh);
    int *order = malloc((size_t)n * sizeof *order);
    char (*names)[32] = malloc((size_t)n * sizeof *names);
    for (int cycle = 0; cycle < opt.comm_cycles; cycle++) {
        for (int i = 0; i < n; i++) {
            MPI_Comm c = harness_numbered_comm(i, names[i], sizeof names[i]);
            /* context creation is interleaved with use: the first call on
             * comm i happens in round 0 below, not here, for half of them */
            if (i % 2 == 0) shape_init(&sh[i], names[i], c);
            else {
                memset(&sh[i], 0, sizeof sh[i]);
                sh[i].comm = c;
            }
        }
        for (int i = 1; i < n; i += 2) shape_init(&sh[i], names[i], sh[i].comm);
        for (int round = 0; round < nalgo; round++) {
            test_rng_seed(&rng, mix(opt.seed ^ 0xc0ffULL ^ ((uint64_t)cycle << 48) ^ ((uint64_t)round << 32)));
            for (int i = 0; i < n; i++) order[i] = i;
            for (int i = n - 1; i > 0; i--) { /* seeded shuffle: interleave comms */
                int j = rnd_below(i + 1), t = order[i];
                order[i] = order[j], order[j] = t;
            }
            for (int o = 0; o < n; o++) {
                int i = order[o];
                int root = rnd_below(sh[i].size > 0 ? sh[i].size : 1);
                int count = rnd_below(opt.comm_max + 1);
                uint64_t draw = rnd();
                char what[96];
                snprintf(what, sizeof what, "comms cycle %d round %d", cycle, round);
                checked_bcast(algos[(i + round) % nalgo], &sh[i], root, count, MPI_BYTE, 0, draw, what);
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

static void usage(const char *prog)
{
    if (world_rank == 0)
        fprintf(stderr,
                "usage: %s [--algos=a,b] [--parts=patterns,stress,comms] [--patterns=p,q] [--ppn=K] [--seed=N]\n"
                "  [--calls=N] [--sizes=n,m] [--delay-us=D] [--stress-calls=N] [--stress-max=BYTES]\n"
                "  [--stress-big=BYTES] [--stress-big-prob=F] [--stress-delay-us=D] [--comms=N] [--comm-cycles=N]\n"
                "  [--comm-max=BYTES] [--call-timeout=S]\n",
                prog);
    MPI_Abort(MPI_COMM_WORLD, 2);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &world_size);
    const harness_opt_t own[] = {{"sizes", HARNESS_OPT_STRING, &sizes_opt}, {NULL}};
    if (harness_adversarial_parse(&opt, own, argc, argv)) usage(argv[0]);
    harness_list_require(opt.patterns, known_pattern, "unknown pattern ", "");
    harness_watchdog_init(opt.call_timeout, 0, world_rank);
    select_algorithms();
    harness_node_key_init(opt.ppn);
    if (world_rank == 0) {
        printf("test_bcast_adversarial: np=%d ppn=%d seed=%llu algorithms(%d):", world_size, opt.ppn, opt.seed, nalgo);
        for (int a = 0; a < nalgo; a++) printf(" %s", algos[a]);
        printf("\n");
        fflush(stdout);
    }
    static const harness_part_t parts[] = {{"patterns", part_patterns}, {"stress", part_stress}, {"comms", part_comms}};
    long total_failures = harness_run_parts(parts, 3, opt.parts, &failures, &calls_done, NULL);
    harness_watchdog_off(); /* every rank is past the parts' closing barrier and reductions */
    if (world_rank == 0)
        printf("test_bcast_adversarial: %s (%ld failures)\n", total_failures ? "FAILED" : "OK", total_failures);
    harness_list_free(algos, nalgo);
    harness_buffer_free(&buffer);
    MPI_Finalize();
    return total_failures != 0;
}
