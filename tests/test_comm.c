/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_comm - the context of a communicator: node maps for real nodes and
 * virtual nodes (PAPCOLL_PPN) with unequal sizes and non-consecutive
 * placement, checked against an independent computation; caching (the same
 * context twice) and many communicators created and freed.
 */
#include "ctx/comm.h"
#include <papcoll.h>

#include <stdio.h>
#include <stdlib.h>

#include "check.h"

/* world rank of each rank of comm */
static int *world_ranks(MPI_Comm comm, int size)
{
    int *w = malloc((size_t)size * sizeof(int)), me;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Allgather(&me, 1, MPI_INT, w, 1, MPI_INT, comm);
    return w;
}

static void check_virtual(MPI_Comm comm, int ppn, const char *what)
{
    char v[16];
    snprintf(v, sizeof v, "%d", ppn);
    papcoll_set_param("PAPCOLL_PPN", v);
    pc_comm_t *c, *again;
    CHECK(pc_comm_get(comm, &c) == MPI_SUCCESS, "%s: context", what);
    CHECK(pc_comm_get(comm, &again) == MPI_SUCCESS && again == c, "%s: cached", what);
    papcoll_set_param("PAPCOLL_PPN", "0");
    int *w = world_ranks(comm, c->size);
    int nodes = 0, seen_first = 0;
    for (int r = 0; r < c->size; r++) {
        /* same node iff same world_rank / ppn */
        for (int q = 0; q < c->size; q++)
            CHECK((c->node_of[r] == c->node_of[q]) == (w[r] / ppn == w[q] / ppn), "%s: ranks %d,%d node", what, r, q);
        int n = c->node_of[r];
        CHECK(c->node_members[c->node_first[n] + c->node_rank_of[r]] == r, "%s: member map of %d", what, r);
        if (c->node_rank_of[r] == 0) nodes++;
    }
    CHECK(nodes == c->nnodes, "%s: %d leaders, %d nodes", what, nodes, c->nnodes);
    for (int n = 0; n + 1 < c->nnodes; n++)
        CHECK(pc_node_leader(c, n) < pc_node_leader(c, n + 1), "%s: nodes ordered by leader", what);
    int members_here;
    MPI_Comm_size(c->node, &members_here);
    CHECK(members_here == c->node_first[c->my_node + 1] - c->node_first[c->my_node] && c->node_size == members_here,
          "%s: node communicator size", what);
    CHECK((c->leaders != MPI_COMM_NULL) == (c->node_rank == 0), "%s: leader communicator", what);
    int nr;
    MPI_Comm_rank(c->node, &nr);
    CHECK(nr == c->node_rank && c->node_rank == c->node_rank_of[c->rank], "%s: node rank %d, map says %d", what, nr,
          c->node_rank_of[c->rank]);
    if (c->leaders != MPI_COMM_NULL) {
        int nl;
        MPI_Comm_size(c->leaders, &nl);
        CHECK(nl == c->nnodes, "%s: leaders %d", what, nl);
    }
    (void)seen_first;
    free(w);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm reversed, oddeven;
    MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &reversed);
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &oddeven);
    for (int ppn = 1; ppn <= 4; ppn++) {
        MPI_Comm a, b, c;
        MPI_Comm_dup(MPI_COMM_WORLD, &a);
        MPI_Comm_dup(reversed, &b);
        MPI_Comm_dup(oddeven, &c);
        check_virtual(a, ppn, "world");
        check_virtual(b, ppn, "reversed");
        check_virtual(c, ppn, "oddeven");
        MPI_Comm_free(&a);
        MPI_Comm_free(&b);
        MPI_Comm_free(&c);
    }
    /* real nodes: one host natively, the cluster's hosts under SMPI; node
     * ranks must follow communicator rank order (the maps and the fixed
     * leaders rely on it) even where MPI_Comm_split_type ignores its key
     * (SMPI 3.32 orders by world rank) */
    pc_comm_t *ctx;
    CHECK(pc_comm_get(MPI_COMM_WORLD, &ctx) == MPI_SUCCESS && ctx->nnodes >= 1 && ctx->size == size, "real nodes");
    for (int i = 0; i < 2; i++) {
        MPI_Comm d;
        MPI_Comm_dup(i ? oddeven : reversed, &d);
        CHECK(pc_comm_get(d, &ctx) == MPI_SUCCESS, "real nodes context");
        int nr;
        MPI_Comm_rank(ctx->node, &nr);
        CHECK(nr == ctx->node_rank && nr == ctx->node_rank_of[ctx->rank], "real nodes (%s): node rank %d, map says %d",
              i ? "oddeven" : "reversed", nr, ctx->node_rank_of[ctx->rank]);
        CHECK((ctx->leaders != MPI_COMM_NULL) == (ctx->node_rank_of[ctx->rank] == 0), "real nodes: leader communicator");
        MPI_Comm_free(&d);
    }
    /* a hundred communicators alive at once, then freed */
    MPI_Comm many[100];
    int v = 0;
    for (int i = 0; i < 100; i++) {
        MPI_Comm_dup(MPI_COMM_WORLD, &many[i]);
        v = rank == i % size ? i : -1;
        papcoll_bcast(&v, 1, MPI_INT, i % size, many[i]);
        CHECK(v == i, "comm %d", i);
    }
    for (int i = 0; i < 100; i++) MPI_Comm_free(&many[i]);
    MPI_Comm_free(&reversed);
    MPI_Comm_free(&oddeven);
    int total;
    MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) printf("test_comm: np=%d, %d failures\n", size, total);
    MPI_Finalize();
    return total != 0;
}
