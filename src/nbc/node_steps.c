/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * node_steps.c - the dynamic-leader schedules' node steps (see
 * node_steps.h).
 */
#include "nbc/node_steps.h"
#include "coll/entry.h"
#include "core/params.h"

#include <stdlib.h>

static void describe(const pc_nbc_args_t *a, pc_call_t *c)
{
    *c = (pc_call_t){.coll = &pc_reduce_coll, .params = pc_params(), .root = a->root, .sendbuf = a->sendbuf,
                     .recvbuf = a->recvbuf, .count = a->count, .datatype = a->type, .op = a->op};
    pc_call_describe(c);
}

int pc_nbc_node_fits(const pc_nbc_args_t *a)
{
    pc_call_t c;
    describe(a, &c);
    long chunk = pc_node_red_shared_chunk(&c);
    return !c.params->reproducible && chunk > 0 && chunk >= a->count;
}

int pc_nbc_node_release(void *arg)
{
    pc_nbc_node_t *d = arg;
    if (!d->released) pc_node_red_done(&d->r, &d->ch);
    d->released = 1;
    return MPI_SUCCESS;
}

static void node_free(void *arg)
{
    pc_nbc_node_t *d = arg;
    if (d->open) {
        pc_nbc_node_release(d); /* an error before the release: the node must not hang */
        pc_node_red_end(&d->r);
    }
    free(d);
}

static int bank_free(void *arg)
{
    pc_nbc_node_t *d = arg;
    return pc_node_red_bank_free(&d->r, &d->ch) ? MPI_SUCCESS : PC_NBC_NOT_YET;
}

pc_nbc_node_t *pc_nbc_node_open(pc_nbc_sched_t *s, const pc_nbc_args_t *a, int with_tmp, int *rc)
{
    pc_nbc_node_t *d = calloc(1, sizeof *d);
    if (!d) {
        *rc = MPI_ERR_NO_MEM;
        return NULL;
    }
    pc_nbc_release(s, node_free, d);
    pc_nbc_hold_type(s, a->type); /* the node steps combine with them, not through the schedule's ops */
    pc_nbc_hold_op(s, a->op);
    describe(a, &d->call);
    d->out = a->recvbuf;
    *rc = pc_comm_get(a->comm, &d->call.ctx);
    if (*rc == MPI_SUCCESS) *rc = pc_node_red_begin(&d->call, PC_NODE_RED_SHARED, &d->r);
    if (*rc != MPI_SUCCESS) return NULL;
    d->open = 1;
    pc_node_red_take(&d->r, 0, a->count, &d->ch); /* the message fits one chunk: pc_nbc_node_fits */
    if (with_tmp && !(d->tmp = pc_nbc_alloc(s, a->count, a->type))) {
        *rc = s->rc;
        return NULL;
    }
    pc_nbc_test(s, bank_free, d);
    return d;
}

char *pc_nbc_node_acc(const pc_nbc_node_t *d) { return pc_node_red_slot(&d->r, &d->ch, 0); }

int pc_nbc_node_combine(void *arg)
{
    pc_nbc_node_t *d = arg;
    return pc_node_red_combine(&d->r, &d->ch, d->call.sendbuf, d->r.me, &d->last);
}

int pc_nbc_node_combine_leave(void *arg)
{
    int rc = pc_nbc_node_combine(arg);
    pc_nbc_node_release(arg);
    return rc == MPI_SUCCESS ? PC_NBC_STOP : rc;
}

int pc_nbc_node_combine_lead(void *arg)
{
    pc_nbc_node_t *d = arg;
    int rc = pc_nbc_node_combine(d);
    if (rc != MPI_SUCCESS || d->last) return rc;
    pc_nbc_node_release(d);
    return PC_NBC_STOP;
}

int pc_nbc_node_if_last(void *arg)
{
    pc_nbc_node_t *d = arg;
    return d->last ? pc_node_red_copy_out(&d->r, &d->ch, d->tmp) : PC_NBC_SKIP;
}

int pc_nbc_node_complete(void *arg)
{
    pc_nbc_node_t *d = arg;
    return pc_node_red_all_arrived(&d->r, &d->ch) ? MPI_SUCCESS : PC_NBC_NOT_YET;
}

int pc_nbc_node_published(void *arg)
{
    pc_nbc_node_t *d = arg;
    return pc_node_red_is_published(&d->r, &d->ch) ? MPI_SUCCESS : PC_NBC_NOT_YET;
}

int pc_nbc_node_publish(void *arg)
{
    pc_nbc_node_t *d = arg;
    pc_node_red_publish(&d->r, &d->ch);
    return MPI_SUCCESS;
}

int pc_nbc_node_copy_out(void *arg)
{
    pc_nbc_node_t *d = arg;
    return pc_node_red_copy_out(&d->r, &d->ch, d->out);
}

void **pc_nbc_node_receive_others(pc_nbc_sched_t *s, const pc_nbc_args_t *a, const pc_nbc_node_t *d)
{
    int others = d->call.ctx->nnodes - 1;
    void **in = pc_nbc_alloc(s, others > 0 ? others * (long)sizeof(void *) : 1, MPI_BYTE); /* freed with s */
    for (int k = 0; in && k < others; k++)
        if ((in[k] = pc_nbc_alloc(s, a->count, a->type))) pc_nbc_recv(s, in[k], a->count, a->type, MPI_ANY_SOURCE);
    pc_nbc_round(s);
    pc_nbc_test(s, pc_nbc_node_complete, (void *)d);
    return s->rc == MPI_SUCCESS ? in : NULL;
}
