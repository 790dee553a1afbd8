/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * transport_bench.c - papcoll-transport-bench: the intra-node transports of
 * Morimoto et al. 1999 (MPI/MBCF: write and eager protocols; its Tables
 * 3-4 measure round-trip time and peak bandwidth) for papcoll's node
 * copy-out (node/node.h), against the MPI library's own.
 *
 *   pingpong  two processes of one node, 4 B .. 1 MiB (x4 steps):
 *             mpi        MPI_Send / MPI_Recv ping-pong
 *             write      papcoll broadcast ping-pong (root alternating) on a
 *                        2-process node, PAPCOLL_NODE_PROTOCOL=write: the
 *                        receiver is always posted first, so every message
 *                        is one single copy (process_vm_writev)
 *             read       the same with PAPCOLL_NODE_PROTOCOL=read: the
 *                        posted receiver pulls the message from the sender's
 *                        buffer (process_vm_readv), the sender waits for it
 *             eager      the same with PAPCOLL_NODE_PROTOCOL=ring: copy into
 *                        the node ring, copy out (two copies)
 *             round-trip time = time of one ping + pong; bandwidth = 2 x
 *             size / round-trip time
 *   bcast     a broadcast of --bcast-size from rank 0 among all processes
 *             of the node (run it with every process on one node): papcoll
 *             --algo with each protocol (ring, write, read, auto), MPI_Bcast, and
 *             one memcpy of the same size (the floor of any copy-based
 *             transport), under three arrival orders (see bcast_time)
 *
 * Each protocol runs on its own duplicate of MPI_COMM_WORLD, its node
 * segment (and so its single-copy detection) created under that protocol,
 * switched in the process with papcoll_set_param.  Every figure is the best of --reps repetitions of the mean
 * over --iters iterations (after --warmup) for pingpong, min/median over
 * all calls for bcast: the machine is shared.  The received data is checked.
 */
#include <papcoll.h>

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *test;
    size_t min, max, bcast_size;
    int iters, warmup, reps;
    const char *algo;
    double delay_us;
} options_t;

static int rank, size;

static void usage(FILE *f, const char *prog)
{
    fprintf(f,
            "usage: %s [options]\n"
            "  --test=pingpong|bcast|all  what to measure (default all)\n"
            "  --min=BYTES                smallest ping-pong message (default 4; K/M suffixes)\n"
            "  --max=BYTES                largest ping-pong message (default 1M); sizes grow x4\n"
            "  --bcast-size=BYTES         broadcast message of the bcast test (default 1M)\n"
            "  --iters=N                  timed iterations per size and method (default 200; /4 from 64K)\n"
            "  --warmup=N                 untimed iterations before them (default 20)\n"
            "  --reps=N                   repetitions; the best mean is printed (default 3)\n"
            "  --algo=NAME                papcoll broadcast used (default hier_nobarrier)\n"
            "  --delay-us=US              bcast: how late the root (readers first) or the others\n"
            "                             (writer first) arrive (default 300)\n"
            "  --help                     this text\n"
            "pingpong needs exactly 2 processes (ranks 0 and 1 of one node); bcast uses all.\n"
            "pingpong methods: mpi = MPI_Send/MPI_Recv; write, read, eager = papcoll's broadcast\n"
            "ping-pong under PAPCOLL_NODE_PROTOCOL=write (the sender process_vm_writev's into the\n"
            "posted receiver), =read (the posted receiver process_vm_readv's from the sender) and\n"
            "=ring (through the node ring, two copies).  bcast rows: the same protocols, auto\n"
            "(the defaults) and MPI_Bcast.\n"
            "pingpong columns: rtt_us = round-trip time in microseconds; MB/s = 2 x size / rtt\n"
            "(1 MB = 1e6 bytes).  bcast columns, min/median over the calls of the time of one\n"
            "broadcast in microseconds under three\n"
            "arrival orders: together (after a barrier: max over processes of its time in the call),\n"
            "readers first (root late: from the root's entry to the last exit), writer first (the\n"
            "others late: max over them of their own time, what a late reader pays).\n",
            prog);
}

