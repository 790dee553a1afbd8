/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_node_copyout - Parsons 2015's copy-out variants (node/node_copyout.h):
 * run under PAPCOLL_BCAST_COPYOUT / PAPCOLL_ALLGATHER_COPYOUT = memcpy |
 * bcast | numa (PAPCOLL_NUMA_DOMAINS virtual domains, PAPCOLL_PPN virtual
 * nodes), every result checked byte by byte on every process:
 *
 *   bcast       hier and hier_nobarrier, sizes 0 B .. 3 MiB (larger than the
 *               2 MiB ring), every root
 *   late        a reader (the last rank), then the root, a fraction of a
 *               second late, 64 KiB and 3 MiB
 *   allgather   allgather hier, blocks of 0 B .. 800 KiB (results larger
 *               than the ring), a late process
 *   shared      papcoll_bcast_shared: the result in node shared memory for
 *               every root and size, the next call's result replaces it,
 *               count 0 gives NULL, a contiguous derived type is accepted
 *               and a vector type returns MPI_ERR_TYPE
 *
 *   test_node_copyout [--late-us=N]
 */
#include <papcoll.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int rank, size, failures, checked;
static useconds_t late_us = 300000;

static unsigned char pattern(int call, int root, size_t i) { return (unsigned char)(call * 131 + root * 17 + i * 7 + (i >> 12)); }

static void report(int bad, const char *what, const char *algo, size_t n, int root, size_t first)
{
    checked++;
    if (!bad) return;
    failures++;
    if (failures <= 10)
        fprintf(stderr, "rank %d: %s %s n=%zu root=%d: wrong (first bad byte %zu)\n", rank, what, algo, n, root, first);
}

static void one_bcast(const char *algo, size_t n, int root, int call, int late_rank, const char *what)
{
    unsigned char *buf = malloc(n ? n : 1);
    if (!buf) MPI_Abort(MPI_COMM_WORLD, 2);
    for (size_t i = 0; i < n; i++) buf[i] = rank == root ? pattern(call, root, i) : 0xa5;
    if (rank == late_rank) usleep(late_us);
    int rc = papcoll_bcast_by_name(algo, buf, (int)n, MPI_BYTE, root, MPI_COMM_WORLD);
    size_t bad = rc != MPI_SUCCESS, first = 0;
    for (size_t i = 0; i < n; i++)
        if (buf[i] != pattern(call, root, i) && bad++ == 0) first = i;
    report(bad != 0, what, algo, n, root, first);
    free(buf);
}

static void bcasts(void)
{
    const char *algos[] = {"hier", "hier_nobarrier"};
    const size_t sizes[] = {0, 1, 1000, 32768 + 3, 65536, 3 << 20};
    int call = 0;
    for (int a = 0; a < 2; a++)
        for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
            for (int root = 0; root < size; root++) one_bcast(algos[a], sizes[s], root, call++, -1, "bcast");
    for (int a = 0; a < 2; a++)
        for (size_t n = 65536; n <= (3u << 20); n *= 48) {
            int root = size > 2 ? 1 : 0;
            one_bcast(algos[a], n, root, call++, size - 1, "late-reader");
            one_bcast(algos[a], n, root, call++, root, "late-root");
        }
}

static unsigned char block_byte(int call, int r, size_t i) { return (unsigned char)(call * 29 + r * 101 + i * 3 + (i >> 10)); }

static void allgathers(void)
{
    const size_t blocks[] = {0, 1, 1000, 800 << 10};
    for (size_t b = 0; b < sizeof blocks / sizeof *blocks; b++)
        for (int late = 0; late < 2; late++) { /* on time, then the last rank late */
            int call = (int)b * 2 + late;
            size_t n = blocks[b];
            unsigned char *send = malloc(n ? n : 1), *recv = malloc(n * (size_t)size + 1);
            if (!send || !recv) MPI_Abort(MPI_COMM_WORLD, 2);
            for (size_t i = 0; i < n; i++) send[i] = block_byte(call, rank, i);
            memset(recv, 0x5a, n * (size_t)size);
            if (late && rank == size - 1) usleep(late_us);
            int rc = papcoll_allgather_by_name("hier", send, (int)n, MPI_BYTE, recv, (int)n, MPI_BYTE, MPI_COMM_WORLD);
            size_t bad = rc != MPI_SUCCESS, first = 0;
            for (int r = 0; r < size; r++)
                for (size_t i = 0; i < n; i++)
                    if (recv[(size_t)r * n + i] != block_byte(call, r, i) && bad++ == 0) first = (size_t)r * n + i;
            report(bad != 0, late ? "allgather-late" : "allgather", "hier", n, -1, first);
            free(send);
            free(recv);
        }
}

