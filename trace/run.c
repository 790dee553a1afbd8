/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * run.c - the traced run's life: MPI_Init (settings, run directory, node
 * map, first clock synchronization, provisional header), every record, the
 * periodic re-synchronizations (run.h), and MPI_Finalize (buffers written,
 * call sites resolved, last clock synchronization, final header).  See
 * run.h and format.h.
 *
 * Under SimGrid SMPI (PAPCOLL_SMPI) all of this is per rank as it is per
 * process natively (SMPI privatizes the program's globals), with three
 * differences: the clock is the simulated one and its synchronizations
 * record offsets of 0 without a message (clock.h), so periodic
 * re-synchronization is off; the run directory carries the smpirun
 * process's id; and the header's program is the program SMPI ran (its
 * argv[0]), not the simulator (/proc/self/exe).
 */
#define _GNU_SOURCE
#include "run.h"
#include "buffer.h"
#include "clock.h"
#include "comms.h"
#include "sites.h"
#include "tracer.h"

#include <mpi.h>

#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#ifdef PAPCOLL_SMPI
#include <sys/syscall.h>
#endif

enum { HOST_MAX = 256 };

static struct {
    int initialized, finalized;
    pthread_mutex_t lock;
    MPI_Comm world; /* private duplicate of MPI_COMM_WORLD */
    int rank, size, rounds;
    size_t buffer_bytes;
    char dir[PATH_MAX];
    pt_buffer_t buffer;
    int failed; /* a write failed: recording stopped */
    /* rank 0 */
    int *node_of_rank;
    char *hosts; /* size x HOST_MAX */
    pt_sync_t sync[PT_SYNC_MAX];
    const char *sync_when[PT_SYNC_MAX]; /* "init", "periodic", "finalize" */
    int synced;                         /* synchronizations done */
    double resync_s;                    /* PAPCOLL_TRACE_RESYNC, 0: off */
    int64_t next_resync;                /* rank 0's clock: the next periodic synchronization is due */
    int after_resync;                   /* flag this rank's next record PT_FLAG_AFTER_RESYNC */
    int resync_every;                   /* PAPCOLL_TRACE_RESYNC_CHECK in effect (pt_resync_check ends at 0) */
    int resync_checks, resync_skipped;  /* rank 0: decision steps; synchronizations left out (PT_SYNC_MAX) */
} run = {.lock = PTHREAD_MUTEX_INITIALIZER, .world = MPI_COMM_NULL};

int pt_resync_check;

#ifdef PAPCOLL_SMPI
static char program[PATH_MAX]; /* argv[0], absolute (pt_run_program) */

void pt_run_program(const char *argv0)
{
    if (!argv0 || !realpath(argv0, program)) snprintf(program, sizeof program, "%s", argv0 ? argv0 : "?");
}

const char *pt_run_program_path(void)
{
    return program;
}

/* The process's id (smpicc turns getpid() into the simulated rank's). */
static long process_id(void)
{
    return (long)syscall(SYS_getpid);
}
#else
static long process_id(void)
{
    return (long)getpid();
}
#endif

static const char *coll_names[] = {
#define PT_NAME(name) #name,
    PT_COLLECTIVES(PT_NAME)
#undef PT_NAME
};

/* "4M" -> 4194304; the default when unset or malformed. */
static size_t env_size(const char *name, size_t fallback)
{
    const char *s = getenv(name);
    char *end;
    if (!s || !*s) return fallback;
    double v = strtod(s, &end);
    if (end == s || v < 0) return fallback;
    switch (*end) {
    case 'k': case 'K': v *= 1024; break;
    case 'm': case 'M': v *= 1024 * 1024; break;
    case 'g': case 'G': v *= 1024.0 * 1024 * 1024; break;
    }
    return (size_t)v;
}

static long env_long(const char *name, long fallback)
{
    const char *s = getenv(name);
    char *end;
    long v = s && *s ? strtol(s, &end, 10) : fallback;
    return s && *s && *end == '\0' ? v : fallback;
}

static double env_double(const char *name, double fallback)
{
    const char *s = getenv(name);
    char *end;
    double v = s && *s ? strtod(s, &end) : fallback;
    return s && *s && *end == '\0' && v >= 0 ? v : fallback;
}

static void warn(const char *what)
{
    fprintf(stderr, "papcoll trace[%d]: %s: %s; not tracing\n", run.rank, what, strerror(errno));
}

/* Rank 0 creates DIR/papcoll-trace-YYYYmmdd-HHMMSS-PID and everybody learns its path. */
static int make_run_dir(void)
{
    int ok = 1;
    if (run.rank == 0) {
        const char *base = getenv("PAPCOLL_TRACE_DIR");
        if (!base || !*base) base = ".";
        if (mkdir(base, 0755) && errno != EEXIST) {
            warn(base);
            ok = 0;
        }
        char stamp[32];
        time_t now = time(NULL);
        strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", localtime(&now));
        for (int attempt = 0; ok; attempt++) {
            if (attempt)
                snprintf(run.dir, sizeof run.dir, "%s/papcoll-trace-%s-%ld-%d", base, stamp, process_id(), attempt);
            else
                snprintf(run.dir, sizeof run.dir, "%s/papcoll-trace-%s-%ld", base, stamp, process_id());
            if (!mkdir(run.dir, 0755)) break;
            if (errno != EEXIST || attempt > 100) {
                warn(run.dir);
                ok = 0;
            }
        }
        if (!ok) run.dir[0] = '\0';
    }
    PMPI_Bcast(run.dir, sizeof run.dir, MPI_CHAR, 0, run.world);
    return run.dir[0] != '\0';
}

/* Every rank's node (the lowest world rank sharing its memory) and hostname, on rank 0. */
static void gather_nodes(void)
{
    MPI_Comm node;
    int leader = run.rank, len = 0;
    char host[HOST_MAX] = {0}, name[MPI_MAX_PROCESSOR_NAME];
    PMPI_Comm_split_type(run.world, MPI_COMM_TYPE_SHARED, run.rank, MPI_INFO_NULL, &node);
    PMPI_Allreduce(&run.rank, &leader, 1, MPI_INT, MPI_MIN, node);
    PMPI_Comm_free(&node);
    PMPI_Get_processor_name(name, &len);
    snprintf(host, sizeof host, "%.*s", len, name);
    if (run.rank == 0) {
        run.node_of_rank = malloc((size_t)run.size * sizeof(int));
        run.hosts = malloc((size_t)run.size * HOST_MAX);
    }
    PMPI_Gather(&leader, 1, MPI_INT, run.node_of_rank, 1, MPI_INT, 0, run.world);
    PMPI_Gather(host, HOST_MAX, MPI_CHAR, run.hosts, HOST_MAX, MPI_CHAR, 0, run.world);
}

static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
        else if (c < 0x20) fprintf(f, "\\u%04x", c);
        else fputc(c, f);
    }
    fputc('"', f);
}

