/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_bcast_matrix - every broadcast algorithm (the library's own list, plus
 * "auto") x communicator shapes x every root x counts x datatypes x arrival,
 * back to back on the same buffers, checked byte by byte (gaps of derived
 * datatypes included: they must stay untouched at the receivers, the root's
 * buffer must not change at all).
 *
 *   test_bcast_matrix [--sample=FRACTION] [--seed=N] [--min-count=N] [--max-count=N] [--algos=a,b,...]
 *
 * --sample runs a seeded random fraction of the product (the same on every
 * process); the seed is printed so a failure can be replayed.
 */
#include <papcoll.h>

#include "harness/bcast_call.h"
#include "harness/lists.h"
#include "harness/matrix.h"
#include "harness/shapes.h"
#include "test_random.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { NSHAPES = HARNESS_NSHAPES, NTYPES = 5, NARRIVALS = 2 };
static const char *type_names[NTYPES] = {"MPI_BYTE", "MPI_INT", "MPI_DOUBLE", "vector(2,3,5,int)", "struct{char;double;int}"};
static const int counts[] = {0, 1, 7, 4097, (1 << 20) + 3};
enum { NCOUNTS = sizeof counts / sizeof counts[0] };

static int world_rank, world_size;

static MPI_Datatype make_type(int t)
{
    MPI_Datatype dt;
    switch (t) {
    case 0: return MPI_BYTE;
    case 1: return MPI_INT;
    case 2: return MPI_DOUBLE;
    case 3:
        MPI_Type_vector(2, 3, 5, MPI_INT, &dt);
        break;
    default: {
        struct s { char c; double d; int i; };
        int len[3] = {1, 1, 1};
        MPI_Aint disp[3] = {offsetof(struct s, c), offsetof(struct s, d), offsetof(struct s, i)};
        MPI_Datatype types[3] = {MPI_CHAR, MPI_DOUBLE, MPI_INT}, tmp;
        MPI_Type_create_struct(3, len, disp, types, &tmp);
        MPI_Type_create_resized(tmp, 0, sizeof(struct s), &dt);
        MPI_Type_free(&tmp);
    }
    }
    MPI_Type_commit(&dt);
    return dt;
}


int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &world_size);
    double sample = 1.0;
    unsigned long long seed = 12345;
    int min_count = 0, max_count = counts[NCOUNTS - 1];
    const char *only = NULL; /* comma-separated algorithm names, or all */
    for (int i = 1; i < argc; i++) {
        if (!strncmp(argv[i], "--sample=", 9)) sample = atof(argv[i] + 9);
        else if (!strncmp(argv[i], "--seed=", 7)) seed = strtoull(argv[i] + 7, NULL, 10);
        else if (!strncmp(argv[i], "--max-count=", 12)) max_count = atoi(argv[i] + 12);
        else if (!strncmp(argv[i], "--min-count=", 12)) min_count = atoi(argv[i] + 12);
        else if (!strncmp(argv[i], "--algos=", 8)) only = argv[i] + 8;
        else {
            if (world_rank == 0) fprintf(stderr, "usage: %s [--sample=F] [--seed=N] [--min-count=N] [--max-count=N] [--algos=a,b]\n", argv[0]);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    }

    char **algos;
    int nalgo = harness_algorithms("bcast", only, &algos);

    harness_matrix_shapes_t shapes; /* errors fatal: a failed call could leave the ranks out of step */
    harness_matrix_shapes_init(&shapes, harness_bcast_context, 0);
    const MPI_Comm *comms = shapes.comm;
    const int *csize = shapes.size, *crank = shapes.rank, max_csize = shapes.max_size;
    MPI_Datatype types[NTYPES];
    MPI_Aint extents[NTYPES];
    for (int t = 0; t < NTYPES; t++) {
        MPI_Aint lb;
        types[t] = make_type(t);
        MPI_Type_get_extent(types[t], &lb, &extents[t]);
    }
    size_t max_extent = (size_t)max_count * 32 + 64;
    unsigned char *buf = malloc(max_extent), *mask = malloc(max_extent), *ones = malloc(max_extent);
    memset(ones, 0xff, max_extent);

    long calls = 0, failures = 0;
    uint64_t combo = 0;
    for (int t = 0; t < NTYPES; t++)
        for (int ci = 0; ci < NCOUNTS; ci++) {
            int count = counts[ci];
            if (count > max_count || count < min_count) continue;
            size_t extent = (size_t)count * (size_t)extents[t];
            /* mask: which bytes of the extent carry data (unpack 0xff bytes onto zeros) */
            int tsize, pos = 0;
            MPI_Type_size(types[t], &tsize);
            memset(mask, 0, extent);
            if (count) MPI_Unpack(ones, tsize * count, &pos, mask, count, types[t], MPI_COMM_SELF);
            for (int arr = 0; arr < NARRIVALS; arr++)
                for (int s = 0; s < NSHAPES; s++)
                    for (int r = 0; r < max_csize; r++)
                        for (int a = 0; a < nalgo; a++, combo++) {
                            if (!test_sampled(seed, combo, sample)) continue;
                            int root = r % csize[s];
                            int is_root = crank[s] == root;
                            uint64_t call = mix(combo ^ (seed << 20));
                            for (size_t i = 0; i < extent; i++) buf[i] = is_root ? harness_pattern_byte(i, call) : (unsigned char)~harness_pattern_byte(i, call);
                            if (arr == 1) usleep((useconds_t)(mix(call ^ (uint64_t)world_rank) % 2001));
                            int rc = papcoll_bcast_by_name(algos[a], buf, count, types[t], root, comms[s]);
                            calls++;
                            long bad = 0;
                            size_t first_bad = 0;
                            for (size_t i = 0; i < extent; i++) {
                                unsigned char want = (is_root || mask[i]) ? harness_pattern_byte(i, call) : (unsigned char)~harness_pattern_byte(i, call);
                                if (buf[i] != want && !bad++) first_bad = i;
                            }
                            const char *ran = papcoll_last_algorithm();
                            int name_ok = harness_ran_ok(algos[a], ran);
                            if (rc != MPI_SUCCESS || bad || !name_ok) {
                                if (failures++ < 10)
                                    fprintf(stderr,
                                            "FAIL rank %d: algo=%s (ran %s) shape=%s p=%d root=%d count=%d type=%s arrival=%s rc=%d: "
                                            "%ld bad bytes, first at %zu (got %u want %u)\n",
                                            world_rank, algos[a], ran, harness_shape_names[s], csize[s], root, count, type_names[t],
                                            arr ? "random0-2ms" : "together", rc, bad, first_bad, buf[first_bad],
                                            (unsigned)((is_root || mask[first_bad]) ? harness_pattern_byte(first_bad, call) : (unsigned char)~harness_pattern_byte(first_bad, call)));
                            }
                        }
        }
    long totals[2] = {calls, failures};
    matrix_sum_at_root(totals, 2);
    long total_calls = totals[0], total_failures = totals[1];
    if (world_rank == 0)
        printf("test_bcast_matrix: np=%d algorithms=%d shapes=%d types=%d counts=[%d,%d] arrivals=%d sample=%g seed=%llu: "
               "%ld broadcast calls (summed over processes), %ld failures\n",
               world_size, nalgo, NSHAPES, NTYPES, min_count, max_count, NARRIVALS, sample, seed, total_calls, total_failures);
    for (int t = 3; t < NTYPES; t++) MPI_Type_free(&types[t]);
    harness_matrix_shapes_free(&shapes);
    free(buf);
    free(mask);
    free(ones);
    harness_list_free(algos, nalgo);
    return matrix_finalize(total_failures != 0);
}
