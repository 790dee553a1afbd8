/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sched.c - building and running the rounds of a schedule (see sched.h).
 */
#include "nbc/sched.h"
#include "core/args.h"

#include <stdlib.h>
#include <string.h>

int pc_nbc_grow(void **p, int *cap, int need, size_t size)
{
    if (need <= *cap) return 1;
    int ncap = *cap ? *cap * 2 : 8;
    while (ncap < need) ncap *= 2;
    void *q = realloc(*p, (size_t)ncap * size);
    if (!q) return 0;
    *p = q;
    *cap = ncap;
    return 1;
}

static void append(pc_nbc_sched_t *s, pc_nbc_op_t op)
{
    if (s->rc != MPI_SUCCESS) return;
    if (!pc_nbc_grow((void **)&s->ops, &s->ops_cap, s->nops + 1, sizeof *s->ops)) {
        s->rc = MPI_ERR_NO_MEM;
        return;
    }
    s->ops[s->nops++] = op;
    if (op.kind != PC_NBC_TEST) pc_nbc_hold_type(s, op.type); /* the program may free them meanwhile */
    if (op.convert) pc_nbc_hold_type(s, op.dst_type);
    if (op.kind == PC_NBC_REDUCE) pc_nbc_hold_op(s, op.op);
    if (op.kind == PC_NBC_SEND || op.kind == PC_NBC_RECV) {
        s->round_comm++;
        if (s->round_comm > s->max_comm) s->max_comm = s->round_comm;
    }
}

void pc_nbc_send(pc_nbc_sched_t *s, const void *buf, int count, MPI_Datatype type, int peer)
{
    append(s, (pc_nbc_op_t){.kind = PC_NBC_SEND, .src = buf, .count = count, .type = type, .peer = peer});
}

void pc_nbc_recv(pc_nbc_sched_t *s, void *buf, int count, MPI_Datatype type, int peer)
{
    append(s, (pc_nbc_op_t){.kind = PC_NBC_RECV, .dst = buf, .count = count, .type = type, .peer = peer});
}

void pc_nbc_copy(pc_nbc_sched_t *s, const void *src, void *dst, int count, MPI_Datatype type)
{
    if (src == dst || count == 0) return;
    append(s, (pc_nbc_op_t){.kind = PC_NBC_COPY, .src = src, .dst = dst, .count = count, .type = type});
}

void pc_nbc_convert(pc_nbc_sched_t *s, const void *src, int scount, MPI_Datatype stype, void *dst, int dcount,
                    MPI_Datatype dtype)
{
    if (stype == dtype && scount == dcount) {
        pc_nbc_copy(s, src, dst, scount, stype);
        return;
    }
    if (scount == 0 && dcount == 0) return;
    append(s, (pc_nbc_op_t){.kind = PC_NBC_COPY, .src = src, .dst = dst, .count = scount, .type = stype,
                            .convert = 1, .dst_count = dcount, .dst_type = dtype});
}

void pc_nbc_reduce(pc_nbc_sched_t *s, const void *in, void *inout, int count, MPI_Datatype type, MPI_Op op)
{
    if (count == 0) return;
    append(s, (pc_nbc_op_t){.kind = PC_NBC_REDUCE, .src = in, .dst = inout, .count = count, .type = type, .op = op});
}

void pc_nbc_test(pc_nbc_sched_t *s, pc_nbc_test_fn fn, void *arg)
{
    append(s, (pc_nbc_op_t){.kind = PC_NBC_TEST, .test = fn, .arg = arg});
}

void pc_nbc_release(pc_nbc_sched_t *s, void (*fn)(void *), void *arg)
{
    s->release = fn;
    s->release_arg = arg;
}

void pc_nbc_round(pc_nbc_sched_t *s)
{
    if (s->rc != MPI_SUCCESS) return;
    int start = s->nrounds ? s->round_end[s->nrounds - 1] : 0;
    if (s->nops == start) return; /* nothing in it */
    if (!pc_nbc_grow((void **)&s->round_end, &s->rounds_cap, s->nrounds + 1, sizeof *s->round_end)) {
        s->rc = MPI_ERR_NO_MEM;
        return;
    }
    s->round_end[s->nrounds++] = s->nops;
    s->round_comm = 0;
}

