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
 *             then odd ones), shuffled (seeded permutation).  Patterns:
 *               together            no delay (reference)
 *               root_last           the root arrives D late
 *               all_but_root_late   everyone but the root arrives ~D late
 *               leaders_last        on every node the lowest rank (the leader
 *                                   by a static rule) arrives last on its node
 *               other_first         on every node an arbitrary non-lowest
 *                                   member (changes with the call) arrives
 *                                   first, the others D/2..D later
 *               node_late           one whole node (random per call) D late
 *               binomial_reverse    node leaders arrive in reverse order of a
 *                                   binomial tree over nodes rooted at the
 *                                   root's node (deepest first, root's node
 *                                   last); other members D/4 before their leader
 *               rank_reverse        relative rank r arrives at (p-1-r) D / p:
 *                                   the end of a chain first, the root last
 *               random              uniform 0..D per process
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
 * Watchdog: every call arms alarm(--call-timeout); if a call does not
 * return in time the process prints the call in progress (part, index,
 * algorithm, root, size, pattern, shape) and aborts the job.  Under SMPI
 * every rank lives in one process and shares one alarm, so a rank leaving
 * its call must not disarm it (a peer may still be stuck): each call start
 * and end re-arms it, and it fires when no rank has started or finished a
 * call for --call-timeout seconds of wall time (a simulation spinning in
 * simulated time shows up too); it is disarmed after a final barrier.
 * Return codes other than MPI_SUCCESS are fatal (later calls could
 * mismatch messages).
 *
 * Delays are usleep (under SMPI it advances simulated time).
 */
#include <papcoll.h>

#include "test_random.h"

#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- options ------------------------------------------------------------ */

static struct {
    const char *algos, *parts, *patterns, *sizes;
    int ppn, calls, delay_us, stress_calls, stress_max, stress_big, stress_delay_us, comms, comm_cycles, comm_max,
        call_timeout;
    double stress_big_prob;
    unsigned long long seed;
} opt = {NULL, "patterns,stress,comms", NULL, "1,4099,65543,300007", 3, 2, 2000, 1000, 300 * 1024, 1300 * 1024, 200,
         100, 2, 16384, 120, 0.01, 20261123ULL};

static int world_rank, world_size;
static long failures, calls_done;

/* ---- deterministic randomness (same on every rank when seeded alike) ---- */

static uint64_t rng_state;
static uint64_t rnd(void) { return mix(rng_state++ * 0x2545F4914F6CDD1DULL); }
static int rnd_below(int n) { return n > 0 ? (int)(rnd() % (uint64_t)n) : 0; }
static double rnd_unit(void) { return (double)(rnd() >> 11) / 9007199254740992.0; }

/* ---- watchdog ----------------------------------------------------------- */

static char current[400] = "(before the first call)";

static void label(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(current, sizeof current, fmt, ap);
    va_end(ap);
}

static void on_alarm(int sig)
{
    (void)sig;
    char msg[600];
#ifdef PAPCOLL_SMPI
    int n = snprintf(msg, sizeof msg,
                     "WATCHDOG: no call started or finished for %d s (wall); rank %d (running in the simulation) is"
                     " in: %s\n", opt.call_timeout, world_rank, current);
#else
    int n = snprintf(msg, sizeof msg, "WATCHDOG rank %d: call not finished after %d s: %s\n", world_rank,
                     opt.call_timeout, current);
#endif
    if (n > 0) (void)!write(2, msg, (size_t)(n < (int)sizeof msg ? n : (int)sizeof msg - 1));
#ifdef PAPCOLL_SMPI
    _exit(124); /* every rank lives in this process: nothing else to stop */
#else
    MPI_Abort(MPI_COMM_WORLD, 124);
    _exit(124);
#endif
}

static void watchdog_arm(void) { alarm((unsigned)opt.call_timeout); }
static void watchdog_call_done(void)
{
#ifdef PAPCOLL_SMPI
    watchdog_arm(); /* shared by all ranks: see the file comment */
#else
    alarm(0);
#endif
}

/* ---- node layout as the test sees it ------------------------------------ */

typedef struct {
    const char *name;
    MPI_Comm comm;
    int rank, size, nnodes;
    int *node_of;   /* [size] node of each rank; nodes numbered by lowest member */
    int *node_idx;  /* [size] position of each rank among its node's members (0 = lowest rank) */
    int *node_n;    /* [nnodes] members per node */
    int *members;   /* [nnodes][max] ranks of each node, increasing */
    int max_n;
} shape_t;