static int parse_size(const char *s, size_t *out)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || v < 0) return -1;
    if (*end == 'K' || *end == 'k') v *= 1024, end++;
    else if (*end == 'M' || *end == 'm') v *= 1024 * 1024, end++;
    else if (*end == 'G' || *end == 'g') v *= 1024.0 * 1024 * 1024, end++;
    if (*end) return -1;
    *out = (size_t)v;
    return 0;
}

static int parse(int argc, char **argv, options_t *o)
{
    *o = (options_t){"all", 4, 1 << 20, 1 << 20, 200, 20, 3, "hier_nobarrier", 300};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int bad = 0;
        if (!strcmp(a, "--help")) {
            if (rank == 0) usage(stdout, argv[0]);
            return 1;
        } else if (!strncmp(a, "--test=", 7)) {
            o->test = a + 7;
            bad = strcmp(o->test, "pingpong") && strcmp(o->test, "bcast") && strcmp(o->test, "all");
        } else if (!strncmp(a, "--min=", 6)) bad = parse_size(a + 6, &o->min);
        else if (!strncmp(a, "--max=", 6)) bad = parse_size(a + 6, &o->max);
        else if (!strncmp(a, "--bcast-size=", 13)) bad = parse_size(a + 13, &o->bcast_size);
        else if (!strncmp(a, "--iters=", 8)) bad = (o->iters = atoi(a + 8)) < 1;
        else if (!strncmp(a, "--warmup=", 9)) bad = (o->warmup = atoi(a + 9)) < 0;
        else if (!strncmp(a, "--reps=", 7)) bad = (o->reps = atoi(a + 7)) < 1;
        else if (!strncmp(a, "--algo=", 7)) o->algo = a + 7;
        else if (!strncmp(a, "--delay-us=", 11)) bad = (o->delay_us = atof(a + 11)) < 0;
        else bad = 1;
        if (bad) {
            if (rank == 0) {
                fprintf(stderr, "%s: bad option '%s'\n", argv[0], a);
                usage(stderr, argv[0]);
            }
            return -1;
        }
    }
    if (o->min < 1) o->min = 1;
    return 0;
}

static void fill(unsigned char *b, size_t n, int seed)
{
    for (size_t i = 0; i < n; i++) b[i] = (unsigned char)(i * 31 + seed);
}

static int check(const unsigned char *b, size_t n, int seed)
{
    for (size_t i = 0; i < n; i++)
        if (b[i] != (unsigned char)(i * 31 + seed)) return 0;
    return 1;
}

