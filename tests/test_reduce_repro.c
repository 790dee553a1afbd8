/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_reduce_repro - PAPCOLL_REPRODUCIBLE=1 gives the same result bits
 * whatever the arrival order: MPI_DOUBLE + MPI_SUM of values of very
 * different magnitudes (so that the combination order shows in the low
 * bits), each repetition with a new random arrival order (a seeded sleep of
 * 0 to --sleep-us per process), every process's result compared bit for
 * bit with rank 0's of the first repetition.  With PAPCOLL_REPRODUCIBLE=0
 * the bits may differ (landing order): --expect-any prints how many
 * repetitions differed and passes.  --coll=reduce runs MPI_Reduce's
 * algorithms instead (root 0: its result compared).
 *
 *   mpirun -np 7 test_reduce_repro [--coll=allreduce|reduce] [--algos=straggler] [--reps=N]
 *          [--count=N] [--sleep-us=N] [--seed=N] [--expect-any]
 */
#include <papcoll.h>

#include "test_random.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    const char *algos = "straggler", *coll = "allreduce";
    int reps = 12, count = 1000, sleep_us = 3000, expect_any = 0, rank, size, failures = 0, differed = 0;
    unsigned long seed = 12345;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int i = 1; i < argc; i++) {
        if (!strncmp(argv[i], "--algos=", 8)) algos = argv[i] + 8;
        else if (!strncmp(argv[i], "--coll=", 7) && (!strcmp(argv[i] + 7, "reduce") || !strcmp(argv[i] + 7, "allreduce")))
            coll = argv[i] + 7;
        else if (!strncmp(argv[i], "--reps=", 7)) reps = atoi(argv[i] + 7);
        else if (!strncmp(argv[i], "--count=", 8)) count = atoi(argv[i] + 8);
        else if (!strncmp(argv[i], "--sleep-us=", 11)) sleep_us = atoi(argv[i] + 11);
        else if (!strncmp(argv[i], "--seed=", 7)) seed = strtoul(argv[i] + 7, NULL, 10);
        else if (!strcmp(argv[i], "--expect-any")) expect_any = 1;
        else {
            if (!rank) fprintf(stderr, "test_reduce_repro: unknown option %s\n", argv[i]);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    }
    double *in = malloc((size_t)count * sizeof *in), *out = malloc((size_t)count * sizeof *out);
    double *first = malloc((size_t)count * sizeof *first);
    test_rng_t g;
    test_rng_seed(&g, seed * 1000003u + (unsigned long)rank);
    for (int i = 0; i < count; i++) /* magnitudes 1e-8 .. 1e8: rounding depends on the order */
        in[i] = (test_rng_unit(&g) - 0.3) * __builtin_powi(10.0, (int)(test_rng_next(&g) % 17) - 8);
    char *list = strdup(algos);
    for (char *algo = strtok(list, ","); algo; algo = strtok(NULL, ",")) {
        for (int r = 0; r < reps; r++) {
            test_rng_t d;
            test_rng_seed(&d, seed + 7919u * (unsigned long)r + 104729u * (unsigned long)rank);
            MPI_Barrier(MPI_COMM_WORLD);
            if (sleep_us > 0) usleep((useconds_t)test_rng_below(&d, sleep_us + 1));
            int reduce = !strcmp(coll, "reduce");
            int rc = reduce ? papcoll_reduce_by_name(algo, in, out, count, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD)
                            : papcoll_allreduce_by_name(algo, in, out, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
            if (rc != MPI_SUCCESS) {
                fprintf(stderr, "test_reduce_repro: %s rep %d rank %d: error %d\n", algo, r, rank, rc);
                failures++;
                break;
            }
            if (r == 0) {
                memcpy(first, out, (size_t)count * sizeof *out);
                MPI_Bcast(first, count, MPI_DOUBLE, 0, MPI_COMM_WORLD);
            }
            int same = (reduce && rank) || !memcmp(first, out, (size_t)count * sizeof *out), all;
            MPI_Allreduce(&same, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
            if (!all) {
                differed++;
                if (!expect_any && !same)
                    fprintf(stderr, "test_reduce_repro: %s rep %d rank %d: bits differ from rank 0's first result\n",
                            algo, r, rank), failures++;
            }
        }
    }
    int total;
    MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (!rank)
        printf("test_reduce_repro: np=%d %s algos=%s reps=%d count=%d: %d repetitions differed, %s\n", size, coll,
               algos, reps, count, differed, total ? "FAILED" : "OK");
    free(list), free(in), free(out), free(first);
    MPI_Finalize();
    return total ? 1 : 0;
}