static int my_node_key; /* same for processes of one (virtual) node */

static void compute_node_key(void)
{
    if (opt.ppn > 0) {
        my_node_key = world_rank / opt.ppn;
        return;
    }
    MPI_Comm shared;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, world_rank, MPI_INFO_NULL, &shared);
    MPI_Allreduce(&world_rank, &my_node_key, 1, MPI_INT, MPI_MIN, shared);
    MPI_Comm_free(&shared);
}

/* Sets PAPCOLL_PPN, builds the library's context (count-0 call) and the
 * test's own node maps. */
static void shape_init(shape_t *s, const char *name, MPI_Comm comm)
{
    char v[16];
    memset(s, 0, sizeof *s);
    s->name = name;
    s->comm = comm;
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    MPI_Comm_rank(comm, &s->rank);
    MPI_Comm_size(comm, &s->size);
    snprintf(v, sizeof v, "%d", opt.ppn);
    papcoll_set_param("PAPCOLL_PPN", v);
    label("context creation (count 0) on %s", name);
    watchdog_arm();
    int rc = papcoll_bcast(NULL, 0, MPI_BYTE, 0, comm);
    watchdog_call_done();
    papcoll_set_param("PAPCOLL_PPN", "0");
    if (rc != MPI_SUCCESS) {
        fprintf(stderr, "FAIL rank %d: context creation on %s: rc=%d\n", world_rank, name, rc);
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
    int *key = malloc((size_t)s->size * sizeof(int));
    MPI_Allgather(&my_node_key, 1, MPI_INT, key, 1, MPI_INT, comm);
    s->node_of = malloc((size_t)s->size * sizeof(int));
    s->node_idx = malloc((size_t)s->size * sizeof(int));
    s->node_n = calloc((size_t)s->size, sizeof(int));
    s->members = malloc((size_t)s->size * (size_t)s->size * sizeof(int));
    for (int r = 0; r < s->size; r++) {
        int q = 0;
        while (key[q] != key[r]) q++; /* lowest rank with my key */
        if (q == r) s->node_of[r] = s->nnodes++;
        else s->node_of[r] = s->node_of[q];
        int n = s->node_of[r];
        s->node_idx[r] = s->node_n[n];
        s->members[n * s->size + s->node_n[n]++] = r;
        if (s->node_n[n] > s->max_n) s->max_n = s->node_n[n];
    }
    free(key);
}

static void shape_free(shape_t *s)
{
    free(s->node_of);
    free(s->node_idx);
    free(s->node_n);
    free(s->members);
    MPI_Comm_free(&s->comm);
}

static MPI_Comm split_by_key(int color, int key)
{
    MPI_Comm c;
    MPI_Comm_split(MPI_COMM_WORLD, color, key, &c);
    return c;
}
static int interleaved_key(void) { return (world_rank % 2) * world_size + world_rank; }
static int shuffled_key(void)
{
    /* seeded permutation: sort by a hash of the world rank (ties by rank) */
    return (int)(mix(opt.seed ^ 0x5eedULL ^ (uint64_t)world_rank) % 1000000007ULL);
}

/* ---- arrival patterns ---------------------------------------------------- */

enum { P_TOGETHER, P_ROOT_LAST, P_ALL_BUT_ROOT, P_LEADERS_LAST, P_OTHER_FIRST, P_NODE_LATE, P_BINOMIAL_REVERSE,
       P_RANK_REVERSE, P_RANDOM, NPATTERNS };
static const char *pattern_names[NPATTERNS] = {"together",  "root_last",        "all_but_root_late",
                                               "leaders_last", "other_first",   "node_late",
                                               "binomial_reverse", "rank_reverse", "random"};

static int popcount(unsigned v) { return __builtin_popcount(v); }

/* Delay in microseconds of comm rank `r` in call `k` (draw: a per-call random
 * number, the same on every rank). */
static long delay_of(const shape_t *s, int pattern, long k, int root, int r, uint64_t draw)
{
    long D = opt.delay_us;
    int p = s->size, node = s->node_of[r], n = s->node_n[node], j = s->node_idx[r];
    switch (pattern) {
    case P_ROOT_LAST: return r == root ? D : 0;
    case P_ALL_BUT_ROOT: return r == root ? 0 : D + (long)(mix(draw ^ (uint64_t)r) % (uint64_t)(D / 4 + 1));
    case P_LEADERS_LAST: return j == 0 ? D : (long)(n - j) * D / (2 * n);
    case P_OTHER_FIRST: {
        if (n < 2) return 0;
        int first = 1 + (int)((k + node) % (n - 1));
        return j == first ? 0 : D / 2 + (long)j * D / (2 * n);
    }
    case P_NODE_LATE: return node == (int)(draw % (uint64_t)s->nnodes) ? D : 0;
    case P_BINOMIAL_REVERSE: {
        /* order the nodes by (depth desc, relative index desc) in a binomial
         * tree over nodes rooted at the root's node; position q arrives at q*D/2 */
        int N = s->nnodes, v = (node - s->node_of[root] + N) % N, q = 0;
        for (int u = 0; u < N; u++) {
            int du = popcount((unsigned)u), dv = popcount((unsigned)v);
            if (du > dv || (du == dv && u > v)) q++;
        }
        long t = (long)q * D / 2;
        return j == 0 ? t + D / 4 : t;
    }
    case P_RANK_REVERSE: return (long)(p - 1 - (r - root + p) % p) * D / p;
    case P_RANDOM: return (long)(mix(draw ^ ((uint64_t)r << 32)) % (uint64_t)(D + 1));
    default: return 0;
    }
}

/* ---- one checked call ---------------------------------------------------- */

enum { GUARD = 64 };
static unsigned char *buf;
static size_t buf_cap;

static unsigned char fill(size_t i, uint64_t salt) { return (unsigned char)(i + (i >> 8) * 7 + (i >> 16) * 13 + salt); }

static void ensure_buf(size_t bytes)
{
    if (bytes + GUARD <= buf_cap) return;
    free(buf);
    buf_cap = bytes + GUARD;
    buf = malloc(buf_cap);
    if (!buf) {
        fprintf(stderr, "rank %d: out of memory (%zu bytes)\n", world_rank, buf_cap);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
}

/* Runs and checks one broadcast; `what` describes it for messages. */
static void checked_bcast(const char *algo, const shape_t *s, int root, int count, MPI_Datatype type, long delay,
                          uint64_t salt, const char *what)
{
    int tsize;
    MPI_Type_size(type, &tsize);
    size_t bytes = (size_t)count * (size_t)tsize;
    int is_root = s->rank == root;
    ensure_buf(bytes);
    for (size_t i = 0; i < bytes; i++) buf[i] = is_root ? fill(i, salt) : (unsigned char)~fill(i, salt);
    memset(buf + bytes, 0xA5, GUARD);
    label("%s algo=%s shape=%s p=%d root=%d bytes=%zu delay=%ldus", what, algo, s->name, s->size, root, bytes,
          delay);
    if (delay > 0) usleep((useconds_t)delay);
    watchdog_arm();
    int rc = papcoll_bcast_by_name(algo, buf, count, type, root, s->comm);
    watchdog_call_done();
    calls_done++;
    const char *ran = papcoll_last_algorithm();
    if (rc != MPI_SUCCESS) {
        char err[MPI_MAX_ERROR_STRING] = "";
        int len;
        MPI_Error_string(rc, err, &len);
        fprintf(stderr, "FAIL rank %d: %s ran=%s: rc=%d (%s); aborting (later calls could mismatch)\n", world_rank,
                current, ran, rc, err);
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
    long bad = 0, guard_bad = 0;
    size_t first_bad = 0;
    for (size_t i = 0; i < bytes; i++)
        if (buf[i] != fill(i, salt) && !bad++) first_bad = i;
    for (size_t i = 0; i < GUARD; i++) guard_bad += buf[bytes + i] != 0xA5;
    int name_ok = strcmp(algo, "auto") ? !strcmp(ran, algo) : (*ran && strcmp(ran, "auto"));
    if (bad || guard_bad || !name_ok) {
        if (failures < 10) {
            if (bad)
                fprintf(stderr, "FAIL rank %d: %s ran=%s: %ld bad bytes, first at %zu (got 0x%02x want 0x%02x)%s\n",
                        world_rank, current, ran, bad, first_bad, buf[first_bad], fill(first_bad, salt),
                        is_root ? " [root buffer changed]" : "");
            if (guard_bad)
                fprintf(stderr, "FAIL rank %d: %s ran=%s: %ld guard bytes past the end overwritten\n", world_rank,
                        current, ran, guard_bad);
            if (!name_ok)
                fprintf(stderr, "FAIL rank %d: %s: papcoll_last_algorithm()=\"%s\"\n", world_rank, current, ran);
        }
        failures++;
    }
}

/* ---- lists --------------------------------------------------------------- */

static int split_list(const char *list, char ***out)
{
    int n = 0;
    char *copy = strdup(list), *save = NULL;
    char **v = malloc((strlen(list) + 2) * sizeof *v);
    for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) v[n++] = strdup(t);
    free(copy);
    *out = v;
    return n;
}
static int in_list(const char *list, const char *word)
{
    char **v;
    int n = split_list(list, &v), found = 0;
    for (int i = 0; i < n; i++) {
        found |= !strcmp(v[i], word);
        free(v[i]);
    }
    free(v);
    return found;
}

static char **algos;
static int nalgo;

static void select_algorithms(void)
{
    int n = papcoll_algorithm_count("bcast");
    if (opt.algos) {
        nalgo = split_list(opt.algos, &algos);
        for (int i = 0; i < nalgo; i++) {
            int known = !strcmp(algos[i], "auto");
            for (int a = 0; a < n; a++) known |= !strcmp(algos[i], papcoll_algorithm_name("bcast", a));
            if (!known) {
                if (world_rank == 0) fprintf(stderr, "unknown algorithm \"%s\" in --algos\n", algos[i]);
                MPI_Abort(MPI_COMM_WORLD, 2);
            }
        }
        return;
    }
    algos = malloc((size_t)(n + 1) * sizeof *algos);
    for (int a = 0; a < n; a++) algos[nalgo++] = strdup(papcoll_algorithm_name("bcast", a));
    algos[nalgo++] = strdup("auto");
}

/* ---- the three parts ----------------------------------------------------- */

static void part_patterns(void)
{
    enum { NSHAPES = 4 };
    shape_t shapes[NSHAPES];
    shape_init(&shapes[0], "world", split_by_key(0, world_rank));
    shape_init(&shapes[1], "reversed", split_by_key(0, world_size - world_rank));
    shape_init(&shapes[2], "interleaved", split_by_key(0, interleaved_key()));
    shape_init(&shapes[3], "shuffled", split_by_key(0, shuffled_key()));
    if (world_rank == 0)
        for (int s = 0; s < NSHAPES; s++) {
            printf("  shape %-11s nodes:", shapes[s].name);
            for (int n = 0; n < shapes[s].nnodes; n++) {
                printf(" {");
                for (int i = 0; i < shapes[s].node_n[n]; i++)
                    printf("%s%d", i ? "," : "", shapes[s].members[n * shapes[s].size + i]);
                printf("}");
            }
            printf("\n");
        }
    char **sizes;
    int nsizes = split_list(opt.sizes, &sizes);
    long k = 0;
    for (int pat = 0; pat < NPATTERNS; pat++) {
        if (opt.patterns && !in_list(opt.patterns, pattern_names[pat])) continue;
        for (int s = 0; s < NSHAPES; s++)
            for (int a = 0; a < nalgo; a++)
                for (int c = 0; c < opt.calls; c++, k++) {
                    rng_state = mix(opt.seed ^ ((uint64_t)k << 16) ^ 0x9a77ULL);
                    shape_t *sh = &shapes[s];
                    int root = rnd_below(sh->size);
                    int count = atoi(sizes[(k + c) % nsizes]);
                    uint64_t draw = rnd();
                    long delay = delay_of(sh, pat, k, root, sh->rank, draw);
                    char what[96];
                    snprintf(what, sizeof what, "patterns call %ld pattern=%s", k, pattern_names[pat]);
                    checked_bcast(algos[a], sh, root, count, MPI_BYTE, delay, draw, what);
                }
    }
    for (int i = 0; i < nsizes; i++) free(sizes[i]);
    free(sizes);
    for (int s = 0; s < NSHAPES; s++) shape_free(&shapes[s]);
}

static void part_stress(void)
{
    shape_t sh;
    shape_init(&sh, "interleaved", split_by_key(0, interleaved_key()));
    MPI_Datatype types[3] = {MPI_BYTE, MPI_INT, MPI_DOUBLE};
    rng_state = mix(opt.seed ^ 0x57e55ULL);
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
    shape_free(&sh);
}

static void part_comms(void)
{
    int n = opt.comms;
    shape_t *sh = malloc((size_t)n * sizeof *sh);
    int *order = malloc((size_t)n * sizeof *order);
    char (*names)[32] = malloc((size_t)n * sizeof *names);
    for (int cycle = 0; cycle < opt.comm_cycles; cycle++) {
        for (int i = 0; i < n; i++) {
            MPI_Comm c;
            switch (i % 4) {
            case 0: MPI_Comm_dup(MPI_COMM_WORLD, &c); snprintf(names[i], 32, "comm%d(dup)", i); break;
            case 1: c = split_by_key(0, world_size - world_rank); snprintf(names[i], 32, "comm%d(reversed)", i); break;
            case 2: c = split_by_key(0, interleaved_key()); snprintf(names[i], 32, "comm%d(interleaved)", i); break;
            default: c = split_by_key(world_rank % 2, world_size - world_rank); snprintf(names[i], 32, "comm%d(half)", i);
            }
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
            rng_state = mix(opt.seed ^ 0xc0ffULL ^ ((uint64_t)cycle << 48) ^ ((uint64_t)round << 32));
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
        for (int i = 0; i < n; i++) shape_free(&sh[i]);
    }
    free(sh);
    free(order);
    free(names);
}

/* ---- main ---------------------------------------------------------------- */

static void check_patterns(const char *list)
{
    char **v;
    int n = split_list(list, &v);
    for (int i = 0; i < n; i++) {
        int ok = 0;
        for (int p = 0; p < NPATTERNS; p++) ok |= !strcmp(v[i], pattern_names[p]);
        if (!ok) {
            if (world_rank == 0) fprintf(stderr, "unknown pattern \"%s\"\n", v[i]);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        free(v[i]);
    }
    free(v);
}

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
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = strchr(a, '=');
        if (!v || strncmp(a, "--", 2)) usage(argv[0]);
        v++;
#define OPT(name) (!strncmp(a, "--" name "=", strlen(name) + 3))
        if (OPT("algos")) opt.algos = v;
        else if (OPT("parts")) opt.parts = v;
        else if (OPT("patterns")) opt.patterns = v;
        else if (OPT("sizes")) opt.sizes = v;
        else if (OPT("ppn")) opt.ppn = atoi(v);
        else if (OPT("seed")) opt.seed = strtoull(v, NULL, 10);
        else if (OPT("calls")) opt.calls = atoi(v);
        else if (OPT("delay-us")) opt.delay_us = atoi(v);
        else if (OPT("stress-calls")) opt.stress_calls = atoi(v);
        else if (OPT("stress-max")) opt.stress_max = atoi(v);
        else if (OPT("stress-big")) opt.stress_big = atoi(v);
        else if (OPT("stress-big-prob")) opt.stress_big_prob = atof(v);
        else if (OPT("stress-delay-us")) opt.stress_delay_us = atoi(v);
        else if (OPT("comms")) opt.comms = atoi(v);
        else if (OPT("comm-cycles")) opt.comm_cycles = atoi(v);
        else if (OPT("comm-max")) opt.comm_max = atoi(v);
        else if (OPT("call-timeout")) opt.call_timeout = atoi(v);
        else usage(argv[0]);
#undef OPT
    }
    if (opt.patterns) check_patterns(opt.patterns);
    signal(SIGALRM, on_alarm);
    select_algorithms();
    compute_node_key();
    if (world_rank == 0) {
        printf("test_bcast_adversarial: np=%d ppn=%d seed=%llu algorithms(%d):", world_size, opt.ppn, opt.seed, nalgo);
        for (int a = 0; a < nalgo; a++) printf(" %s", algos[a]);
        printf("\n");
        fflush(stdout);
    }
    static const struct {
        const char *name;
        void (*fn)(void);
    } parts[] = {{"patterns", part_patterns}, {"stress", part_stress}, {"comms", part_comms}};
    long total_failures = 0;
    for (int p = 0; p < 3; p++) {
        if (!in_list(opt.parts, parts[p].name)) continue;
        long f0 = failures, c0 = calls_done, part_failures, part_calls;
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        parts[p].fn();
        MPI_Barrier(MPI_COMM_WORLD);
        double t = MPI_Wtime() - t0;
        long f = failures - f0, c = calls_done - c0;
        MPI_Allreduce(&f, &part_failures, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
        MPI_Allreduce(&c, &part_calls, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
        total_failures += part_failures;
        if (world_rank == 0) {
            printf("  part %-8s %6ld calls per process, %ld failures, %.2f s%s\n", parts[p].name,
                   part_calls / world_size, part_failures, t,
#ifdef PAPCOLL_SMPI
                   " (simulated)"
#else
                   ""
#endif
            );
            fflush(stdout);
        }
    }
    alarm(0); /* every rank is past the parts' closing barrier and reductions */
    if (world_rank == 0)
        printf("test_bcast_adversarial: %s (%ld failures)\n", total_failures ? "FAILED" : "OK", total_failures);
    for (int a = 0; a < nalgo; a++) free(algos[a]);
    free(algos);
    free(buf);
    MPI_Finalize();
    return total_failures != 0;
}
