/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_node_window - the node's shared-memory blocks (src/ctx/node_window.h):
 * a POSIX object and an MPI window alike give every process of a node the
 * same memory, for sizes from 0 bytes to over a MiB; no POSIX object
 * outlives its allocation; names that objects left by killed processes
 * hold are skipped; when every name tried is taken, the whole node takes an
 * MPI window; PAPCOLL_SHM_BACKEND=mpi takes one always.  Native builds
 * only (SMPI always takes the MPI window).  Run it first in its processes:
 * it predicts the names node rank 0 will try from its count of blocks.
 */
#include "ctx/comm.h"
#include "ctx/node_window.h"
#include <papcoll.h>

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "check.h"

/* Names tried so far by this process (it tries names only as node rank 0). */
static unsigned long long tried;

/* This process's objects in /dev/shm. */
static int objects_of_mine(void)
{
    char prefix[64];
    snprintf(prefix, sizeof prefix, "papcoll.%ld.", (long)getpid());
    DIR *d = opendir("/dev/shm");
    if (!d) return 0;
    int n = 0;
    for (struct dirent *e; (e = readdir(d));) n += strncmp(e->d_name, prefix, strlen(prefix)) == 0;
    closedir(d);
    return n;
}

/* Objects named as this process's next n names would be, as a killed
 * process with the same pid could have left them (make = 0: remove them). */
static void stale_objects(int n, int make)
{
    for (int i = 0; i < n; i++) {
        char name[64];
        snprintf(name, sizeof name, PC_NODE_WINDOW_NAME_FORMAT, (long)getpid(), tried + (unsigned long long)i);
        if (!make) {
            shm_unlink(name);
            continue;
        }
        int fd = shm_open(name, O_CREAT | O_EXCL | O_RDWR, 0600);
        CHECK(fd >= 0, "stale object %s", name);
        if (fd >= 0) close(fd);
    }
}

/* A block of `bytes` on `node`, of the kind expected: every process writes
 * its own part, then checks everyone's. */
static void exercise(const pc_comm_t *c, size_t bytes, int expect_posix, int stale, const char *what)
{
    pc_node_window_t w;
    int rc = pc_node_window_allocate(c->node, bytes, &w);
    CHECK(rc == MPI_SUCCESS && w.base, "%s, %zu bytes: allocated (rc %d)", what, bytes, rc);
    if (rc != MPI_SUCCESS || !w.base) return;
    if (expect_posix)
        CHECK(w.win == MPI_WIN_NULL && w.mapped >= bytes, "%s, %zu bytes: a POSIX object", what, bytes);
    else
        CHECK(w.win != MPI_WIN_NULL && w.mapped == 0, "%s, %zu bytes: an MPI window", what, bytes);
    CHECK(objects_of_mine() == stale, "%s, %zu bytes: %d objects of this process in /dev/shm, %d expected", what, bytes,
          objects_of_mine(), stale);
    size_t part = bytes / (size_t)c->node_size;
    memset(w.base + (size_t)c->node_rank * part, c->node_rank + 1, part);
    MPI_Barrier(c->node);
    for (int j = 0; j < c->node_size; j++)
        for (size_t i = 0; i < part; i++)
            if (w.base[(size_t)j * part + i] != (char)(j + 1)) {
                CHECK(0, "%s, %zu bytes: byte %zu of node rank %d's part", what, bytes, i, j);
                break;
            }
    MPI_Barrier(c->node); /* everyone checked before anyone frees */
    pc_node_window_free(&w);
    CHECK(w.base == NULL, "%s: freed", what);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    pc_comm_t *c;
    CHECK(pc_comm_get(MPI_COMM_WORLD, &c) == MPI_SUCCESS, "context");
    const size_t sizes[] = {0, 1, 64 * 7 + 3, (1u << 20) + 5};
    const int nsizes = (int)(sizeof sizes / sizeof sizes[0]);
    int leader = c->node_rank == 0;

    for (int s = 0; s < nsizes; s++, tried += leader) exercise(c, sizes[s], 1, 0, "posix");

    /* all but the last name taken: the last one tried is made */
    stale_objects(PC_NODE_WINDOW_CREATE_TRIES - 1, 1);
    exercise(c, 4096, 1, PC_NODE_WINDOW_CREATE_TRIES - 1, "posix, stale names");
    stale_objects(PC_NODE_WINDOW_CREATE_TRIES - 1, 0);
    tried += leader ? PC_NODE_WINDOW_CREATE_TRIES : 0;

    /* every name taken on the leaders: their whole nodes take MPI windows */
    stale_objects(PC_NODE_WINDOW_CREATE_TRIES, 1);
    exercise(c, 4096, 0, PC_NODE_WINDOW_CREATE_TRIES, "no free name");
    stale_objects(PC_NODE_WINDOW_CREATE_TRIES, 0);
    tried += leader ? PC_NODE_WINDOW_CREATE_TRIES : 0;

    papcoll_set_param("PAPCOLL_SHM_BACKEND", "mpi");
    for (int s = 0; s < nsizes; s++) exercise(c, sizes[s], 0, 0, "PAPCOLL_SHM_BACKEND=mpi");
    papcoll_set_param("PAPCOLL_SHM_BACKEND", "posix");
    exercise(c, 100, 1, 0, "posix again");

    int total;
    MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) printf("test_node_window: np=%d, %d nodes, %d failures\n", size, c->nnodes, total);
    MPI_Finalize();
    return total != 0;
}
