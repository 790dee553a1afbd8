/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * app_mixed.c - an unmodified program mixing, on one communicator, blocking,
 * nonblocking and persistent collectives with its own point-to-point
 * requests, through the preloaded interposer.  Each of 16 rounds:
 *   - persistent MPI_Bcast_init, MPI_Allreduce_init, MPI_Alltoall_init and
 *     MPI_Reduce_scatter_block_init requests (made once; Open MPI:
 *     MPIX_<Coll>_init) started in an order of this process's own, a
 *     persistent receive among them;
 *   - MPI_Ibcast (moving root), MPI_Iallreduce, MPI_Iallgatherv started;
 *   - a blocking MPI_Allreduce and MPI_Bcast while all those are active;
 *   - an MPI_Irecv / MPI_Isend ring exchange;
 *   - all of them in one array, shuffled by each process its own way,
 *     completed by one of Wait, Waitall, Waitany, Waitsome, Test, Testall,
 *     Testany, Testsome (round after round), then every result checked.
 * Usage: app_mixed SEED; exit 0 and "OK" on success.  Without persistent
 * collectives in the MPI library the rounds run without them.  With papcoll
 * preloaded (papcoll_last_algorithm, dlsym), every init must be served.
 */
#include <mpi.h>

#include <string.h>

#include "app_nbc_util.h"
#include "app_persistent_init.h"

enum { N = 64, ROUNDS = 16, MAXR = 16 };

static int value(int r, int d, int i, int round) { return r * 10000 + d * 100 + i + round * 7; }

typedef struct {
    int pbuf[N], pin[N], pout[N], a2a_in[N], a2a_out[N], rsb_in[N], rsb_out[N], precv[N];
    MPI_Request req[5];
    int n;
} persistent_t;

/* Makes the persistent requests on comm (none without persistent collectives). */
static void make_persistent(MPI_Comm comm, persistent_t *ps, int p)
{
    ps->n = 0;
    int left = (rank_w + p - 1) % p;
    MPI_Recv_init(ps->precv, N, MPI_INT, left, 9, MPI_COMM_WORLD, &ps->req[ps->n++]);
#ifdef INIT
    INIT(Bcast)(ps->pbuf, N, MPI_INT, p - 1, comm, MPI_INFO_NULL, &ps->req[ps->n++]);
    INIT(Allreduce)(ps->pin, ps->pout, N, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &ps->req[ps->n++]);
    INIT(Alltoall)(ps->a2a_in, 2, MPI_INT, ps->a2a_out, 2, MPI_INT, comm, MPI_INFO_NULL, &ps->req[ps->n++]);
    INIT(Reduce_scatter_block)(ps->rsb_in, ps->rsb_out, 3, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &ps->req[ps->n++]);
    if (last_algorithm) CHECK(strcmp(last_algorithm(), "native") != 0, "the persistent inits were not served");
#else
    (void)comm;
#endif
}

static void fill_persistent(persistent_t *ps, int p, int round)
{
    for (int i = 0; i < N; i++) {
        ps->pbuf[i] = rank_w == p - 1 ? value(p - 1, 0, i, round) : -1;
        ps->pin[i] = value(rank_w, 0, i, round);
        ps->pout[i] = ps->a2a_out[i] = ps->rsb_out[i] = ps->precv[i] = -1;
    }
    for (int d = 0; d < p; d++)
        for (int i = 0; i < 3; i++) {
            if (i < 2) ps->a2a_in[d * 2 + i] = value(rank_w, d, i, round);
            ps->rsb_in[d * 3 + i] = value(rank_w, d, i, round);
        }
}

static void check_persistent(const persistent_t *ps, int p, int round)
{
    int left = (rank_w + p - 1) % p, sum_r = 10000 * p * (p - 1) / 2;
    for (int i = 0; i < N; i++) CHECK(ps->precv[i] == value(left, 1, i, round), "round %d: persistent recv", round);
    if (ps->n == 1) return;
    for (int i = 0; i < N; i++) {
        CHECK(ps->pbuf[i] == value(p - 1, 0, i, round), "round %d: persistent bcast [%d]", round, i);
        CHECK(ps->pout[i] == sum_r + p * value(0, 0, i, round), "round %d: persistent allreduce [%d]", round, i);
    }
    for (int j = 0; j < p; j++)
        for (int i = 0; i < 2; i++)
            CHECK(ps->a2a_out[j * 2 + i] == value(j, rank_w, i, round), "round %d: persistent alltoall", round);
    for (int i = 0; i < 3; i++)
        CHECK(ps->rsb_out[i] == sum_r + p * value(0, rank_w, i, round), "round %d: persistent reduce_scatter_block", round);
}

