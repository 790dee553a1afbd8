/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_moving_root - every scatter, gather, bcast and reduce algorithm
 * called the way mpi4py's test suite calls them: the root moving from call
 * to call, the count changing with every call, MPI_IN_PLACE at the root
 * (scatter, gather, reduce), integer types of 1, 2, 4 and 8 bytes, and one
 * process at a time falling behind for a while (a seeded random sleep
 * before some calls).  Collectives that do not synchronize (a scatter's
 * root and a reduce's non-roots send and leave) let the others run many
 * calls ahead of the process that sleeps: every message must still be
 * matched by the call that sent it.  Each call is checked on every process
 * (the reduce, MPI_BXOR, at the root).
 *
 *   mpirun -np 3 test_moving_root [--seed=N] [--colls=scatter,gather,bcast,reduce]
 *          [--algos=a,b] [--sleep-us=N] [--call-timeout=S]
 *
 * The first failure prints its replay options and aborts the job (the
 * other processes may be blocked in the call).  Run it on one real node
 * (PAPCOLL_PPN unset: every process on the root's node) and with virtual
 * nodes (PAPCOLL_PPN: dynamic leaders on the other nodes), with a tag window
 * of one call (PAPCOLL_TAG_WINDOW=1) for the collectives whose messages may
 * come any number of calls early: tests/CMakeLists.txt does all three.
 */
#include <papcoll.h>

#include "harness/lists.h"
#include "harness/watchdog.h"

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { MAX_COUNT = 9 };

static uint64_t rng_state;
static uint64_t rng_next(void) /* splitmix64: the same draws on every process */
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* The value of element i of process r's block in the call numbered `call`. */
static unsigned char value(int call, int r, int i) { return (unsigned char)(call * 7 + r * 31 + i * 3 + 1); }

static void fill(unsigned char *p, size_t elem, int count, int call, int r)
{
    for (int i = 0; i < count; i++)
        for (size_t b = 0; b < elem; b++) p[(size_t)i * elem + b] = value(call, r, i) ^ (unsigned char)b;
}

static int check(const unsigned char *p, size_t elem, int count, int call, int r)
{
    for (int i = 0; i < count; i++)
        for (size_t b = 0; b < elem; b++)
            if (p[(size_t)i * elem + b] != (value(call, r, i) ^ (unsigned char)b)) return 0;
    return 1;
}

/* One call of `coll` with `algo`: in place at the root, checked. */
static int one_call(const char *coll, const char *algo, MPI_Datatype type, size_t elem, int count, int root,
                    int call, unsigned char *all, unsigned char *mine)
{
    int rank, size, rc;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    size_t block = (size_t)count * elem;
    if (!strcmp(coll, "scatter")) {
        if (rank == root) {
            for (int r = 0; r < size; r++) fill(all + (size_t)r * block, elem, count, call, r);
            rc = papcoll_scatter_by_name(algo, all, count, type, MPI_IN_PLACE, count, type, root, MPI_COMM_WORLD);
            for (int r = 0; rc == MPI_SUCCESS && r < size; r++) /* the send buffer is left as it was */
                if (!check(all + (size_t)r * block, elem, count, call, r)) return -1;
        } else {
            memset(mine, 0xEE, block);
            rc = papcoll_scatter_by_name(algo, NULL, 0, type, mine, count, type, root, MPI_COMM_WORLD);
            if (rc == MPI_SUCCESS && !check(mine, elem, count, call, rank)) return -1;
        }
    } else if (!strcmp(coll, "bcast")) {
        if (rank == root) fill(mine, elem, count, call, root);
        else memset(mine, 0xEE, block);
        rc = papcoll_bcast_by_name(algo, mine, count, type, root, MPI_COMM_WORLD);
        if (rc == MPI_SUCCESS && !check(mine, elem, count, call, root)) return -1;
    } else if (!strcmp(coll, "reduce")) { /* MPI_BXOR of every process's block, in place at the root */
        fill(mine, elem, count, call, rank);
        rc = papcoll_reduce_by_name(algo, rank == root ? MPI_IN_PLACE : mine, rank == root ? mine : NULL, count,
                                    type, MPI_BXOR, root, MPI_COMM_WORLD);
        if (rc == MPI_SUCCESS && rank == root) {
            memset(all, 0, block);
            for (int r = 0; r < size; r++) {
                fill(all + block, elem, count, call, r);
                for (size_t b = 0; b < block; b++) all[b] ^= all[block + b];
            }
            if (memcmp(all, mine, block)) return -1;
        }
    } else {
        if (rank == root) {
            memset(all, 0xEE, (size_t)size * block);
            fill(all + (size_t)root * block, elem, count, call, root);
            rc = papcoll_gather_by_name(algo, MPI_IN_PLACE, count, type, all, count, type, root, MPI_COMM_WORLD);
            for (int r = 0; rc == MPI_SUCCESS && r < size; r++)
                if (!check(all + (size_t)r * block, elem, count, call, r)) return -1;
        } else {
            fill(mine, elem, count, call, rank);
            rc = papcoll_gather_by_name(algo, mine, count, type, NULL, 0, type, root, MPI_COMM_WORLD);
        }
    }
    return rc;
}

int main(int argc, char **argv)
{
    unsigned long long seed = 20261128;
    long sleep_us = 3000;
    int timeout = 60;
    const char *colls = "scatter,gather,bcast,reduce", *only = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strncmp(argv[i], "--seed=", 7)) seed = strtoull(argv[i] + 7, NULL, 10);
        else if (!strncmp(argv[i], "--colls=", 8)) colls = argv[i] + 8;
        else if (!strncmp(argv[i], "--algos=", 8)) only = argv[i] + 8;
        else if (!strncmp(argv[i], "--sleep-us=", 11)) sleep_us = atol(argv[i] + 11);
        else if (!strncmp(argv[i], "--call-timeout=", 15)) timeout = atoi(argv[i] + 15);
        else {
            fprintf(stderr, "usage: %s [--seed=N] [--colls=scatter,gather,bcast,reduce] [--algos=a,b] [--sleep-us=N] "
                            "[--call-timeout=S]\n", argv[0]);
            return 2;
        }
    }
    MPI_Init(&argc, &argv);
    int rank, size, calls = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    harness_watchdog_init(timeout, 0, rank);
    if (rank == 0) printf("test_moving_root: seed %llu, %d processes, sleep up to %ld us\n", seed, size, sleep_us);
    /* integer types: the reduce's MPI_BXOR takes them (MPI_CHAR is not in the standard's list for it) */
    const MPI_Datatype types[] = {MPI_SIGNED_CHAR, MPI_SHORT, MPI_INT, MPI_LONG_LONG};
    const size_t elems[] = {1, 2, 4, 8};
    unsigned char *all = malloc((size_t)(size + 1) * MAX_COUNT * 8), *mine = malloc(MAX_COUNT * 8);
    char **names;
    int ncolls = harness_list_split(colls, &names);
    for (int c = 0; c < ncolls; c++) {
        char **algos;
        int nalgos = harness_algorithms(names[c], only, &algos);
        for (int a = 0; a < nalgos; a++) {
            rng_state = seed ^ ((uint64_t)c << 40) ^ ((uint64_t)a << 32);
            int call = 0;
            for (int t = 0; t < 4; t++)
                for (int root = 0; root < size; root++)
                    for (int count = 1; count <= MAX_COUNT; count++, call++) {
                        /* one process in eight calls falls behind for up to sleep_us */
                        uint64_t draw = rng_next();
                        if (draw % 8 == 0 && (int)(draw >> 8) % size == rank)
                            usleep((useconds_t)((draw >> 24) % (uint64_t)(sleep_us + 1)));
                        harness_watchdog_label("%s %s call %d: type of %zu bytes, root %d, count %d", names[c],
                                               algos[a], call, elems[t], root, count);
                        harness_watchdog_arm();
                        int rc = one_call(names[c], algos[a], types[t], elems[t], count, root, call, all, mine);
                        harness_watchdog_call_done();
                        calls++;
                        if (rc != MPI_SUCCESS) {
                            char msg[MPI_MAX_ERROR_STRING] = "wrong data";
                            int len;
                            if (rc > 0) MPI_Error_string(rc, msg, &len);
                            printf("FAIL rank %d: %s %s call %d (type of %zu bytes, root %d, count %d): %s\n", rank,
                                   names[c], algos[a], call, elems[t], root, count, msg);
                            printf("replay: --seed=%llu --colls=%s --algos=%s\n", seed, names[c], algos[a]);
                            fflush(stdout);
                            MPI_Abort(MPI_COMM_WORLD, 1); /* the others may be blocked in the call */
                        }
                    }
        }
        harness_list_free(algos, nalgos);
    }
    harness_list_free(names, ncolls);
    harness_watchdog_off();
    int total = 0;
    MPI_Reduce(&calls, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) printf("%d calls checked on every process, all passed\n", total);
    free(all);
    free(mine);
    MPI_Finalize();
    return 0;
}
