/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * options.c - see options.h; `papcoll-bench -h` documents every option.
 */
#include "options.h"

#include <papcoll.h>

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void options_usage(void)
{
    printf("Usage: papcoll-bench [options]   (papcoll-bench-smpi under smpirun: the same options)\n"
           "  -m, --message-size [MIN:]MAX[:FACTOR]  message sizes in bytes from MIN, each FACTOR (default 2) times\n"
           "                                the last (K/M/G allowed; default 1:1M); reductions move\n"
           "                                count = floor(size / element size) elements (count 0 below one element);\n"
           "                                the others: size = the bytes of ONE process block (OSU convention), that\n"
           "                                is floor(size / element size) elements: each process's contribution\n"
           "                                (allgather, gather), each one's share (scatter) or result block\n"
           "                                (reduce_scatter), each block to one destination (alltoall)\n"
           "  -i, --iterations N            timed repetitions per size (default 100, 20 above 8K)\n"
           "  -x, --warmup N                untimed repetitions per size (default 10, 2 above 8K)\n"
           "  -c, --validate                check every result after every call (untimed); exit 1 on a failure:\n"
           "                                bcast every byte; reduce/allreduce the exact integer sum of inputs\n"
           "                                that depend on (rank, repetition, element) at the root (reduce) or on\n"
           "                                every rank (allreduce), of every rank's result block (reduce_scatter);\n"
           "                                block values a function of (rank or (sender, receiver), element,\n"
           "                                repetition), receive buffers pre-filled with a value no block holds:\n"
           "                                allgather(v), alltoall(v) every element of every block on every rank,\n"
           "                                gather(v) every block at the root and the others' receive buffers\n"
           "                                untouched, scatter(v) every rank's block; every send buffer left\n"
           "                                unchanged (a scatter's non-roots' too)\n"
           "  -k, --root fixed:N|rotate     root of bcast, reduce, gather(v), scatter(v) (rotate: a new root each\n"
           "                                repetition; default fixed:0); for the others only the process root-late\n"
           "                                and first-child-late refer to\n"
           "      --coll=NAME               collective (default bcast): bcast | reduce | allreduce | reduce_scatter |\n"
           "                                reduce_scatter_block (MPI_SUM) | allgather | allgatherv | alltoall |\n"
           "                                alltoallv | alltoallw | gather | gatherv | scatter | scatterv | barrier\n"
           "                                (no data:\n"
           "                                -m is ignored, one row of size 0) | scan | exscan (MPI_SUM; exscan\n"
           "                                runs scan's algorithms).  The v forms (and\n"
           "                                reduce_scatter's recvcounts) have unequal counts: rank r's block holds\n"
           "                                floor(size (1 + r mod 3) / 2) bytes rounded down to elements, blocks in\n"
           "                                reverse rank order (reduce_scatter: rank order); alltoallv: s sends d\n"
           "                                floor(size (1 + (s + 2 d) mod 3) / 2) bytes, blocks in reverse peer order\n"
           "                                (alltoallw: the same, byte displacements, one datatype per peer).\n"
           "                                They run the algorithms of the base collective (allgatherv: allgather's,\n"
           "                                reduce_scatter_block: reduce_scatter's).  Nonblocking (IMB-NBC's\n"
           "                                measures): ibarrier | ibcast | ireduce |\n"
           "                                iallreduce: the data, checks and metrics of the blocking one, measured\n"
           "                                pure (start + wait) and overlapped (start, compute for the pure time,\n"
           "                                wait); adds t_cpu, t_ovrl, wait, wait_max and overlap (%%, IMB-NBC's\n"
           "                                definition).  Natively, timing means 2 processes (2 cores)\n"
           "      --nbc-tests=N             nonblocking forms: N MPI_Test calls spread evenly over the overlapped\n"
           "                                computation (OSU's -t), the progress a program that tests while it\n"
           "                                computes gives papcoll's schedules (default 0: none, as IMB-NBC)\n"
           "      --dtype=int|double|char   element type (not bcast, barrier): MPI_INT, MPI_DOUBLE, MPI_CHAR (allgather(v),\n"
           "                                alltoall(v), gather(v), scatter(v) only) (default int)\n"
           "      --algo=a,b,...|all        algorithms of --coll, 'all' = every papcoll algorithm incl. native,\n"
           "                                'auto' = papcoll's own choice (default all; see --list): the static\n"
           "                                rule, since the benchmark sets PAPCOLL_ADAPT=0 unless the environment\n"
           "                                sets PAPCOLL_ADAPT (docs/tuning.md, adaptive selection)\n"
           "      --pattern=SPEC            arrival pattern (default balanced):\n"
           "                                  balanced | uniform:MAX_IF | late:FRACTION:IF | persistent:FRACTION:IF |\n"
           "                                  root-late:IF | first-child-late:IF | straggler:RANK:IF | microbench:XTIME |\n"
           "                                  trace:FILE[:SITE]\n"
           "                                straggler: exactly one process, RANK (n - 1 if RANK >= n), IF x T late\n"
           "                                persistent: as late, but the same ranks (drawn from --seed) are late in\n"
           "                                every repetition\n"
           "                                delays in units of T, the time to send the message between two processes;\n"
           "                                trace: recorded offsets in seconds, one row per call (ranks 0..n-1, commas\n"
           "                                or spaces), row r mod rows in repetition r; SITE picks the rows labelled\n"
           "                                SITE (papcoll trace report's replay/all.csv; its replay/SITE.csv need none)\n"
           "      --seed=N                  seed of the random patterns (default 1)\n"
           "      --unit-time=auto|SECONDS  T; auto measures it per size by ping-pong (default auto; the v forms and\n"
           "                                reduce_scatter: of the smallest block)\n"
           "      --ppn=K                   virtual nodes of K processes (sets PAPCOLL_PPN)\n"
           "      --format=table|csv|json   output format (default table); per algorithm and size the medians over\n"
           "                                repetitions of e_bar (mean arrival-to-exit time), g (slowest process),\n"
           "                                after_last (max exit - max arrival), e_root (the root's time: the\n"
           "                                measure of a reduce or gather; none without a root), root_bound (lower\n"
           "                                bound of e_root: reduce, gather(v)), bound (lower bound of e_bar for this\n"
           "                                collective: Patarasuk & Yuan 2008 Lemma 2 for bcast and scatter(v), data dependence\n"
           "                                for the others: the root's wait for the last arrival plus T (reduce,\n"
           "                                gather(v)) or everyone's (allreduce, allgather(v), alltoall(v),\n"
           "                                reduce_scatter(_block)); #@bound and docs/benchmark.md give the\n"
           "                                formula) and ratio e_bar / bound,\n"
           "                                imbalance factors, valid repetitions, check; CSV and JSON also give\n"
           "                                e_p50, e_p90, e_p99 (percentiles of the per-process times e_i, the\n"
           "                                p x valid-repetitions values pooled) and after_p50, after_p90,\n"
           "                                after_p99 (percentiles of after_last over the valid repetitions),\n"
           "                                after check; the q-percentile of n sorted values x_0..x_n-1 is x at\n"
           "                                position q (n - 1), linearly interpolated (numpy's default)\n"
           "      --percentiles             the table shows those percentiles too\n"
           "      --raw=FILE                write rank, repetition, a_i, f_i, e_i of every call (CSV)\n"
           "      --start-margin=SECONDS    lead time of each repetition's common start (default 2e-4; 1e-3 simulated)\n"
           "      --tolerance=SECONDS       lateness that flags a missed start (default 5e-6)\n"
           "      --resync=SECONDS          clock re-synchronization period (default 1)\n"
           "      --shared-buffer           under SMPI only: message buffers shared by every simulated rank\n"
           "                                (SMPI_SHARED_MALLOC: memory of one rank's buffers, no data copied; contents\n"
           "                                meaningless, so not with -c); for large rank counts or messages\n"
           "      --list                    list the algorithms of --coll (without --coll: of every collective) and exit\n"
           "      --list-params             list papcoll's parameters (--format=md for docs/params.md)\n"
           "      --check-tune=FILE         check a selection-rules file (PAPCOLL_TUNE_FILE): print every\n"
           "                                problem as FILE:LINE: message, exit 1 if there is any\n"
           "  -h, --help                    this help\n"
           "      --version                 versions and exit\n");
}

