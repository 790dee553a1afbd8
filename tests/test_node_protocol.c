/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_node_protocol - the node copy-out's two protocols (Morimoto et al. 1999, node/node.h):
 * a reader arriving before the data is written directly by its writer
 * (write protocol), or pulls from the writer's buffer itself (read
 * variant: the writer returns only once every puller is done), a reader
 * arriving after copies out of the node ring (eager).  Run under
 * PAPCOLL_NODE_PROTOCOL=ring|write|read|auto and virtual
 * nodes (PAPCOLL_PPN), every case checked byte by byte on every process:
 *
 *   late-reader   one reader of each node arrives a second late: the writer
 *                 has written the others directly and the late one reads the
 *                 ring (a message larger than the ring: pipelined through it)
 *   late-writer   the root, then a node leader, arrives a second late: every
 *                 reader has posted its buffer first
 *   alternate     two communicators (different rank orders, so different
 *                 nodes and node ranks) used alternately with changing roots
 *                 and sizes, then one freed while the other is in use and a
 *                 new one created: slots and rings never mix
 *   back-to-back  many calls without pause, roots and sizes changing, random
 *                 small delays: the race between "reader posts" and "writer
 *                 starts" decided both ways
 *
 *   test_node_protocol [--algos=a,b] [--late-us=N] [--calls=N] [--seed=N]
 *
 * Default algorithms: the hierarchical broadcasts that copy out through
 * pc_node_copy_out (hier_nobarrier, arrival_dynleader, dynleader, cp_chain).
 */
#include <papcoll.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int world_rank, world_size, failures, checked;

static unsigned char pattern(long long call, int root, size_t i) { return (unsigned char)(call * 131 + root * 17 + i * 7 + (i >> 12)); }

static void fill(unsigned char *buf, size_t n, long long call, int root)
{
    for (size_t i = 0; i < n; i++) buf[i] = pattern(call, root, i);
}

/* One broadcast of n bytes from root on comm; my delay before it (us). */
static void one_call(const char *algo, MPI_Comm comm, int root, size_t n, long long call, useconds_t delay,
                     const char *what)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    unsigned char *buf = malloc(n ? n : 1);
    if (!buf) MPI_Abort(MPI_COMM_WORLD, 2);
    if (rank == root) fill(buf, n, call, root);
    else memset(buf, 0xa5, n);
    if (delay) usleep(delay);
    int rc = papcoll_bcast_by_name(algo, buf, (int)n, MPI_BYTE, root, comm);
    size_t bad = 0, first = 0;
    for (size_t i = 0; i < n; i++)
        if (buf[i] != pattern(call, root, i) && bad++ == 0) first = i;
    checked++;
    if (rc != MPI_SUCCESS || bad) {
        failures++;
        fprintf(stderr, "FAIL rank %d: %s algo=%s call=%lld root=%d bytes=%zu rc=%d: %zu bad bytes, first at %zu\n",
                world_rank, what, algo, call, root, n, rc, bad, first);
    }
    free(buf);
}

/* Lowest rank of my node and whether I am it, for PAPCOLL_PPN=k nodes of world. */
static int ppn(void)
{
    const char *e = getenv("PAPCOLL_PPN");
    int k = e ? atoi(e) : 0;
    return k > 0 ? k : world_size;
}

static void late_reader(const char *algo, useconds_t late, long long *call)
{
    int k = ppn(), root = 0;
    size_t sizes[] = {70000, (5u << 20) + 3}; /* one inside the default 2 MiB ring, one wrapping it */
    for (int s = 0; s < 2; s++) {
        /* the last process of each node (never the root) is late */
        int me_late = world_rank != root && (world_rank % k == k - 1 || world_rank == world_size - 1);
        one_call(algo, MPI_COMM_WORLD, root, sizes[s], (*call)++, me_late ? late : 0, "late-reader");
    }
}

static void late_writer(const char *algo, useconds_t late, long long *call)
{
    int k = ppn();
    size_t n = (3u << 20) + 5;
    /* the root late: its node's readers post first */
    int root = world_size - 1;
    one_call(algo, MPI_COMM_WORLD, root, n, (*call)++, world_rank == root ? late : 0, "late-writer(root)");
    /* every node's lowest rank late (the fixed leader of hier_nobarrier; a
     * dynamic leader is then someone else, which writes while they read) */
    root = 1 % world_size;
    one_call(algo, MPI_COMM_WORLD, root, n, (*call)++, world_rank % k == 0 && world_rank != root ? late : 0,
             "late-writer(leaders)");
}

