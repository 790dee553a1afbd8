/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * coll.h - the collectives papcoll-bench measures, by the names of --coll,
 * the name of each in papcoll's catalogue (papcoll_algorithm_count) and the
 * classes the benchmark treats alike.  A v form (allgatherv, alltoallv,
 * gatherv, scatterv), reduce_scatter_block and exscan measure another entry
 * point of the same collective, whose algorithms are the same (alltoallw:
 * alltoallv's blocks with byte displacements and one datatype per peer):
 * --coll=allgatherv runs the algorithms of "allgather",
 * --coll=reduce_scatter_block those of "reduce_scatter", --coll=exscan those
 * of "scan".  No MPI.
 */
#ifndef PB_COLL_H
#define PB_COLL_H

#include <string.h>

typedef enum bench_coll {
    BENCH_BCAST,
    BENCH_REDUCE,
    BENCH_ALLREDUCE,
    BENCH_ALLGATHER,
    BENCH_ALLGATHERV,
    BENCH_REDUCE_SCATTER,       /* MPI_Reduce_scatter: recvcounts[r] unequal (blocks.h) */
    BENCH_REDUCE_SCATTER_BLOCK, /* MPI_Reduce_scatter_block */
    BENCH_ALLTOALL,
    BENCH_ALLTOALLV,
    BENCH_ALLTOALLW,            /* MPI_Alltoallw: alltoallv's blocks, byte displacements, a datatype per peer */
    BENCH_GATHER,
    BENCH_GATHERV,
    BENCH_SCATTER,
    BENCH_SCATTERV,
    BENCH_BARRIER, /* no data: the message sizes are ignored (one row, size 0) */
    BENCH_SCAN,    /* MPI_Scan: rank r's result depends on ranks 0..r */
    BENCH_EXSCAN,  /* MPI_Exscan: on ranks 0..r-1 (rank 0's buffer untouched) */
    BENCH_COLL_COUNT
} bench_coll_t;

#define BENCH_COLL_NAMES                                                                                               \
    "bcast, reduce, allreduce, allgather, allgatherv, reduce_scatter, reduce_scatter_block, alltoall, alltoallv, alltoallw, "     \
    "gather, gatherv, scatter, scatterv, barrier, scan or exscan"

static inline const char *bench_coll_name(bench_coll_t coll)
{
    switch (coll) {
    case BENCH_REDUCE: return "reduce";
    case BENCH_ALLREDUCE: return "allreduce";
    case BENCH_ALLGATHER: return "allgather";
    case BENCH_ALLGATHERV: return "allgatherv";
    case BENCH_REDUCE_SCATTER: return "reduce_scatter";
    case BENCH_REDUCE_SCATTER_BLOCK: return "reduce_scatter_block";
    case BENCH_ALLTOALL: return "alltoall";
    case BENCH_ALLTOALLV: return "alltoallv";
    case BENCH_ALLTOALLW: return "alltoallw";
    case BENCH_GATHER: return "gather";
    case BENCH_GATHERV: return "gatherv";
    case BENCH_SCATTER: return "scatter";
    case BENCH_SCATTERV: return "scatterv";
    case BENCH_BARRIER: return "barrier";
    case BENCH_SCAN: return "scan";
    case BENCH_EXSCAN: return "exscan";
    default: return "bcast";
    }
}

/* papcoll's name of the collective (the catalogue of its algorithms). */
static inline const char *bench_coll_catalogue(bench_coll_t coll)
{
    switch (coll) {
    case BENCH_ALLGATHERV: return "allgather";
    case BENCH_REDUCE_SCATTER_BLOCK: return "reduce_scatter";
    case BENCH_ALLTOALLV: return "alltoall";
    case BENCH_ALLTOALLW: return "alltoall";
    case BENCH_GATHERV: return "gather";
    case BENCH_SCATTERV: return "scatter";
    case BENCH_EXSCAN: return "scan";
    default: return bench_coll_name(coll);
    }
}

/* 1 for the forms with unequal counts (blocks.h): allgatherv, reduce_scatter
 * (MPI_Reduce_scatter's recvcounts), alltoallv, alltoallw, gatherv, scatterv. */
static inline int bench_coll_vform(bench_coll_t coll)
{
    return coll == BENCH_ALLGATHERV || coll == BENCH_REDUCE_SCATTER || coll == BENCH_ALLTOALLV || coll == BENCH_ALLTOALLW ||
           coll == BENCH_GATHERV || coll == BENCH_SCATTERV;
}

/* 1 for the collectives with a root (bcast, reduce, gather(v), scatter(v));
 * the others' -k only anchors root-relative arrival patterns. */
static inline int bench_coll_rooted(bench_coll_t coll)
{
    return coll == BENCH_BCAST || coll == BENCH_REDUCE || coll == BENCH_GATHER || coll == BENCH_GATHERV ||
           coll == BENCH_SCATTER || coll == BENCH_SCATTERV;
}

/* 1 for the fan-ins to a root (reduce, gather(v)): only the root needs every
 * input (metrics.h: root_bound). */
static inline int bench_coll_fan_in(bench_coll_t coll)
{
    return coll == BENCH_REDUCE || coll == BENCH_GATHER || coll == BENCH_GATHERV;
}

/* 1 for the fan-outs from a root (bcast, scatter(v)): everybody waits for
 * the root (metrics.h: Patarasuk & Yuan 2008 Lemma 2). */
static inline int bench_coll_fan_out(bench_coll_t coll)
{
    return coll == BENCH_BCAST || coll == BENCH_SCATTER || coll == BENCH_SCATTERV;
}

/* 1 for the reductions (MPI_SUM of exact integers): reduce, allreduce,
 * reduce_scatter(_block), scan, exscan. */
static inline int bench_coll_reduces(bench_coll_t coll)
{
    return coll == BENCH_REDUCE || coll == BENCH_ALLREDUCE || coll == BENCH_REDUCE_SCATTER ||
           coll == BENCH_REDUCE_SCATTER_BLOCK || coll == BENCH_SCAN || coll == BENCH_EXSCAN;
}

/* 1 for the prefix reductions (scan, exscan): rank i needs the inputs of
 * the ranks below it only (metrics.h). */
static inline int bench_coll_prefix(bench_coll_t coll) { return coll == BENCH_SCAN || coll == BENCH_EXSCAN; }

/* 1 for the collectives that move blocks of hashed values (blocks.h):
 * allgather(v), alltoall(v,w), gather(v), scatter(v). */
static inline int bench_coll_gathers(bench_coll_t coll)
{
    return coll == BENCH_ALLGATHER || coll == BENCH_ALLGATHERV || coll == BENCH_ALLTOALL || coll == BENCH_ALLTOALLV ||
           coll == BENCH_ALLTOALLW ||
           coll == BENCH_GATHER || coll == BENCH_GATHERV || coll == BENCH_SCATTER || coll == BENCH_SCATTERV;
}

/* 0 and *coll for one of BENCH_COLL_NAMES; -1 for any other name. */
static inline int bench_coll_parse(const char *name, bench_coll_t *coll)
{
    for (int i = 0; i < BENCH_COLL_COUNT; i++)
        if (!strcmp(name, bench_coll_name((bench_coll_t)i))) {
            *coll = (bench_coll_t)i;
            return 0;
        }
    return -1;
}

#endif
