/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * adversarial.c - see adversarial.h.
 */
#include "adversarial.h"

#include "lists.h"

#include <mpi.h>
#include <stddef.h>
#include <stdio.h>

const char *harness_adversarial_parse(harness_adversarial_options_t *o, const harness_opt_t *own, int argc,
                                      char **argv)
{
    const harness_opt_t common[] = {
        {"algos", HARNESS_OPT_STRING, &o->algos},
        {"parts", HARNESS_OPT_STRING, &o->parts},
        {"patterns", HARNESS_OPT_STRING, &o->patterns},
        {"ppn", HARNESS_OPT_INT, &o->ppn},
        {"seed", HARNESS_OPT_ULL, &o->seed},
        {"calls", HARNESS_OPT_INT, &o->calls},
        {"delay-us", HARNESS_OPT_INT, &o->delay_us},
        {"stress-calls", HARNESS_OPT_INT, &o->stress_calls},
        {"stress-max", HARNESS_OPT_INT, &o->stress_max},
        {"stress-big", HARNESS_OPT_INT, &o->stress_big},
        {"stress-big-prob", HARNESS_OPT_DOUBLE, &o->stress_big_prob},
        {"stress-delay-us", HARNESS_OPT_INT, &o->stress_delay_us},
        {"comms", HARNESS_OPT_INT, &o->comms},
        {"comm-cycles", HARNESS_OPT_INT, &o->comm_cycles},
        {"comm-max", HARNESS_OPT_INT, &o->comm_max},
        {"call-timeout", HARNESS_OPT_INT, &o->call_timeout},
        {NULL, HARNESS_OPT_STRING, NULL}};
    for (int i = 1; i < argc; i++)
        if (!harness_option_set(common, argv[i]) && !(own && harness_option_set(own, argv[i]))) return argv[i];
    return NULL;
}

long harness_run_parts(const harness_part_t *parts, int nparts, const char *selected, const long *failures,
                       const long *calls, const long *refused)
{
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long total_failures = 0;
    for (int p = 0; p < nparts; p++) {
        if (!harness_list_has(selected, parts[p].name)) continue;
        long before[3] = {*failures, *calls, refused ? *refused : 0}, sums[3];
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        parts[p].run();
        MPI_Barrier(MPI_COMM_WORLD);
        double t = MPI_Wtime() - t0;
        long added[3] = {*failures - before[0], *calls - before[1], refused ? *refused - before[2] : 0};
        MPI_Allreduce(added, sums, 3, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
        total_failures += sums[0];
        if (rank != 0) continue;
        char refusals[80] = "";
        if (refused)
            snprintf(refusals, sizeof refusals, " (%ld refused with MPI_ERR_OP as expected)", sums[2] / size);
        printf("  part %-8s %6ld calls per process%s, %ld failures, %.2f s%s\n", parts[p].name, sums[1] / size,
               refusals, sums[0], t,
#ifdef PAPCOLL_SMPI
               " (simulated)"
#else
               ""
#endif
        );
        fflush(stdout);
    }
    return total_failures;
}
