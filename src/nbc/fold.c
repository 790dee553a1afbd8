/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fold.c - the fold of p processes to a power of two and its reverse, as
 * rounds of a schedule (nbc.h), shared by the allreduce schedules.
 */
#include "nbc/nbc.h"

long pc_nbc_fold(pc_nbc_sched_t *s, const pc_nbc_args_t *a, void *acc, void *tmp, int rem)
{
    int rank = a->rank, n = a->count;
    if (rank >= 2 * rem) return rank - rem;
    if (rank % 2 == 0) { /* hand over, sit out */
        pc_nbc_send(s, acc, n, a->type, rank + 1);
        pc_nbc_round(s);
        return -1;
    }
    pc_nbc_recv(s, tmp, n, a->type, rank - 1);
    pc_nbc_round(s);
    pc_nbc_reduce(s, tmp, acc, n, a->type, a->op); /* the lower rank on the left */
    return rank / 2;
}

void pc_nbc_unfold(pc_nbc_sched_t *s, const pc_nbc_args_t *a, void *acc, int rem)
{
    int rank = a->rank;
    if (rank < 2 * rem) {
        if (rank % 2) pc_nbc_send(s, acc, a->count, a->type, rank - 1);
        else pc_nbc_recv(s, acc, a->count, a->type, rank + 1);
    }
    pc_nbc_round(s);
}