static void alternate(const char *algo, long long *call, unsigned *seed)
{
    MPI_Comm a, b, c;
    MPI_Comm_dup(MPI_COMM_WORLD, &a);
    MPI_Comm_split(MPI_COMM_WORLD, 0, world_size - world_rank, &b); /* reversed: other nodes, other node ranks */
    static const size_t sizes[] = {1, 4097, 70000, (1u << 20) + 3};
    for (int i = 0; i < 24; i++) {
        size_t n = sizes[i % 4];
        int root = (i * 3) % world_size;
        useconds_t d = (useconds_t)(rand_r(seed) % 3) * 300;
        one_call(algo, i % 2 ? b : a, root, n, (*call)++, d, "alternate");
    }
    MPI_Comm_free(&a); /* b stays in use; c may get a's resources */
    MPI_Comm_split(MPI_COMM_WORLD, 0, (world_rank + 1) % world_size, &c); /* rotated */
    for (int i = 0; i < 12; i++) {
        size_t n = sizes[(i + 1) % 4];
        one_call(algo, i % 2 ? c : b, (i * 5) % world_size, n, (*call)++, (useconds_t)(rand_r(seed) % 2) * 200,
                 "alternate-after-free");
    }
    MPI_Comm_free(&b);
    MPI_Comm_free(&c);
}

static void back_to_back(const char *algo, int calls, long long *call, unsigned *seed)
{
    static const size_t sizes[] = {0, 1, 100, 16384, 40000, 262147};
    for (int i = 0; i < calls; i++) {
        size_t n = sizes[rand_r(seed) % 6];
        int root = (int)(rand_r(seed) % (unsigned)world_size);
        /* my own delay: a different draw on each process */
        unsigned mine = *seed ^ (unsigned)(world_rank * 2654435761u);
        useconds_t d = rand_r(&mine) % 4 == 0 ? (useconds_t)(rand_r(&mine) % 500) : 0;
        one_call(algo, MPI_COMM_WORLD, root, n, (*call)++, d, "back-to-back");
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &world_size);
    char algos[256] = "hier_nobarrier,arrival_dynleader,dynleader,cp_chain";
    long late_us = 1000000, calls = 200;
    unsigned seed = 20261124;
    for (int i = 1; i < argc; i++) {
        if (!strncmp(argv[i], "--algos=", 8)) snprintf(algos, sizeof algos, "%s", argv[i] + 8);
        else if (!strncmp(argv[i], "--late-us=", 10)) late_us = atol(argv[i] + 10);
        else if (!strncmp(argv[i], "--calls=", 8)) calls = atol(argv[i] + 8);
        else if (!strncmp(argv[i], "--seed=", 7)) seed = (unsigned)strtoul(argv[i] + 7, NULL, 10);
        else {
            if (world_rank == 0)
                fprintf(stderr, "usage: %s [--algos=a,b] [--late-us=N] [--calls=N] [--seed=N]\n", argv[0]);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    }
    const char *proto = getenv("PAPCOLL_NODE_PROTOCOL");
    if (world_rank == 0)
        printf("test_node_protocol: np=%d ppn=%d protocol=%s algos=%s late=%ld us calls=%ld seed=%u\n", world_size,
               ppn(), proto ? proto : "(default)", algos, late_us, calls, seed);
    long long call = 0;
    for (char *save = NULL, *algo = strtok_r(algos, ",", &save); algo; algo = strtok_r(NULL, ",", &save)) {
        int before = failures;
        late_reader(algo, (useconds_t)late_us, &call);
        late_writer(algo, (useconds_t)late_us, &call);
        alternate(algo, &call, &seed);
        back_to_back(algo, (int)calls, &call, &seed);
        if (world_rank == 0) printf("  %-20s %s\n", algo, failures == before ? "ok" : "FAILED");
    }
    int total = 0;
    MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (world_rank == 0) printf("test_node_protocol: %s (%d failures, %d checked calls on rank 0)\n", total ? "FAILED" : "OK", total, checked);
    MPI_Finalize();
    return total ? 1 : 0;
}
