/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * clock.c - Cristian's clock synchronization against rank 0 (see clock.h);
 * under SMPI, the record of the one simulated clock's zero offsets.
 */
#include "clock.h"

#include <stdio.h>
#include <stdlib.h>

pt_skew_t pt_skew;

#ifdef PAPCOLL_SMPI
void pt_clock_set_test_skew(const char *spec, int world_rank)
{
    if (spec && *spec && world_rank == 0)
        fprintf(stderr, "papcoll trace: PAPCOLL_TRACE_TEST_SKEW ignored under SMPI (one simulated clock)\n");
}

/* One clock for every rank: offsets and bounds 0, every rank's t_local the time of this point. */
int pt_clock_sync(MPI_Comm comm, int rounds, pt_sync_t *sync)
{
    int rank, size;
    (void)rounds;
    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    *sync = (pt_sync_t){0};
    if (rank != 0) return MPI_SUCCESS;
    sync->t_local = calloc((size_t)size, sizeof(int64_t));
    sync->offset = calloc((size_t)size, sizeof(int64_t));
    sync->error = calloc((size_t)size, sizeof(int64_t));
    if (!sync->t_local || !sync->offset || !sync->error) {
        pt_clock_sync_free(sync);
        return MPI_ERR_NO_MEM;
    }
    int64_t now = pt_clock_now();
    for (int r = 0; r < size; r++) sync->t_local[r] = now;
    return MPI_SUCCESS;
}
#else
void pt_clock_set_test_skew(const char *spec, int world_rank)
{
    double offset_us = 0, drift_ppm = 0, accel_ppm_per_s = 0;
    if (!spec || sscanf(spec, "%lf,%lf,%lf", &offset_us, &drift_ppm, &accel_ppm_per_s) < 1) return;
    pt_skew.offset_ns = (int64_t)(world_rank * offset_us * 1e3);
    pt_skew.rate = world_rank * drift_ppm * 1e-6;
    /* rate(t) = rate + A t, A = accel ppm/s = accel * 1e-6 / 1e9 per ns; its integral adds A t^2 / 2 */
    pt_skew.accel = world_rank * accel_ppm_per_s * 1e-15 / 2;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    pt_skew.base = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
    pt_skew.active = pt_skew.offset_ns != 0 || pt_skew.rate != 0 || pt_skew.accel != 0;
}

enum { TAG_PING = 31071, TAG_PONG };

/* order[0..n) sorted by estimate (insertion sort: n is a few dozen). */
static void sort_by_estimate(int *order, int n, const int64_t *estimate)
{
    for (int i = 1; i < n; i++) {
        int k = order[i], j = i;
        for (; j > 0 && estimate[order[j - 1]] > estimate[k]; j--) order[j] = order[j - 1];
        order[j] = k;
    }
}

/* Rank 0's side of Listing 3.1 with rank j: rounds exchanges, the median estimate. */
static int sync_with(MPI_Comm comm, int j, int rounds, int64_t *estimate, int64_t *rtt, int64_t *remote, int *order,
                     pt_sync_t *sync)
{
    for (int i = 0; i < rounds; i++) {
        int64_t t_remote;
        int64_t t_send = pt_clock_now();
        int rc = PMPI_Send(NULL, 0, MPI_BYTE, j, TAG_PING, comm);
        if (rc == MPI_SUCCESS) rc = PMPI_Recv(&t_remote, 1, MPI_INT64_T, j, TAG_PONG, comm, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS) return rc;
        int64_t t_recv = pt_clock_now();
        estimate[i] = t_send + (t_recv - t_send) / 2 - t_remote;
        rtt[i] = t_recv - t_send;
        remote[i] = t_remote;
        order[i] = i;
    }
    sort_by_estimate(order, rounds, estimate);
    int median = order[rounds / 2];
    sync->offset[j] = estimate[median];
    sync->error[j] = (rtt[median] + 1) / 2;
    sync->t_local[j] = remote[median];
    return MPI_SUCCESS;
}

int pt_clock_sync(MPI_Comm comm, int rounds, pt_sync_t *sync)
{
    int rank, size, rc = MPI_SUCCESS;
    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    *sync = (pt_sync_t){0};
    if (rounds < 1) rounds = 1;
    if (rank != 0) {
        for (int i = 0; i < rounds && rc == MPI_SUCCESS; i++) {
            rc = PMPI_Recv(NULL, 0, MPI_BYTE, 0, TAG_PING, comm, MPI_STATUS_IGNORE);
            int64_t now = pt_clock_now();
            if (rc == MPI_SUCCESS) rc = PMPI_Send(&now, 1, MPI_INT64_T, 0, TAG_PONG, comm);
        }
        return rc;
    }
    sync->t_local = calloc((size_t)size, sizeof(int64_t));
    sync->offset = calloc((size_t)size, sizeof(int64_t));
    sync->error = calloc((size_t)size, sizeof(int64_t));
    int64_t *scratch = malloc((size_t)rounds * 3 * sizeof(int64_t));
    int *order = malloc((size_t)rounds * sizeof(int));
    if (!sync->t_local || !sync->offset || !sync->error || !scratch || !order) {
        rc = MPI_ERR_NO_MEM;
        goto out;
    }
    sync->t_local[0] = pt_clock_now();
    for (int j = 1; j < size && rc == MPI_SUCCESS; j++)
        rc = sync_with(comm, j, rounds, scratch, scratch + rounds, scratch + 2 * rounds, order, sync);
out:
    free(scratch);
    free(order);
    if (rc != MPI_SUCCESS) pt_clock_sync_free(sync);
    return rc;
}
#endif

void pt_clock_sync_free(pt_sync_t *sync)
{
    free(sync->t_local);
    free(sync->offset);
    free(sync->error);
    *sync = (pt_sync_t){0};
}