static void json_int64s(FILE *f, const int64_t *v, int n)
{
    fputc('[', f);
    for (int i = 0; i < n; i++) fprintf(f, "%s%lld", i ? ", " : "", (long long)v[i]);
    fputc(']', f);
}

/* rank 0: per rank, |o_s - the offset the segment (s-2, s-1) predicts at t_s|: the error piecewise-linear
 * correction had at sync s before it was measured (s >= 2). */
static void json_residuals(FILE *f, int s)
{
    const pt_sync_t *a = &run.sync[s - 2], *b = &run.sync[s - 1], *c = &run.sync[s];
    fputc('[', f);
    for (int r = 0; r < run.size; r++) {
        double span = (double)(b->t_local[r] - a->t_local[r]);
        double slope = span != 0 ? (double)(b->offset[r] - a->offset[r]) / span : 0;
        double predicted = (double)b->offset[r] + slope * (double)(c->t_local[r] - b->t_local[r]);
        fprintf(f, "%s%.0f", r ? ", " : "", fabs((double)c->offset[r] - predicted));
    }
    fputc(']', f);
}

/* rank 0: header.json, through a temporary file renamed over the old one. */
static void write_header(const uint64_t *records, const uint64_t *spills, const int *ok)
{
    char path[PATH_MAX + 32], tmp[PATH_MAX + 32], self[PATH_MAX] = "?";
    snprintf(path, sizeof path, "%s/header.json", run.dir);
    snprintf(tmp, sizeof tmp, "%s/header.json.tmp", run.dir);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        warn(tmp);
        return;
    }
