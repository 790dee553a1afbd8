/*
 * papcoll-bench - compares broadcast algorithms side by side in one run.
 *
 * This first version measures balanced arrival only, OSU style: each
 * repetition starts after a barrier and every process times its own call;
 * algorithms are interleaved repetition by repetition (A B C A B C ...) so
 * drift of the machine hits all alike.  Reported per (algorithm, size): the
 * mean over processes of the per-process average time, and the slowest
 * process.  The same source builds natively and for SimGrid SMPI
 * (papcoll-bench-smpi, run under smpirun; times are then simulated).
 */
#include <papcoll.h>

#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct options {
    size_t min_size, max_size;
    int iterations, warmup, iterations_large, warmup_large;
    int validate, root;
    const char *algos;
    const char *format; /* table | csv | md (md: --list-params only) */
    int list, list_params;
} options_t;

static int rank, nprocs;

static void usage(FILE *f)
{
    fprintf(f,
            "Usage: papcoll-bench [options]\n"
            "  -m, --message-size [MIN:]MAX  sizes in bytes, powers of two (K/M/G allowed; default 1:1M)\n"
            "  -i, --iterations N            timed repetitions per size (default 100, 20 above 8K)\n"
            "  -x, --warmup N                untimed repetitions per size (default 10, 2 above 8K)\n"
            "  -c, --validate                check every byte after every call (untimed); exit 1 on failure\n"
            "  -k, --root R                  broadcast root (default 0)\n"
            "      --algo=a,b,...|all        algorithms to compare (default all; 'native' is MPI_Bcast)\n"
            "      --ppn=K                   virtual nodes of K processes (sets PAPCOLL_PPN)\n"
            "      --format=table|csv        output format (default table)\n"
            "      --list                    list the broadcast algorithms and exit\n"
            "      --list-params             list papcoll's parameters (--format=md for docs/params.md)\n"
            "  -h, --help                    this help\n"
            "      --version                 print versions and exit\n");
}

static int parse_size(const char *s, size_t *out)
{
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (end == s) return -1;
    if (*end == 'K' || *end == 'k') v <<= 10, end++;
    else if (*end == 'M' || *end == 'm') v <<= 20, end++;
    else if (*end == 'G' || *end == 'g') v <<= 30, end++;
    if (*end) return -1;
    *out = (size_t)v;
    return 0;
}

static int parse_options(int argc, char **argv, options_t *o)
{
    enum { OPT_ALGO = 256, OPT_PPN, OPT_FORMAT, OPT_LIST, OPT_LIST_PARAMS, OPT_VERSION };
    static const struct option longopts[] = {
        {"message-size", required_argument, 0, 'm'}, {"iterations", required_argument, 0, 'i'},
        {"warmup", required_argument, 0, 'x'},       {"validate", no_argument, 0, 'c'},
        {"root", required_argument, 0, 'k'},         {"algo", required_argument, 0, OPT_ALGO},
        {"ppn", required_argument, 0, OPT_PPN},      {"format", required_argument, 0, OPT_FORMAT},
        {"list", no_argument, 0, OPT_LIST},          {"list-params", no_argument, 0, OPT_LIST_PARAMS},
        {"help", no_argument, 0, 'h'},               {"version", no_argument, 0, OPT_VERSION},
        {0, 0, 0, 0}};
    *o = (options_t){1, 1 << 20, 100, 10, 20, 2, 0, 0, "all", "table", 0, 0};
    int c, iters_set = 0, warm_set = 0;
    while ((c = getopt_long(argc, argv, "m:i:x:ck:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'm': {
            char *colon = strchr(optarg, ':');
            if (colon) {
                *colon = '\0';
                if (parse_size(optarg, &o->min_size)) return -1;
                optarg = colon + 1;
            }
            if (parse_size(optarg, &o->max_size)) return -1;
            if (!colon) o->min_size = o->max_size < 1 ? o->max_size : 1;
            break;
        }
        case 'i': o->iterations = o->iterations_large = atoi(optarg); iters_set = 1; break;
        case 'x': o->warmup = o->warmup_large = atoi(optarg); warm_set = 1; break;
        case 'c': o->validate = 1; break;
        case 'k': o->root = atoi(optarg); break;
        case OPT_ALGO: o->algos = optarg; break;
        case OPT_PPN:
            if (papcoll_set_param("PAPCOLL_PPN", optarg) != MPI_SUCCESS) return -1;
            break;
        case OPT_FORMAT: o->format = optarg; break;
        case OPT_LIST: o->list = 1; break;
        case OPT_LIST_PARAMS: o->list_params = 1; break;
        case OPT_VERSION:
            if (rank == 0) {
                char lib[MPI_MAX_LIBRARY_VERSION_STRING];
                int len;
                MPI_Get_library_version(lib, &len);
                printf("papcoll-bench %s\nMPI: %.*s\n", papcoll_version(), (int)strcspn(lib, "\n"), lib);
            }
            return 1;
        case 'h': if (rank == 0) usage(stdout); return 1;
        default: return -1;
        }
    }
    (void)iters_set; (void)warm_set;
    if (optind < argc || o->iterations < 1 || o->warmup < 0 || o->min_size > o->max_size) return -1;
    return 0;
}

static void list_algorithms(void)
{
    for (int i = 0; i < papcoll_algorithm_count("bcast"); i++)
        printf("bcast %-24s %s\n", papcoll_algorithm_name("bcast", i), papcoll_algorithm_description("bcast", i));
}