/* A permutation of 0..n-1 of this process's own. */
static void shuffle(int *order, int n)
{
    for (int i = 0; i < n; i++) order[i] = i;
    for (int i = n - 1; i > 0; i--) {
        int j = rand_r(&seed) % (i + 1), t = order[i];
        order[i] = order[j], order[j] = t;
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    app_nbc_setup(argc, argv);
    int p;
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_size(comm, &p);
    int right = (rank_w + 1) % p, left = (rank_w + p - 1) % p;
    static persistent_t ps;
    make_persistent(comm, &ps, p);
    int psend[N];
    MPI_Request psend_req;
    MPI_Send_init(psend, N, MPI_INT, right, 9, MPI_COMM_WORLD, &psend_req);
    int *counts = malloc(sizeof(int) * (size_t)p), *displs = malloc(sizeof(int) * (size_t)p);
    for (int j = 0, at = 0; j < p; at += j + 1, j++) counts[j] = j + 1, displs[j] = at;
    for (int round = 0; round < ROUNDS; round++) {
        int root = round % p, sum_r = 10000 * p * (p - 1) / 2;
        int ib[N], ar_in[N], ar_out[N], agv_in[N], agv_out[N], rv[N], sv[N], block_in[N], block_out[N], bb[N];
        for (int i = 0; i < N; i++) {
            ib[i] = rank_w == root ? value(root, 3, i, round) : -1;
            ar_in[i] = value(rank_w, 0, i, round), ar_out[i] = agv_out[i] = rv[i] = -1;
            agv_in[i] = value(rank_w, 4, i, round);
            sv[i] = value(rank_w, 2, i, round), psend[i] = value(rank_w, 1, i, round);
            block_in[i] = value(rank_w, 5, i, round), block_out[i] = -1;
            bb[i] = rank_w == p - 1 - root ? value(p - 1 - root, 6, i, round) : -1;
        }
        fill_persistent(&ps, p, round);
        MPI_Request all[MAXR];
        char persistent[MAXR] = {0};
        int n = 0;
        /* the persistent ones, started in this process's own order */
        int porder[5];
        shuffle(porder, ps.n);
        for (int k = 0; k < ps.n; k++) {
            MPI_Start(&ps.req[porder[k]]);
            persistent[n] = 1, all[n++] = ps.req[porder[k]];
        }
        MPI_Start(&psend_req);
        persistent[n] = 1, all[n++] = psend_req;
        /* the nonblocking ones (in the same order everywhere, as MPI requires) */
        MPI_Ibcast(ib, N, MPI_INT, root, comm, &all[n++]);
        MPI_Iallreduce(ar_in, ar_out, N, MPI_INT, MPI_SUM, comm, &all[n++]);
        MPI_Iallgatherv(agv_in, rank_w + 1, MPI_INT, agv_out, counts, displs, MPI_INT, comm, &all[n++]);
        /* blocking ones while those are active */
        MPI_Allreduce(block_in, block_out, N, MPI_INT, MPI_SUM, comm);
        MPI_Bcast(bb, N, MPI_INT, p - 1 - root, comm);
        MPI_Irecv(rv, N, MPI_INT, left, 8, MPI_COMM_WORLD, &all[n++]);
        MPI_Isend(sv, N, MPI_INT, right, 8, MPI_COMM_WORLD, &all[n++]);
        /* every order: each process shuffles the array its own way */
        MPI_Request mixed[MAXR];
        char mixed_persistent[MAXR];
        int perm[MAXR];
        shuffle(perm, n);
        for (int k = 0; k < n; k++) mixed[k] = all[perm[k]], mixed_persistent[k] = persistent[perm[k]];
        complete_some_persistent(mixed, n, round, mixed_persistent);
        for (int i = 0; i < N; i++) {
            CHECK(block_out[i] == sum_r + p * value(0, 5, i, round), "round %d: MPI_Allreduce", round);
            CHECK(bb[i] == value(p - 1 - root, 6, i, round), "round %d: MPI_Bcast", round);
            CHECK(ib[i] == value(root, 3, i, round), "round %d: MPI_Ibcast", round);
            CHECK(ar_out[i] == sum_r + p * value(0, 0, i, round), "round %d: MPI_Iallreduce", round);
            CHECK(rv[i] == value(left, 2, i, round), "round %d: MPI_Irecv", round);
        }
        for (int j = 0; j < p; j++)
            for (int i = 0; i <= j; i++)
                CHECK(agv_out[displs[j] + i] == value(j, 4, i, round), "round %d: MPI_Iallgatherv", round);
        check_persistent(&ps, p, round);
        if (failures) break;
    }
    for (int k = 0; k < ps.n; k++) MPI_Request_free(&ps.req[k]);
    MPI_Request_free(&psend_req);
    free(counts), free(displs);
    MPI_Comm_free(&comm);
    int total = 0;
    MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank_w == 0)
        printf("app_mixed: np=%d papcoll=%s persistent=%s: %s\n", p, last_algorithm ? "preloaded" : "absent",
               ps.n > 1 ? "yes" : "no", total ? "FAIL" : "OK");
    MPI_Finalize();
    return total ? 1 : 0;
}
