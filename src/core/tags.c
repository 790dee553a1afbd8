/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tags.c - the window of the windowed tags (see tags.h).
 */
#include "core/tags.h"
#include "core/params.h"

#include <mpi.h>

enum { PC_TAG_UB_MIN = 32767 }; /* what MPI guarantees */

unsigned long pc_tag_window = (PC_TAG_UB_MIN + 1 - PC_TAG_WINDOWED) / PC_TAG_SLOTS;

int pc_tags_init(void)
{
    int *ub = NULL, found = 0;
    int rc = PMPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub, &found);
    if (rc != MPI_SUCCESS) return rc;
    long long top = found && ub && *ub > PC_TAG_UB_MIN ? *ub : PC_TAG_UB_MIN;
    pc_tag_window = (unsigned long)((top + 1 - PC_TAG_WINDOWED) / PC_TAG_SLOTS);
    long wanted = pc_params()->tag_window; /* tests shrink it */
    if (wanted > 0 && (unsigned long)wanted < pc_tag_window) pc_tag_window = (unsigned long)wanted;
    return MPI_SUCCESS;
}
