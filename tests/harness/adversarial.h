/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * adversarial.h - the options the adversarial-arrival tests share
 * (test_bcast_adversarial, test_reduce_adversarial): which parts, arrival
 * patterns, virtual nodes and seed, and the sizes of the patterns, stress
 * and communicators parts (see those tests' comments for their meaning).
 */
#ifndef PC_HARNESS_ADVERSARIAL_H
#define PC_HARNESS_ADVERSARIAL_H

#include "options.h"

typedef struct {
    const char *algos, *parts, *patterns;
    int ppn, calls, delay_us, stress_calls, stress_max, stress_big, stress_delay_us, comms, comm_cycles, comm_max,
        call_timeout;
    double stress_big_prob;
    unsigned long long seed;
} harness_adversarial_options_t;

/* Sets o from argv[1..]: --algos, --parts, --patterns, --ppn, --seed,
 * --calls, --delay-us, --stress-calls, --stress-max, --stress-big,
 * --stress-big-prob, --stress-delay-us, --comms, --comm-cycles, --comm-max,
 * --call-timeout and the test's own options (`own`, NULL or ending with
 * {NULL}).  Returns the first argument that is none of them (NULL: all
 * are); the arguments after it are left alone. */
const char *harness_adversarial_parse(harness_adversarial_options_t *o, const harness_opt_t *own, int argc,
                                      char **argv);

/* A part of an adversarial test (patterns, stress, comms). */
typedef struct {
    const char *name;
    void (*run)(void);
} harness_part_t;

/* Runs the parts that the list `selected` names, in order, each between two
 * barriers of MPI_COMM_WORLD, and prints on rank 0 what each added to the
 * counters, summed over the processes: "  part NAME C calls per process[
 * (R refused with MPI_ERR_OP as expected)], F failures, T s[ (simulated)]"
 * (refused NULL: not counted).  Returns the failures of all the parts. */
long harness_run_parts(const harness_part_t *parts, int nparts, const char *selected, const long *failures,
                       const long *calls, const long *refused);

#endif