static void list_params(const char *format)
{
    int md = !strcmp(format, "md");
    if (md)
        printf("# papcoll parameters\n\nGenerated by `papcoll-bench --list-params --format=md`; a test checks "
               "that this file matches the table in src/params.c.\nSizes accept K, M and G suffixes (powers of 1024).\n\n"
               "| Variable | Type | Default | Meaning |\n|---|---|---|---|\n");
    for (int i = 0; i < papcoll_param_count(); i++) {
        const char *name, *type, *def, *help;
        papcoll_param_info(i, &name, &type, &def, &help);
        if (md) printf("| `%s` | %s | `%s` | %s |\n", name, type, def, help);
        else printf("%-24s %-7s default=%-8s %s\n", name, type, def, help);
    }
}

/* Splits the --algo list; "all" expands to every algorithm ("auto" is
 * papcoll's own selection). */
static int select_algorithms(const char *spec, const char ***out)
{
    int total = papcoll_algorithm_count("bcast"), n = 0, cap = total + 64;
    const char **names = calloc((size_t)cap, sizeof *names);
    char *copy = strdup(spec), *save = NULL;
    for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        int all = !strcmp(tok, "all"), found = !strcmp(tok, "auto");
        for (int i = 0; i < total; i++) {
            const char *name = papcoll_algorithm_name("bcast", i);
            if (!all && strcmp(tok, name)) continue;
            if (n < cap) names[n++] = name;
            found = 1;
        }
        if (!found) {
            if (rank == 0) fprintf(stderr, "papcoll-bench: unknown algorithm '%s' (see --list)\n", tok);
            return -1;
        }
        if (!all && !strcmp(tok, "auto") && n < cap) names[n++] = "auto";
    }
    free(copy);
    *out = names;
    return n;
}

static unsigned char pattern_byte(size_t i, int rep, int root) { return (unsigned char)(i * 131u + (unsigned)rep * 7u + (unsigned)root * 29u + 1u); }

static void fill(unsigned char *buf, size_t n, int rep, int root, int is_root)
{
    for (size_t i = 0; i < n; i++) buf[i] = is_root ? pattern_byte(i, rep, root) : (unsigned char)~pattern_byte(i, rep, root);
}

static long count_errors(const unsigned char *buf, size_t n, int rep, int root)
{
    long bad = 0;
    for (size_t i = 0; i < n; i++) bad += buf[i] != pattern_byte(i, rep, root);
    return bad;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    options_t o;
    int rc = parse_options(argc, argv, &o);
    if (rc) {
        if (rc < 0 && rank == 0) usage(stderr);
        MPI_Finalize();
        return rc < 0 ? 2 : 0;
    }
    if (o.list || o.list_params) {
        if (rank == 0) {
            if (o.list) list_algorithms();
            else list_params(o.format);
        }
        MPI_Finalize();
        return 0;
    }
    if (o.root < 0 || o.root >= nprocs) {
        if (rank == 0) fprintf(stderr, "papcoll-bench: root %d out of range\n", o.root);
        MPI_Finalize();
        return 2;
    }
    const char **algos;
    int nalgo = select_algorithms(o.algos, &algos);
    if (nalgo <= 0) {
        MPI_Finalize();
        return 2;
    }
    int csv = !strcmp(o.format, "csv");
    unsigned char *buf = malloc(o.max_size ? o.max_size : 1);
    double *sum = calloc((size_t)nalgo, sizeof *sum);
    long *errors = calloc((size_t)nalgo, sizeof *errors);
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    int len;
    MPI_Get_library_version(lib, &len);
    if (rank == 0) {
        printf("#@papcoll=%s\n#@mpi=%.*s\n#@p=%d\n#@root=%d\n#@arrival=balanced (barrier, then every process times its call)\n",
               papcoll_version(), (int)strcspn(lib, "\n"), lib, nprocs, o.root);
        if (csv) printf("coll,algo,size,p,reps,avg,max,valid\n");
        else printf("# %-24s %12s %14s %14s %8s\n", "Algorithm", "Size (B)", "Avg time (us)", "Max time (us)", "Check");
    }
    int any_fail = 0;
    for (size_t size = o.min_size; size <= o.max_size; size = size ? size * 2 : 1) {
        int iters = size > 8192 ? o.iterations_large : o.iterations, warm = size > 8192 ? o.warmup_large : o.warmup;
        memset(sum, 0, (size_t)nalgo * sizeof *sum);
        memset(errors, 0, (size_t)nalgo * sizeof *errors);
        for (int rep = -warm; rep < iters; rep++) {
            for (int a = 0; a < nalgo; a++) {
                if (o.validate) fill(buf, size, rep, o.root, rank == o.root);
                MPI_Barrier(MPI_COMM_WORLD);
                double t0 = MPI_Wtime();
                papcoll_bcast_by_name(algos[a], buf, (int)size, MPI_BYTE, o.root, MPI_COMM_WORLD);
                double t1 = MPI_Wtime();
                if (rep >= 0) sum[a] += t1 - t0;
                if (o.validate) errors[a] += count_errors(buf, size, rep, o.root);
            }
        }
        for (int a = 0; a < nalgo; a++) {
            double mine = sum[a] / iters, avg, max;
            long bad;
            MPI_Reduce(&mine, &avg, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
            MPI_Reduce(&mine, &max, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
            MPI_Allreduce(&errors[a], &bad, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
            any_fail |= bad != 0;
            const char *check = o.validate ? (bad ? "Fail" : "Pass") : "-";
            if (rank != 0) continue;
            avg /= nprocs;
            if (csv) printf("bcast,%s,%zu,%d,%d,%.9g,%.9g,%s\n", algos[a], size, nprocs, iters, avg, max, check);
            else printf("  %-24s %12zu %14.2f %14.2f %8s\n", algos[a], size, avg * 1e6, max * 1e6, check);
        }
        if (size == 0) break;
    }
    fflush(stdout);
    free(buf);
    free(sum);
    free(errors);
    MPI_Finalize();
    return any_fail;
}
