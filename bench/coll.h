/*
 * coll.h - the collectives papcoll-bench measures, by the names of --coll and
 * of papcoll's catalogue (papcoll_algorithm_count("reduce"), ...).  No MPI.
 */
#ifndef PB_COLL_H
#define PB_COLL_H

#include <string.h>

typedef enum bench_coll { BENCH_BCAST, BENCH_REDUCE, BENCH_ALLREDUCE } bench_coll_t;

static inline const char *bench_coll_name(bench_coll_t coll)
{
    return coll == BENCH_REDUCE ? "reduce" : coll == BENCH_ALLREDUCE ? "allreduce" : "bcast";
}

/* 0 and *coll for "bcast", "reduce" or "allreduce"; -1 for any other name. */
static inline int bench_coll_parse(const char *name, bench_coll_t *coll)
{
    const bench_coll_t all[] = {BENCH_BCAST, BENCH_REDUCE, BENCH_ALLREDUCE};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        if (!strcmp(name, bench_coll_name(all[i]))) {
            *coll = all[i];
            return 0;
        }
    return -1;
}

#endif
