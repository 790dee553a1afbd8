/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * persistent_swap.c - the swap around a completion call (persistent.h):
 * in the program's array, the handle of each active papcoll persistent
 * request is replaced by its run's generalized request while the MPI
 * library's MPI_Wait* / MPI_Test* (or MPI_Request_get_status) looks at it,
 * then put back.  A run the library completed (and set to
 * MPI_REQUEST_NULL) leaves its request inactive: the program's array holds
 * the handle again, as MPI specifies for a persistent request.  Positions do
 * not move, so indices (Waitany, Waitsome) and statuses are the library's.
 * Inactive requests are not swapped: their handle is an inactive persistent
 * request of the library, which gives what MPI specifies (an empty status;
 * skipped by the any and some forms).
 */
#include "nbc/persistent.h"
#include "nbc/persistent_impl.h"

#include <stdlib.h>

/* Records position i (object p), growing from the inline arrays to the
 * heap (*cap: the room); 0 when out of memory. */
static int record(pc_persist_swap_t *sw, int *cap, int i, pc_persist_t *p)
{
    if (sw->n == *cap) {
        int ncap = 2 * *cap;
        int *at = malloc((size_t)ncap * sizeof *at);
        pc_persist_t **obj = malloc((size_t)ncap * sizeof *obj);
        if (!at || !obj) {
            free(at), free(obj);
            return 0;
        }
        for (int k = 0; k < sw->n; k++) at[k] = sw->at[k], obj[k] = sw->obj[k];
        if (sw->at != sw->small_at) free(sw->at), free(sw->obj);
        sw->at = at, sw->obj = obj;
        *cap = ncap;
    }
    sw->at[sw->n] = i;
    sw->obj[sw->n++] = p;
    return 1;
}

int pc_persist_swap_in(pc_persist_swap_t *sw, int n, MPI_Request reqs[])
{
    sw->n = 0;
    sw->at = sw->small_at;
    sw->obj = sw->small_obj;
    int cap = (int)(sizeof sw->small_at / sizeof sw->small_at[0]);
    for (int i = 0; i < n; i++) {
        pc_persist_t *p = pc_persist_find(reqs[i]);
        if (!p || p->run == MPI_REQUEST_NULL) continue;
        if (!record(sw, &cap, i, p)) break; /* no memory: the rest stay unswapped (their wait never ends) */
        reqs[i] = p->run;
    }
    return sw->n;
}

void pc_persist_swap_out(pc_persist_swap_t *sw, MPI_Request reqs[])
{
    for (int k = 0; k < sw->n; k++) {
        pc_persist_t *p = sw->obj[k];
        int i = sw->at[k];
        p->run = reqs[i]; /* MPI_REQUEST_NULL: the library completed the run */
        reqs[i] = p->handle;
    }
    if (sw->at != sw->small_at) free(sw->at), free(sw->obj);
    sw->n = 0;
}