void *pc_nbc_alloc(pc_nbc_sched_t *s, long n, MPI_Datatype type)
{
    MPI_Aint lb, extent, true_lb, true_extent;
    if (s->rc != MPI_SUCCESS) return NULL;
    PMPI_Type_get_extent(type, &lb, &extent);
    PMPI_Type_get_true_extent(type, &true_lb, &true_extent);
    size_t span = n > 0 ? (size_t)true_extent + (size_t)(n - 1) * (size_t)extent : 1;
    void *base = NULL;
    if (!pc_nbc_grow((void **)&s->bufs, &s->bufs_cap, s->nbufs + 1, sizeof *s->bufs) ||
        !(base = malloc(span ? span : 1))) {
        s->rc = MPI_ERR_NO_MEM;
        return NULL;
    }
    s->bufs[s->nbufs++] = base;
    return (char *)base - true_lb;
}

void pc_nbc_sched_free(pc_nbc_sched_t *s)
{
    if (s->release) s->release(s->release_arg);
    pc_nbc_unhold(s);
    for (int i = 0; i < s->nbufs; i++) free(s->bufs[i]);
    free(s->bufs);
    free(s->ops);
    free(s->round_end);
    memset(s, 0, sizeof *s);
}

/* count elements src -> dst in type's layout (gaps of dst untouched). */
static int copy(const pc_nbc_op_t *o)
{
    int size;
    MPI_Aint lb, extent, true_lb, true_extent;
    if (o->convert)
        return PMPI_Sendrecv(o->src, o->count, o->type, 0, 0, o->dst, o->dst_count, o->dst_type, 0, 0, pc_self_comm(),
                             MPI_STATUS_IGNORE);
    PMPI_Type_size(o->type, &size);
    PMPI_Type_get_extent(o->type, &lb, &extent);
    PMPI_Type_get_true_extent(o->type, &true_lb, &true_extent);
    if ((MPI_Aint)size == true_extent && (o->count == 1 || extent == true_extent)) {
        memcpy((char *)o->dst + true_lb, (const char *)o->src + true_lb, (size_t)o->count * (size_t)size);
        return MPI_SUCCESS;
    }
    return PMPI_Sendrecv(o->src, o->count, o->type, 0, 0, o->dst, o->count, o->type, 0, 0, pc_self_comm(),
                         MPI_STATUS_IGNORE);
}

static int round_start(const pc_nbc_sched_t *s, int r) { return r ? s->round_end[r - 1] : 0; }

int pc_nbc_run_from(const pc_nbc_sched_t *s, int r, int *next)
{
    int rc = MPI_SUCCESS, stop = 0;
    if (*next < round_start(s, r)) *next = round_start(s, r);
    for (; *next < s->round_end[r]; ++*next) {
        const pc_nbc_op_t *o = &s->ops[*next];
        if (o->kind == PC_NBC_COPY) rc = copy(o);
        else if (o->kind == PC_NBC_REDUCE) rc = PMPI_Reduce_local(o->src, o->dst, o->count, o->type, o->op);
        else if (o->kind == PC_NBC_TEST) rc = o->test(o->arg);
        if (rc == PC_NBC_SKIP) {
            *next = s->round_end[r];
            return PC_NBC_SKIP;
        }
        if (rc == PC_NBC_STOP) stop = 1, rc = MPI_SUCCESS;
        if (rc != MPI_SUCCESS) return rc; /* PC_NBC_NOT_YET: *next is polled again */
    }
    return stop ? PC_NBC_STOP : MPI_SUCCESS;
}

int pc_nbc_run_local(const pc_nbc_sched_t *s, int r)
{
    int next = round_start(s, r), rc = pc_nbc_run_from(s, r, &next);
    return rc == PC_NBC_STOP || rc == PC_NBC_SKIP ? MPI_SUCCESS : rc;
}

int pc_nbc_post(const pc_nbc_sched_t *s, int r, MPI_Comm comm, int tag, MPI_Request *req, int *n)
{
    int rc = MPI_SUCCESS;
    *n = 0;
    for (int pass = 0; pass < 2; pass++) /* receives first: a message finds its buffer */
        for (int i = round_start(s, r); i < s->round_end[r] && rc == MPI_SUCCESS; i++) {
            const pc_nbc_op_t *o = &s->ops[i];
            if (pass == 0 && o->kind == PC_NBC_RECV)
                rc = PMPI_Irecv(o->dst, o->count, o->type, o->peer, tag, comm, &req[*n]);
            else if (pass == 1 && o->kind == PC_NBC_SEND)
                rc = PMPI_Isend(o->src, o->count, o->type, o->peer, tag, comm, &req[*n]);
            else
                continue;
            if (rc == MPI_SUCCESS) (*n)++;
        }
    return rc;
}
