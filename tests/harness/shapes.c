/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * shapes.c - see shapes.h.
 */
#include "shapes.h"

#include "../test_random.h"
#include "watchdog.h"

#include <papcoll.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const harness_shape_names[HARNESS_NSHAPES] = {"world", "reversed", "oddeven", "vnodes3",
                                                          "vnodes3_reversed"};

static int my_node_key; /* same for processes of one (virtual) node */

static void world(int *rank, int *size)
{
    MPI_Comm_rank(MPI_COMM_WORLD, rank);
    MPI_Comm_size(MPI_COMM_WORLD, size);
}

int harness_bcast_context(MPI_Comm comm) { return papcoll_bcast(NULL, 0, MPI_BYTE, 0, comm); }

/* The test's own PAPCOLL_PPN (its environment), "0" (real nodes) unset. */
static const char *environment_ppn(void)
{
    const char *v = getenv("PAPCOLL_PPN");
    return v && *v ? v : "0";
}

MPI_Comm harness_matrix_shape(int s, harness_context_fn create_context)
{
    MPI_Comm c;
    int rank, size;
    world(&rank, &size);
    papcoll_set_param("PAPCOLL_PPN", s >= 3 ? "3" : environment_ppn());
    if (s == 0 || s == 3) MPI_Comm_dup(MPI_COMM_WORLD, &c);
    else if (s == 1 || s == 4) MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &c);
    else MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &c);
    (create_context ? create_context : harness_bcast_context)(c);
    papcoll_set_param("PAPCOLL_PPN", environment_ppn());
    return c;
}

void harness_matrix_shapes_init(harness_matrix_shapes_t *shapes, harness_context_fn create_context,
                                int errors_return)
{
    shapes->max_size = 0;
    for (int s = 0; s < HARNESS_NSHAPES; s++) {
        shapes->comm[s] = harness_matrix_shape(s, create_context);
        if (errors_return) MPI_Comm_set_errhandler(shapes->comm[s], MPI_ERRORS_RETURN);
        MPI_Comm_size(shapes->comm[s], &shapes->size[s]);
        MPI_Comm_rank(shapes->comm[s], &shapes->rank[s]);
        if (shapes->size[s] > shapes->max_size) shapes->max_size = shapes->size[s];
    }
}

void harness_matrix_shapes_free(harness_matrix_shapes_t *shapes)
{
    for (int s = 0; s < HARNESS_NSHAPES; s++) MPI_Comm_free(&shapes->comm[s]);
}

void harness_node_key_init(int ppn)
{
    int rank, size;
    world(&rank, &size);
    if (ppn > 0) {
        my_node_key = rank / ppn;
        return;
    }
    MPI_Comm shared;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &shared);
    MPI_Allreduce(&rank, &my_node_key, 1, MPI_INT, MPI_MIN, shared);
    MPI_Comm_free(&shared);
}

void harness_shape_init(harness_shape_t *s, const char *name, MPI_Comm comm, int ppn,
                        harness_context_fn create_context)
{
    char v[16];
    int world_rank, world_size;
    world(&world_rank, &world_size);
    memset(s, 0, sizeof *s);
    s->name = name;
    s->comm = comm;
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    MPI_Comm_rank(comm, &s->rank);
    MPI_Comm_size(comm, &s->size);
    snprintf(v, sizeof v, "%d", ppn);
    papcoll_set_param("PAPCOLL_PPN", v);
    harness_watchdog_label("context creation (count 0) on %s", name);
    harness_watchdog_arm();
    int rc = (create_context ? create_context : harness_bcast_context)(comm);
    harness_watchdog_call_done();
    papcoll_set_param("PAPCOLL_PPN", "0");
    if (rc != MPI_SUCCESS) {
        fprintf(stderr, "FAIL rank %d: context creation on %s: rc=%d\n", world_rank, name, rc);
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
    int *key = malloc((size_t)s->size * sizeof(int));
    MPI_Allgather(&my_node_key, 1, MPI_INT, key, 1, MPI_INT, comm);
    s->node_of = malloc((size_t)s->size * sizeof(int));
    s->node_idx = malloc((size_t)s->size * sizeof(int));
    s->node_n = calloc((size_t)s->size, sizeof(int));
    s->members = malloc((size_t)s->size * (size_t)s->size * sizeof(int));
    for (int r = 0; r < s->size; r++) {
        int q = 0;
        while (key[q] != key[r]) q++; /* lowest rank with my key */
        if (q == r) s->node_of[r] = s->nnodes++;
        else s->node_of[r] = s->node_of[q];
        int n = s->node_of[r];
        s->node_idx[r] = s->node_n[n];
        s->members[n * s->size + s->node_n[n]++] = r;
        if (s->node_n[n] > s->max_n) s->max_n = s->node_n[n];
    }
    free(key);
}

void harness_shape_free(harness_shape_t *s)
{
    free(s->node_of);
    free(s->node_idx);
    free(s->node_n);
    free(s->members);
    MPI_Comm_free(&s->comm);
}

void harness_shape_print(const harness_shape_t *s)
{
    printf("  shape %-11s nodes:", s->name);
    for (int n = 0; n < s->nnodes; n++) {
        printf(" {");
        for (int i = 0; i < s->node_n[n]; i++) printf("%s%d", i ? "," : "", s->members[n * s->size + i]);
        printf("}");
    }
    printf("\n");
}

MPI_Comm harness_split(int color, int key)
{
    MPI_Comm c;
    MPI_Comm_split(MPI_COMM_WORLD, color, key, &c);
    return c;
}

int harness_interleaved_key(void)
{
    int rank, size;
    world(&rank, &size);
    return (rank % 2) * size + rank;
}

int harness_shuffled_key(uint64_t seed)
{
    int rank, size;
    world(&rank, &size);
    /* seeded permutation: sort by a hash of the world rank (ties by rank) */
    return (int)(mix(seed ^ 0x5eedULL ^ (uint64_t)rank) % 1000000007ULL);
}

void harness_pattern_shapes_init(harness_shape_t shapes[HARNESS_NPATTERN_SHAPES], int ppn,
                                 harness_context_fn create_context, uint64_t seed)
{
    int rank, size;
    world(&rank, &size);
    harness_shape_init(&shapes[0], "world", harness_split(0, rank), ppn, create_context);
    harness_shape_init(&shapes[1], "reversed", harness_split(0, size - rank), ppn, create_context);
    harness_shape_init(&shapes[2], "interleaved", harness_split(0, harness_interleaved_key()), ppn, create_context);
    harness_shape_init(&shapes[3], "shuffled", harness_split(0, harness_shuffled_key(seed)), ppn, create_context);
    if (rank == 0)
        for (int s = 0; s < HARNESS_NPATTERN_SHAPES; s++) harness_shape_print(&shapes[s]);
}

MPI_Comm harness_numbered_comm(int i, char *name, size_t len)
{
    static const char *const kinds[4] = {"dup", "reversed", "interleaved", "half"};
    int rank, size;
    world(&rank, &size);
    MPI_Comm c;
    switch (i % 4) {
    case 0: MPI_Comm_dup(MPI_COMM_WORLD, &c); break;
    case 1: c = harness_split(0, size - rank); break;
    case 2: c = harness_split(0, harness_interleaved_key()); break;
    default: c = harness_split(rank % 2, size - rank);
    }
    snprintf(name, len, "comm%d(%s)", i, kinds[i % 4]);
    return c;
}