#ifdef PAPCOLL_SMPI
    snprintf(self, sizeof self, "%s", program);
#else
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n > 0) self[n] = '\0';
#endif
    char version[MPI_MAX_LIBRARY_VERSION_STRING] = "";
    int len = 0;
    PMPI_Get_library_version(version, &len);
    fprintf(f, "{\n  \"format\": \"papcoll-trace\",\n  \"version\": %d,\n  \"complete\": %s,\n", PT_FORMAT_VERSION,
            records ? "true" : "false");
    fprintf(f, "  \"program\": ");
    json_string(f, self);
    fprintf(f, ",\n  \"mpi_library\": ");
    json_string(f, version);
    fprintf(f, ",\n  \"world_size\": %d,\n  \"record_size\": %zu,\n  \"collectives\": [", run.size, sizeof(pt_record_t));
    for (int i = 0; i < PT_NCOLLECTIVES; i++) fprintf(f, "%s\"%s\"", i ? ", " : "", coll_names[i]);
    fprintf(f, "],\n  \"flags\": {\"nonblocking\": %d, \"fortran\": %d, \"error\": %d, \"after_spill\": %d, "
               "\"after_resync\": %d},\n",
            PT_FLAG_NONBLOCKING, PT_FLAG_FORTRAN, PT_FLAG_ERROR, PT_FLAG_AFTER_SPILL, PT_FLAG_AFTER_RESYNC);
    fprintf(f, "  \"root_codes\": {\"none\": %d, \"mpi_root\": %d, \"mpi_proc_null\": %d},\n", PT_ROOT_NONE,
            PT_ROOT_IS_MPI_ROOT, PT_ROOT_IS_MPI_PROC_NULL);
    fprintf(f, "  \"hosts\": [");
    for (int r = 0; r < run.size; r++) {
        fprintf(f, "%s", r ? ", " : "");
        json_string(f, run.hosts + (size_t)r * HOST_MAX);
    }
    fprintf(f, "],\n  \"node_of_rank\": [");
    for (int r = 0; r < run.size; r++) fprintf(f, "%s%d", r ? ", " : "", run.node_of_rank[r]);
    /* papcoll's virtual node size (PAPCOLL_PPN) in rank 0's environment, 0 when unset or not a positive number:
       the nodes papcoll used when it ran behind the tracer, which the report groups ranks by. */
    const char *ppn_env = getenv("PAPCOLL_PPN");
    char *ppn_end = NULL;
    long ppn = ppn_env && *ppn_env ? strtol(ppn_env, &ppn_end, 10) : 0;
    if (!ppn_end || *ppn_end != '\0' || ppn < 0) ppn = 0;
    fprintf(f, "],\n  \"papcoll_ppn\": %ld", ppn);
#ifdef PAPCOLL_SMPI
    fprintf(f, ",\n  \"clock\": {\n    \"source\": \"SimGrid SMPI simulated clock\", \"unit\": \"ns\",\n");
    fprintf(f, "    \"method\": \"none: every rank reads the one simulated clock (SMPI), offsets 0 by construction, "
               "no message exchanged\",\n    \"rounds\": 0,\n");