static void shared(void)
{
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    const size_t sizes[] = {4, 1000, 3 << 20, 100};
    int call = 1000;
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
        for (int root = size - 1; root >= 0; root -= (size > 2 ? 2 : 1)) {
            size_t n = sizes[s];
            unsigned char *buf = NULL;
            if (rank == root) {
                buf = malloc(n);
                for (size_t i = 0; i < n; i++) buf[i] = pattern(call, root, i);
            }
            if (rank == size - 1 && s == 2) usleep(late_us / 4); /* a late reader: the others wait (barriers) */
            const void *res = NULL;
            int rc = papcoll_bcast_shared(buf, (int)n, MPI_BYTE, root, comm, &res);
            const unsigned char *r = res;
            size_t bad = rc != MPI_SUCCESS || !r, first = 0;
            for (size_t i = 0; !bad && i < n; i++)
                if (r[i] != pattern(call, root, i) && bad++ == 0) first = i;
            report(bad != 0, "shared", "papcoll_bcast_shared", n, root, first);
            free(buf);
            call++;
        }
    /* ints through a contiguous derived type, root 0 */
    MPI_Datatype pair, vec;
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_commit(&pair);
    int ints[64];
    for (int i = 0; i < 64; i++) ints[i] = rank == 0 ? 7 * i + 3 : -1;
    const void *res = NULL;
    int rc = papcoll_bcast_shared(ints, 32, pair, 0, comm, &res);
    int bad = rc != MPI_SUCCESS || !res;
    for (int i = 0; !bad && i < 64; i++) bad = ((const int *)res)[i] != 7 * i + 3;
    report(bad, "shared-contiguous-type", "papcoll_bcast_shared", 64 * sizeof(int), 0, 0);
    /* count 0: NULL */
    res = ints;
    rc = papcoll_bcast_shared(ints, 0, MPI_INT, 0, comm, &res);
    report(rc != MPI_SUCCESS || res != NULL, "shared-empty", "papcoll_bcast_shared", 0, 0, 0);
    /* a vector (gaps): MPI_ERR_TYPE on every process, nothing moved */
    MPI_Type_vector(4, 1, 2, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    rc = papcoll_bcast_shared(ints, 2, vec, 0, comm, &res);
    int cls = -1;
    MPI_Error_class(rc, &cls);
    report(cls != MPI_ERR_TYPE, "shared-bad-type", "papcoll_bcast_shared", 0, 0, 0);
    MPI_Type_free(&pair);
    MPI_Type_free(&vec);
    MPI_Comm_free(&comm);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int i = 1; i < argc; i++)
        if (!strncmp(argv[i], "--late-us=", 10)) late_us = (useconds_t)atol(argv[i] + 10);
    char bv[32] = "?", av[32] = "?", dv[32] = "?";
    papcoll_param_value("PAPCOLL_BCAST_COPYOUT", bv, sizeof bv);
    papcoll_param_value("PAPCOLL_ALLGATHER_COPYOUT", av, sizeof av);
    papcoll_param_value("PAPCOLL_NUMA_DOMAINS", dv, sizeof dv);
    bcasts();
    allgathers();
    shared();
    int total = 0;
    MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("test_node_copyout np=%d bcast=%s allgather=%s numa_domains=%s: %d checks per process, %d failures\n",
               size, bv, av, dv, checked, total);
    MPI_Finalize();
    return total != 0;
}
