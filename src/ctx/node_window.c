/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * node_window.c - one shared-memory area per node (see node_window.h).
 */
#include "ctx/node_window.h"

#define PC_NODE_WINDOW_ALIGN 64 /* a cache line: shares never split one */

int pc_node_window_allocate(MPI_Comm node, size_t bytes, char **base, MPI_Win *win)
{
    int nprocs;
    *win = MPI_WIN_NULL;
    int rc = PMPI_Comm_size(node, &nprocs);
    if (rc != MPI_SUCCESS) return rc;
    size_t share = (bytes + (size_t)nprocs - 1) / (size_t)nprocs;
    share = (share + PC_NODE_WINDOW_ALIGN - 1) / PC_NODE_WINDOW_ALIGN * PC_NODE_WINDOW_ALIGN;
    char *mine;
    rc = PMPI_Win_allocate_shared((MPI_Aint)share, 1, MPI_INFO_NULL, node, &mine, win);
    if (rc != MPI_SUCCESS) {
        *win = MPI_WIN_NULL;
        return rc;
    }
    MPI_Aint size;
    int disp;
    rc = PMPI_Win_shared_query(*win, 0, &size, &disp, base);
    if (rc != MPI_SUCCESS) PMPI_Win_free(win);
    return rc;
}