#else
    fprintf(f, ",\n  \"clock\": {\n    \"source\": \"CLOCK_MONOTONIC\", \"unit\": \"ns\",\n");
    fprintf(f, "    \"method\": \"Cristian against rank 0, median of %d ping-pongs (Parsons 2015 Listing 3.1); "
               "piecewise-linear interpolation between consecutive synchronizations (MPI_Init, %s, MPI_Finalize)\",\n"
               "    \"rounds\": %d,\n",
            run.rounds, run.resync_s > 0 ? "periodic" : "no periodic", run.rounds);
#endif
    fprintf(f, "    \"resync\": {\"period_s\": %g, \"check_every\": %d, \"checks\": %d, \"skipped\": %d},\n",
            run.resync_s, run.resync_every, run.resync_checks, run.resync_skipped);
    fprintf(f, "    \"test_skew\": ");
    json_string(f, getenv("PAPCOLL_TRACE_TEST_SKEW") ? getenv("PAPCOLL_TRACE_TEST_SKEW") : "");
    fprintf(f, ",\n    \"sync\": [");
    for (int s = 0; s < run.synced; s++) {
        fprintf(f, "%s\n      {\"when\": \"%s\", \"t_local\": ", s ? "," : "", run.sync_when[s]);
        json_int64s(f, run.sync[s].t_local, run.size);
        fprintf(f, ",\n       \"offset\": ");
        json_int64s(f, run.sync[s].offset, run.size);
        fprintf(f, ",\n       \"error\": ");
        json_int64s(f, run.sync[s].error, run.size);
        if (s >= 2) {
            fprintf(f, ",\n       \"residual\": ");
            json_residuals(f, s);
        }
        fputc('}', f);
    }
    fprintf(f, "]\n  }");
    if (records) {
        fprintf(f, ",\n  \"records\": [");
        for (int r = 0; r < run.size; r++) fprintf(f, "%s%llu", r ? ", " : "", (unsigned long long)records[r]);
        fprintf(f, "],\n  \"spills\": [");
        for (int r = 0; r < run.size; r++) fprintf(f, "%s%llu", r ? ", " : "", (unsigned long long)spills[r]);
        fprintf(f, "],\n  \"ranks_ok\": [");
        for (int r = 0; r < run.size; r++) fprintf(f, "%s%s", r ? ", " : "", ok[r] ? "true" : "false");
        fputc(']', f);
    }
    fprintf(f, "\n}\n");
    if (fclose(f) || rename(tmp, path)) warn(path);
}

static int sync_clocks(const char *when)
{
    int rc = pt_clock_sync(run.world, run.rounds, &run.sync[run.synced]);
    if (rc == MPI_SUCCESS) run.sync_when[run.synced++] = when;
    return rc;
}

static int64_t seconds_ns(double s)
{
    return (int64_t)(s * 1e9);
}

void pt_run_resync_point(const pt_comm_t *comm, uint32_t seq, unsigned flags)
{
    if ((flags & PT_FLAG_NONBLOCKING) || comm->inter || comm->peers != run.size || run.synced == 0 ||
        (seq + 1) % (uint32_t)pt_resync_check != 0)
        return;
    int go = 0;
    if (run.rank == 0) {
        run.resync_checks++;
        if (pt_clock_now() >= run.next_resync) {
            go = run.synced < PT_SYNC_MAX - 1; /* the last slot is MPI_Finalize's */
            if (!go) run.resync_skipped++;
        }
    }
    PMPI_Bcast(&go, 1, MPI_INT, 0, run.world);
    pthread_mutex_lock(&run.lock);
    run.after_resync = 1;
    pthread_mutex_unlock(&run.lock);
    if (!go) return;
    if (sync_clocks("periodic") != MPI_SUCCESS) {
        fprintf(stderr, "papcoll trace[%d]: periodic clock synchronization failed; periodic synchronization off\n",
                run.rank);
        pt_resync_check = 0; /* an MPI error: every rank saw it alike, or the job is aborting */
        return;
    }
    if (run.rank == 0) {
        run.next_resync = pt_clock_now() + seconds_ns(run.resync_s);
        write_header(NULL, NULL, NULL);
    }
}