static void use_protocol(const char *proto)
{
    if (papcoll_set_param("PAPCOLL_NODE_PROTOCOL", proto) != MPI_SUCCESS) {
        if (rank == 0) fprintf(stderr, "papcoll does not know PAPCOLL_NODE_PROTOCOL=%s\n", proto);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
}

/* A communicator for PAPCOLL_NODE_PROTOCOL=proto: its node segment (and so
 * its single-copy detection) is created by its first call, under proto. */
static MPI_Comm comm_with_protocol(const char *proto)
{
    MPI_Comm c;
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    use_protocol(proto);
    unsigned char warm = 0;
    papcoll_bcast_by_name("hier_nobarrier", &warm, 1, MPI_BYTE, 0, c);
    return c;
}

/* One ping-pong step of `method` (NULL = MPI_Send/Recv) between ranks 0 and 1. */
static void pingpong_step(const char *algo, MPI_Comm comm, unsigned char *buf, size_t n)
{
    if (!algo) {
        if (rank == 0) {
            MPI_Send(buf, (int)n, MPI_BYTE, 1, 7, comm);
            MPI_Recv(buf, (int)n, MPI_BYTE, 1, 7, comm, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(buf, (int)n, MPI_BYTE, 0, 7, comm, MPI_STATUS_IGNORE);
            MPI_Send(buf, (int)n, MPI_BYTE, 0, 7, comm);
        }
        return;
    }
    papcoll_bcast_by_name(algo, buf, (int)n, MPI_BYTE, 0, comm);
    papcoll_bcast_by_name(algo, buf, (int)n, MPI_BYTE, 1, comm);
}

/* Best-of-reps mean round-trip time (us); -1 if the data came back wrong. */
static double pingpong(const options_t *o, const char *algo, MPI_Comm comm, size_t n)
{
    unsigned char *buf = malloc(n);
    double best = -1;
    int iters = n >= 65536 ? (o->iters + 3) / 4 : o->iters, ok = 1;
    for (int r = 0; r < o->reps; r++) {
        for (int i = 0; i < o->warmup; i++) pingpong_step(algo, comm, buf, n);
        fill(buf, n, r + 1);
        if (rank == 1) memset(buf, 0, n);
        MPI_Barrier(comm);
        double t0 = MPI_Wtime();
        for (int i = 0; i < iters; i++) pingpong_step(algo, comm, buf, n);
        double t = (MPI_Wtime() - t0) / iters * 1e6;
        ok &= check(buf, n, r + 1);
        MPI_Bcast(&t, 1, MPI_DOUBLE, 0, comm);
        if (best < 0 || t < best) best = t;
    }
    free(buf);
    int all_ok;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, comm);
    return all_ok ? best : -1;
}

static void run_pingpong(const options_t *o)
{
    if (size != 2) {
        if (rank == 0) fprintf(stderr, "pingpong: needs exactly 2 processes (got %d): skipped\n", size);
        return;
    }
    static const char *protos[] = {"write", "read", "ring"}; /* methods 1..3; 0 is MPI */
    MPI_Comm comms[3];
    for (int p = 0; p < 3; p++) comms[p] = comm_with_protocol(protos[p]);
    if (rank == 0) {
        printf("# pingpong: 2 processes, papcoll %s (write: PAPCOLL_NODE_PROTOCOL=write, read: =read, eager: =ring)\n",
               o->algo);
        printf("%10s | %12s %10s | %12s %10s | %12s %10s | %12s %10s\n", "bytes", "mpi rtt_us", "MB/s",
               "write rtt_us", "MB/s", "read rtt_us", "MB/s", "eager rtt_us", "MB/s");
    }
    for (size_t n = o->min; n <= o->max; n *= 4) {
        double t[4];
        t[0] = pingpong(o, NULL, MPI_COMM_WORLD, n);
        for (int p = 0; p < 3; p++) {
            use_protocol(protos[p]); /* read at every call: set it for the communicator measured */
            t[p + 1] = pingpong(o, o->algo, comms[p], n);
        }
        if (rank == 0) {
            printf("%10zu", n);
            for (int m = 0; m < 4; m++)
                if (t[m] < 0) printf(" | %12s %10s", "WRONG DATA", "-");
                else printf(" | %12.2f %10.1f", t[m], 2.0 * (double)n / t[m]);
            printf("\n");
        }
    }
    for (int p = 0; p < 3; p++) MPI_Comm_free(&comms[p]);
}

/* Busy-waits us microseconds (a process arriving late). */
static void spin_us(double us)
{
    double t0 = MPI_Wtime();
    while ((MPI_Wtime() - t0) * 1e6 < us) {
    }
}

enum { TOGETHER, READERS_FIRST, WRITER_FIRST, NORDERS };
static const char *order_names[NORDERS] = {"together", "readers first", "writer first"};

/* Minimum and median over reps x iters/4 calls of the time (us) of one
 * broadcast from rank 0 under an arrival order (MPI_Wtime is one clock on
 * one node):
 *   together       max over processes of its own time in the call
 *   readers first  the root enters --delay-us after the others: from its
 *                  entry to the last exit (the readers are posted)
 *   writer first   the others enter --delay-us after the root: max over the
 *                  readers of their own time (the copy-in is done: what a
 *                  late reader pays) */
static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

typedef struct {
    double min, median; /* microseconds; min < 0: wrong data */
} stat_t;

static stat_t bcast_time(const options_t *o, const char *algo, MPI_Comm comm, size_t n, int order)
{
    unsigned char *buf = malloc(n);
    int ok = 1, iters = (o->iters + 3) / 4, nt = 0;
    double *times = malloc((size_t)o->reps * (size_t)iters * sizeof *times);
    for (int r = 0; r < o->reps; r++) {
        for (int i = -o->warmup / 4; i < iters; i++) {
            if (rank == 0) fill(buf, n, r + i + 2);
            else memset(buf, 0, n);
            MPI_Barrier(comm);
            if ((order == READERS_FIRST && rank == 0) || (order == WRITER_FIRST && rank != 0)) spin_us(o->delay_us);
            double t0 = MPI_Wtime();
            if (algo) papcoll_bcast_by_name(algo, buf, (int)n, MPI_BYTE, 0, comm);
            else MPI_Bcast(buf, (int)n, MPI_BYTE, 0, comm);
            double t1 = MPI_Wtime(), mine[2] = {t1 - t0, t1}, all[2], root_entry = t0;
            ok &= check(buf, n, r + i + 2);
            if (order == WRITER_FIRST && rank == 0) mine[0] = 0; /* the readers' own time */
            MPI_Allreduce(mine, all, 2, MPI_DOUBLE, MPI_MAX, comm);
            MPI_Bcast(&root_entry, 1, MPI_DOUBLE, 0, comm);
            if (i >= 0) times[nt++] = (order == READERS_FIRST ? all[1] - root_entry : all[0]) * 1e6;
        }
    }
    qsort(times, (size_t)nt, sizeof *times, cmp_double);
    stat_t st = {times[0], times[nt / 2]};
    free(times);
    free(buf);
    int all_ok;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, comm);
    if (!all_ok) st.min = -1;
    return st;
}

