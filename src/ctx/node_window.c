/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * node_window.c - one shared-memory block per node (see node_window.h).
 */
#include "ctx/node_window.h"
#include "core/log.h"
#include "core/params.h"

#include <string.h>

#ifndef PAPCOLL_SMPI
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/statvfs.h>
#include <unistd.h>
#endif

#define PC_NODE_WINDOW_ALIGN 64 /* a cache line: shares never split one */

static void clear(pc_node_window_t *w)
{
    w->base = NULL;
    w->mapped = 0;
    w->win = MPI_WIN_NULL;
}

static int allocate_mpi_window(MPI_Comm node, size_t bytes, pc_node_window_t *w)
{
    int nprocs;
    int rc = PMPI_Comm_size(node, &nprocs);
    if (rc != MPI_SUCCESS) return rc;
    if (bytes == 0) bytes = 1; /* a block of none has no address under MPICH: NULL is "no block" here */
    size_t share = (bytes + (size_t)nprocs - 1) / (size_t)nprocs;
    share = (share + PC_NODE_WINDOW_ALIGN - 1) / PC_NODE_WINDOW_ALIGN * PC_NODE_WINDOW_ALIGN;
    char *mine;
    rc = PMPI_Win_allocate_shared((MPI_Aint)share, 1, MPI_INFO_NULL, node, &mine, &w->win);
    if (rc != MPI_SUCCESS) {
        w->win = MPI_WIN_NULL;
        return rc;
    }
    MPI_Aint size;
    int disp;
    rc = PMPI_Win_shared_query(w->win, 0, &size, &disp, &w->base);
    if (rc != MPI_SUCCESS) {
        PMPI_Win_free(&w->win);
        clear(w);
    }
    return rc;
}

#ifndef PAPCOLL_SMPI

#define PC_SHM_NAME_MAX 64

/* Why this process could not map the node's object. */
typedef struct failure {
    const char *call;
    int error; /* errno */
} failure_t;

/* Node rank 0: a new object of `length` bytes, mapped; its name in `name`
 * (empty on failure, with the reason in *why). */
static char *create_object(size_t length, char name[PC_SHM_NAME_MAX], failure_t *why)
{
    static _Atomic uint64_t serial;
    int fd = -1;
    for (int t = 0; t < PC_NODE_WINDOW_CREATE_TRIES && fd < 0; t++) {
        snprintf(name, PC_SHM_NAME_MAX, PC_NODE_WINDOW_NAME_FORMAT, (long)getpid(),
                 (unsigned long long)atomic_fetch_add(&serial, 1));
        fd = shm_open(name, O_CREAT | O_EXCL | O_RDWR, 0600);
        if (fd < 0 && errno != EEXIST) break;
    }
    if (fd < 0) {
        *why = (failure_t){"shm_open", errno};
        name[0] = '\0';
        return NULL;
    }
    char *base = NULL;
    /* pages come at first touch, as an MPI window's: a /dev/shm too small for the block would kill
     * a process there (SIGBUS), so the room is checked first (not reserved: posix_fallocate's zeroing
     * made a first hierarchical call 4x as slow) */
    struct statvfs room;
    if (fstatvfs(fd, &room) == 0 && room.f_blocks > 0 && (uint64_t)room.f_bavail * room.f_frsize < length)
        *why = (failure_t){"room in /dev/shm", ENOSPC};
    else if (ftruncate(fd, (off_t)length) != 0) *why = (failure_t){"ftruncate", errno};
    else {
        base = mmap(NULL, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        if (base == MAP_FAILED) base = NULL, *why = (failure_t){"mmap", errno};
    }
    close(fd);
    if (!base) {
        shm_unlink(name);
        name[0] = '\0';
    }
    return base;
}

/* The other node processes: rank 0's object, mapped (NULL on failure). */
static char *map_object(const char *name, size_t length, failure_t *why)
{
    int fd = shm_open(name, O_RDWR, 0);
    if (fd < 0) {
        *why = (failure_t){"shm_open of node rank 0's object", errno};
        return NULL;
    }
    char *base = mmap(NULL, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (base == MAP_FAILED) base = NULL, *why = (failure_t){"mmap", errno};
    close(fd);
    return base;
}

/* MPI_SUCCESS with w->base set, or with w->base NULL when some process of
 * the node could not take part (the node then takes an MPI window); an MPI
 * error code when the node's messages fail. */
static int allocate_posix(MPI_Comm node, size_t bytes, pc_node_window_t *w)
{
    int node_rank;
    int rc = PMPI_Comm_rank(node, &node_rank);
    if (rc != MPI_SUCCESS) return rc;
    size_t length = bytes ? bytes : 1;
    char name[PC_SHM_NAME_MAX] = "";
    failure_t why = {"making the object on node rank 0", 0};
    char *base = node_rank == 0 ? create_object(length, name, &why) : NULL;
    rc = PMPI_Bcast(name, PC_SHM_NAME_MAX, MPI_CHAR, 0, node);
    if (rc == MPI_SUCCESS && node_rank != 0 && name[0]) base = map_object(name, length, &why);
    int mapped = base != NULL, all = 0;
    if (rc == MPI_SUCCESS) rc = PMPI_Allreduce(&mapped, &all, 1, MPI_INT, MPI_MIN, node);
    if (node_rank == 0 && name[0]) shm_unlink(name); /* everyone that could open it has */
    if (rc != MPI_SUCCESS || !all) {
        if (base) munmap(base, length);
        if (rc == MPI_SUCCESS && !mapped)
            pc_log(PC_LOG_INFO, "node memory: %s failed%s%s: the node takes an MPI window", why.call,
                   why.error ? ": " : "", why.error ? strerror(why.error) : "");
        return rc;
    }
    w->base = base;
    w->mapped = length;
    return MPI_SUCCESS;
}

#endif /* !PAPCOLL_SMPI */

int pc_node_window_allocate(MPI_Comm node, size_t bytes, pc_node_window_t *w)
{
    clear(w);
#ifndef PAPCOLL_SMPI
    if (strcmp(pc_params()->shm_backend, "mpi") != 0) {
        int rc = allocate_posix(node, bytes, w);
        if (rc != MPI_SUCCESS || w->base) return rc;
    }
#endif
    return allocate_mpi_window(node, bytes, w);
}

int pc_node_window_allocate_mpi(MPI_Comm node, size_t bytes, pc_node_window_t *w)
{
    clear(w);
    return allocate_mpi_window(node, bytes, w);
}

void pc_node_window_free(pc_node_window_t *w)
{
    if (!w->base) return;
    if (w->win != MPI_WIN_NULL) PMPI_Win_free(&w->win);
#ifndef PAPCOLL_SMPI
    else munmap(w->base, w->mapped);
#endif
    clear(w);
}