static int parse_size(const char *s, size_t *out)
{
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (end == s) return -1;
    switch (*end) {
    case 'K': case 'k': v <<= 10; end++; break;
    case 'M': case 'm': v <<= 20; end++; break;
    case 'G': case 'g': v <<= 30; end++; break;
    default: break;
    }
    if (*end) return -1;
    *out = (size_t)v;
    return 0;
}

static int parse_double(const char *s, double *out)
{
    char *end;
    *out = strtod(s, &end);
    return end != s && !*end && *out >= 0 ? 0 : -1;
}

static int fail(int rank, const char *what, const char *value)
{
    if (rank == 0) fprintf(stderr, "papcoll-bench: bad %s '%s' (see -h)\n", what, value);
    return -1;
}

int options_parse(int argc, char **argv, options_t *o, int rank)
{
    enum { O_ALGO = 256, O_PPN, O_FORMAT, O_LIST, O_LIST_PARAMS, O_VERSION, O_COLL, O_PATTERN, O_SEED, O_UNIT,
           O_RAW, O_MARGIN, O_TOL, O_RESYNC, O_SHARED, O_DTYPE, O_CHECK_TUNE, O_PERCENTILES,
           O_NBC_TESTS };
    static const struct option longopts[] = {
        {"message-size", required_argument, 0, 'm'}, {"iterations", required_argument, 0, 'i'},
        {"warmup", required_argument, 0, 'x'},       {"validate", no_argument, 0, 'c'},
        {"root", required_argument, 0, 'k'},         {"algo", required_argument, 0, O_ALGO},
        {"ppn", required_argument, 0, O_PPN},        {"format", required_argument, 0, O_FORMAT},
        {"list", no_argument, 0, O_LIST},            {"list-params", no_argument, 0, O_LIST_PARAMS},
        {"check-tune", required_argument, 0, O_CHECK_TUNE},
        {"help", no_argument, 0, 'h'},               {"version", no_argument, 0, O_VERSION},
        {"coll", required_argument, 0, O_COLL},      {"pattern", required_argument, 0, O_PATTERN},
        {"seed", required_argument, 0, O_SEED},      {"unit-time", required_argument, 0, O_UNIT},
        {"raw", required_argument, 0, O_RAW},        {"start-margin", required_argument, 0, O_MARGIN},
        {"tolerance", required_argument, 0, O_TOL},  {"resync", required_argument, 0, O_RESYNC},
        {"shared-buffer", no_argument, 0, O_SHARED}, {"dtype", required_argument, 0, O_DTYPE},
        {"percentiles", no_argument, 0, O_PERCENTILES}, {"nbc-tests", required_argument, 0, O_NBC_TESTS},
        {0, 0, 0, 0}};
    memset(o, 0, sizeof *o);
    o->min_size = 1;
    o->max_size = 1 << 20;
    o->size_factor = 2;
    o->iterations = 100, o->warmup = 10, o->iterations_large = 20, o->warmup_large = 2;
    o->coll = "bcast", o->algos = "all", o->format = "table";
    o->seed = 1, o->start_margin = -1, o->tolerance = 5e-6, o->resync = 1;
    const char *pattern = "balanced";
    char err[256];
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "m:i:x:ck:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'm': {
            char *colon = strchr(optarg, ':'), *step = colon ? strchr(colon + 1, ':') : NULL;
            if (step) { /* MIN:MAX:FACTOR */
                *step = '\0';
                char *end;
                long f = strtol(step + 1, &end, 10);
                if (*end || f < 2) return fail(rank, "size factor", step + 1);
                o->size_factor = (size_t)f;
            }
            if (colon) {
                *colon = '\0';
                if (parse_size(optarg, &o->min_size)) return fail(rank, "size", optarg);
                optarg = colon + 1;
            }
            if (parse_size(optarg, &o->max_size)) return fail(rank, "size", optarg);
            if (!colon) o->min_size = o->max_size < 1 ? o->max_size : 1;
            break;
        }
        case 'i': o->iterations = o->iterations_large = atoi(optarg); break;
        case 'x': o->warmup = o->warmup_large = atoi(optarg); break;
        case 'c': o->validate = 1; break;
        case 'k':
            if (!strcmp(optarg, "rotate")) o->root = -1;
            else if (!strncmp(optarg, "fixed:", 6)) o->root = atoi(optarg + 6);
            else o->root = atoi(optarg);
            break;
        case O_ALGO: o->algos = optarg; break;
        case O_PPN:
            if (papcoll_set_param("PAPCOLL_PPN", optarg) != MPI_SUCCESS) return fail(rank, "--ppn", optarg);
            break;
        case O_FORMAT: o->format = optarg; break;
        case O_LIST: o->list = 1; break;
        case O_LIST_PARAMS: o->list_params = 1; break;
        case O_CHECK_TUNE: o->check_tune = optarg; break;
        case O_COLL: o->coll = optarg, o->coll_given = 1; break;
        case O_PATTERN: pattern = optarg; break;
        case O_SEED: o->seed = strtoull(optarg, NULL, 10); break;
        case O_UNIT:
            if (strcmp(optarg, "auto") && parse_double(optarg, &o->unit_time)) return fail(rank, "--unit-time", optarg);
            break;
        case O_RAW: o->raw = optarg; break;
        case O_MARGIN: if (parse_double(optarg, &o->start_margin)) return fail(rank, "--start-margin", optarg); break;
        case O_TOL: if (parse_double(optarg, &o->tolerance)) return fail(rank, "--tolerance", optarg); break;
        case O_RESYNC: if (parse_double(optarg, &o->resync)) return fail(rank, "--resync", optarg); break;
        case O_SHARED: o->shared_buffer = 1; break;
        case O_PERCENTILES: o->percentiles = 1; break;
        case O_NBC_TESTS: {
            char *end;
            long n = strtol(optarg, &end, 10);
            if (*end || end == optarg || n < 0 || n > 1000000) return fail(rank, "--nbc-tests (0 to 1000000)", optarg);
            o->nbc_tests = (int)n;
            break;
        }
        case O_DTYPE:
            if (strcmp(optarg, "int") && strcmp(optarg, "double") && strcmp(optarg, "char"))
                return fail(rank, "--dtype (int, double or char)", optarg);
            o->dtype = optarg;
            break;
        case O_VERSION:
            if (rank == 0) {
                char lib[MPI_MAX_LIBRARY_VERSION_STRING];
                int len;
                MPI_Get_library_version(lib, &len);
                printf("papcoll-bench %s\nMPI: %.*s\n", papcoll_version(), (int)strcspn(lib, "\n"), lib);
            }
            return 1;
        case 'h': if (rank == 0) options_usage(); return 1;
        default: return -1;
        }
    }
    if (optind < argc) return fail(rank, "argument", argv[optind]);
    if (o->iterations < 1 || o->warmup < 0) return fail(rank, "iteration count", "");
    if (o->min_size > o->max_size) return fail(rank, "size range", "MIN > MAX");
    o->nbc = bench_nbc_find(o->coll);
    if (o->nbc) o->coll_kind = o->nbc->base; /* data, checks and metrics of the blocking base */
    else if (bench_coll_parse(o->coll, &o->coll_kind))
        return fail(rank, "--coll (" BENCH_COLL_NAMES BENCH_NBC_NAMES ")", o->coll);
    if (o->nbc_tests && !o->nbc) return fail(rank, "option for a blocking --coll (nonblocking forms only)", "--nbc-tests");
    if (o->dtype && o->coll_kind == BENCH_BCAST) return fail(rank, "option for --coll=bcast (a broadcast moves bytes)", "--dtype");
    if (o->dtype && o->coll_kind == BENCH_BARRIER) return fail(rank, "option for --coll=barrier (no data)", "--dtype");
    if (o->coll_kind == BENCH_BARRIER) o->min_size = o->max_size = 0; /* no data: one row */
    if (o->dtype && !strcmp(o->dtype, "char") && !bench_coll_gathers(o->coll_kind))
        return fail(rank, "--dtype for reductions (int or double; char: allgather(v), alltoall(v), gather(v), scatter(v))",
                    o->dtype);
#ifndef PAPCOLL_SMPI
    if (o->shared_buffer) return fail(rank, "option (papcoll-bench-smpi only)", "--shared-buffer");
#endif
    if (o->shared_buffer && o->validate) return fail(rank, "option combination (a shared buffer cannot be validated)", "--shared-buffer -c");
    if (strcmp(o->format, "table") && strcmp(o->format, "csv") && strcmp(o->format, "json") && strcmp(o->format, "md"))
        return fail(rank, "--format", o->format);
    if (pattern_parse(pattern, &o->pattern, err, sizeof err)) {
        if (rank == 0) fprintf(stderr, "papcoll-bench: %s\n", err);
        return -1;
    }
    return 0;
}