#ifndef PAPCOLL_SMPI
/* Rank 0 warns when another library's MPI_Bcast comes before the tracer's (LD_PRELOAD order): the calls that
 * library intercepts would reach the MPI library through PMPI and never be traced. */
static void check_preload_order(void)
{
    Dl_info self, first_info;
    if (!dladdr((void *)check_preload_order, &self) || !self.dli_fname) return;
    void *handle = dlopen(self.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
    if (!handle) return;
    void *ours = dlsym(handle, "MPI_Bcast"), *first = dlsym(RTLD_DEFAULT, "MPI_Bcast");
    if (ours && first && ours != first && dladdr(first, &first_info) && first_info.dli_fname)
        fprintf(stderr,
                "papcoll trace: MPI_Bcast resolves to %s before libpapcoll_trace.so: the collectives it defines "
                "are not traced; put libpapcoll_trace.so first in LD_PRELOAD\n",
                first_info.dli_fname);
    dlclose(handle);
}
#endif

static char *rank_path(char *path, size_t size, const char *suffix)
{
    snprintf(path, size, "%s/rank-%d.%s", run.dir, run.rank, suffix);
    return path;
}

void pt_initialize(void)
{
    int flag = 0;
    if (run.initialized || env_long("PAPCOLL_TRACE", 1) == 0) return;
    PMPI_Initialized(&flag);
    if (!flag) return;
    run.initialized = 1;
    PMPI_Comm_dup(MPI_COMM_WORLD, &run.world);
    PMPI_Comm_rank(run.world, &run.rank);
    PMPI_Comm_size(run.world, &run.size);
    run.rounds = (int)env_long("PAPCOLL_TRACE_SYNC_ROUNDS", 31);
    run.buffer_bytes = env_size("PAPCOLL_TRACE_BUFFER", 4u << 20);
    run.resync_s = env_double("PAPCOLL_TRACE_RESYNC", 0);
    long check = env_long("PAPCOLL_TRACE_RESYNC_CHECK", 64);
    /* rank 0's settings for what every rank must do alike (a launcher may not pass the environment to all) */
    double shared[3] = {(double)run.rounds, run.resync_s, (double)check};
    PMPI_Bcast(shared, 3, MPI_DOUBLE, 0, run.world);
    run.rounds = (int)shared[0];
    run.resync_s = shared[1];
    check = (long)shared[2];
#ifdef PAPCOLL_SMPI
    if (run.rank == 0 && run.resync_s > 0)
        fprintf(stderr, "papcoll trace: PAPCOLL_TRACE_RESYNC ignored under SMPI (one simulated clock)\n");
    run.rounds = 0;
    run.resync_s = 0; /* nothing to re-synchronize */
#endif
    pt_clock_set_test_skew(getenv("PAPCOLL_TRACE_TEST_SKEW"), run.rank);
    gather_nodes();
    int ok = make_run_dir();
    char path[PATH_MAX + 32];
    FILE *comms = NULL;
    if (ok && pt_buffer_open(&run.buffer, rank_path(path, sizeof path, "bin"), run.buffer_bytes, run.rank, run.size)) {
        warn(path);
        ok = 0;
    }
    if (ok && !(comms = fopen(rank_path(path, sizeof path, "comms"), "w"))) {
        warn(path);
        ok = 0;
    }
    if (ok && pt_comms_init(comms) != MPI_SUCCESS) ok = 0;
    int all_ok = 0;
    PMPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, run.world);
    if (all_ok && sync_clocks("init") != MPI_SUCCESS) all_ok = 0;
    if (!all_ok) {
        if (comms) pt_comms_finalize();
        pt_buffer_close(&run.buffer);
        run.failed = 1;
        return;
    }
    if (run.rank == 0) {
        write_header(NULL, NULL, NULL);
#ifndef PAPCOLL_SMPI
        check_preload_order();
#endif
    }
    run.next_resync = pt_clock_now() + seconds_ns(run.resync_s);
    run.resync_every = run.resync_s > 0 ? (int)(check >= 1 && check <= INT_MAX ? check : 64) : 0;
    pt_resync_check = run.resync_every;
    __atomic_store_n(&pt_active, 1, __ATOMIC_RELEASE);
}