static double memcpy_time(const options_t *o, size_t n)
{
    char *a = malloc(n), *b = malloc(n);
    memset(a, 1, n), memset(b, 2, n);
    double best = -1;
    for (int r = 0; r < o->reps; r++) {
        double t0 = MPI_Wtime();
        int iters = (o->iters + 3) / 4;
        for (int i = 0; i < iters; i++) {
            memcpy(b, a, n);
            a[i % n] ^= b[(i * 7) % n]; /* keeps the copies from being optimized away */
        }
        double t = (MPI_Wtime() - t0) / iters * 1e6;
        if (best < 0 || t < best) best = t;
    }
    free(a), free(b);
    return best;
}

static void run_bcast(const options_t *o)
{
    static const char *protos[] = {"ring", "write", "read", "auto"};
    static const char *names[] = {"papcoll ring (eager)", "papcoll write", "papcoll read", "papcoll auto", "MPI_Bcast"};
    enum { NPROTOS = 4, NMETHODS = 5 };
    size_t n = o->bcast_size;
    stat_t t[NMETHODS][NORDERS];
    for (int p = 0; p < NPROTOS; p++) {
        MPI_Comm c = comm_with_protocol(protos[p]);
        for (int order = 0; order < NORDERS; order++) t[p][order] = bcast_time(o, o->algo, c, n, order);
        MPI_Comm_free(&c);
    }
    for (int order = 0; order < NORDERS; order++) t[NPROTOS][order] = bcast_time(o, NULL, MPI_COMM_WORLD, n, order);
    double copy = memcpy_time(o, n);
    if (rank == 0) {
        printf("# bcast: %zu bytes from rank 0 among %d processes of one node, papcoll %s, late by %.0f us\n", n,
               size, o->algo, o->delay_us);
        printf("%-22s", "time_us min/median");
        for (int order = 0; order < NORDERS; order++) printf(" %19s", order_names[order]);
        printf("\n");
        for (int m = 0; m < NMETHODS; m++) {
            printf("%-22s", names[m]);
            for (int order = 0; order < NORDERS; order++)
                if (t[m][order].min < 0) printf(" %19s", "WRONG DATA");
                else printf(" %9.1f/%9.1f", t[m][order].min, t[m][order].median);
            printf("\n");
        }
        printf("%-22s %9.1f (best mean)\n", "one memcpy", copy);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    options_t o;
    int rc = parse(argc, argv, &o);
    if (rc == 0) {
        if (strcmp(o.test, "bcast")) run_pingpong(&o);
        if (strcmp(o.test, "pingpong")) run_bcast(&o);
    }
    MPI_Finalize();
    return rc < 0 ? 2 : 0;
}
