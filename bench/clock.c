/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * clock.c - see clock.h.
 */
#include "clock.h"

#include <time.h>

void gclock_init(gclock_t *c, int simulated)
{
    *c = (gclock_t){0};
    c->simulated = simulated;
}

double gclock_now(const gclock_t *c)
{
    double t = MPI_Wtime();
    return t - (c->offset + c->drift * (t - c->t_sync));
}

double gclock_wait_until(const gclock_t *c, double target)
{
    double now = gclock_now(c);
    if (c->simulated) {
        if (target > now) {
            double dt = target - now;
            struct timespec ts = {(time_t)dt, (long)((dt - (double)(time_t)dt) * 1e9)};
            nanosleep(&ts, NULL); /* smpi_nanosleep: advances simulated time */
        }
        return gclock_now(c);
    }
    while (now < target) now = gclock_now(c);
    return now;
}

enum { TAG_PING = 9001, TAG_PONG, TAG_RESULT };

int gclock_sync(gclock_t *c, MPI_Comm comm, int rounds)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    if (c->simulated) {
        c->synced = 1;
        return MPI_SUCCESS;
    }
    double residual = 0;
    for (int j = 1; j < size; j++) {
        if (rank == 0) {
            double best_rtt = 1e30, best_offset = 0, tj, result[2];
            for (int r = 0; r < rounds; r++) {
                double t0 = MPI_Wtime();
                PMPI_Send(&t0, 1, MPI_DOUBLE, j, TAG_PING, comm);
                PMPI_Recv(&tj, 1, MPI_DOUBLE, j, TAG_PONG, comm, MPI_STATUS_IGNORE);
                double t1 = MPI_Wtime();
                if (t1 - t0 < best_rtt) {
                    best_rtt = t1 - t0;
                    best_offset = tj - (t0 + t1) / 2;
                }
            }
            result[0] = best_offset;
            result[1] = best_rtt / 2;
            if (result[1] > residual) residual = result[1];
            PMPI_Send(result, 2, MPI_DOUBLE, j, TAG_RESULT, comm);
        } else if (rank == j) {
            for (int r = 0; r < rounds; r++) {
                double t0;
                PMPI_Recv(&t0, 1, MPI_DOUBLE, 0, TAG_PING, comm, MPI_STATUS_IGNORE);
                double tj = MPI_Wtime();
                PMPI_Send(&tj, 1, MPI_DOUBLE, 0, TAG_PONG, comm);
            }
            double result[2], now = MPI_Wtime();
            PMPI_Recv(result, 2, MPI_DOUBLE, 0, TAG_RESULT, comm, MPI_STATUS_IGNORE);
            if (c->synced && now > c->prev_t + 0.05)
                c->drift = (result[0] - c->prev_offset) / (now - c->prev_t);
            c->prev_offset = c->offset = result[0];
            c->prev_t = c->t_sync = now;
        }
    }
    c->residual = residual;
    c->synced = 1;
    return MPI_SUCCESS;
}