void pt_run_record(const pt_record_t *r)
{
    pthread_mutex_lock(&run.lock);
    if (!run.failed && __atomic_load_n(&pt_active, __ATOMIC_RELAXED)) {
        pt_record_t copy = *r;
        if (run.after_resync) copy.flags |= PT_FLAG_AFTER_RESYNC;
        run.after_resync = 0;
        if (pt_sites_add(copy.site) || pt_buffer_append(&run.buffer, &copy)) {
            warn("writing the trace");
            run.failed = 1;
            /* with periodic synchronization on, the calls must still be counted (run.h): keep the wrappers on */
            if (!pt_resync_check) __atomic_store_n(&pt_active, 0, __ATOMIC_RELEASE);
        }
    }
    pthread_mutex_unlock(&run.lock);
}

void pt_finalize(void)
{
    if (!run.initialized || run.finalized) return;
    run.finalized = 1;
    pthread_mutex_lock(&run.lock);
    __atomic_store_n(&pt_active, 0, __ATOMIC_RELEASE);
    int ok = !run.failed;
    pthread_mutex_unlock(&run.lock);
    if (run.synced == 0) { /* setup failed at MPI_Init: nothing to write */
        PMPI_Comm_free(&run.world);
        return;
    }
    char path[PATH_MAX + 32];
    uint64_t records = run.buffer.written + run.buffer.count, spills = run.buffer.spills;
    if (pt_buffer_close(&run.buffer)) {
        warn("writing the trace");
        ok = 0;
    }
    char objects_path[PATH_MAX + 32];
    if (pt_sites_write(rank_path(path, sizeof path, "sites"),
                       rank_path(objects_path, sizeof objects_path, "objects"))) {
        warn(path);
        ok = 0;
    }
    pt_comms_finalize();
    pt_resync_check = 0;
    sync_clocks("finalize");
    uint64_t *all_records = NULL, *all_spills = NULL;
    int *all_ok = NULL;
    if (run.rank == 0) {
        all_records = malloc((size_t)run.size * sizeof(uint64_t));
        all_spills = malloc((size_t)run.size * sizeof(uint64_t));
        all_ok = malloc((size_t)run.size * sizeof(int));
    }
    PMPI_Gather(&records, 1, MPI_UINT64_T, all_records, 1, MPI_UINT64_T, 0, run.world);
    PMPI_Gather(&spills, 1, MPI_UINT64_T, all_spills, 1, MPI_UINT64_T, 0, run.world);
    PMPI_Gather(&ok, 1, MPI_INT, all_ok, 1, MPI_INT, 0, run.world);
    if (run.rank == 0) {
        uint64_t total = 0;
        for (int r = 0; r < run.size; r++) total += all_records[r];
        write_header(all_records, all_spills, all_ok);
        fprintf(stderr, "papcoll trace: %s (%llu collective calls of %d ranks)\n", run.dir, (unsigned long long)total,
                run.size);
        for (int s = 0; s < run.synced; s++) pt_clock_sync_free(&run.sync[s]);
        free(run.node_of_rank);
        free(run.hosts);
    }
    free(all_records);
    free(all_spills);
    free(all_ok);
    PMPI_Comm_free(&run.world);
}
