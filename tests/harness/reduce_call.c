/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * reduce_call.c - see reduce_call.h.
 */
#include "reduce_call.h"

#include "bcast_call.h"
#include "buffers.h"
#include "errors.h"
#include "watchdog.h"

#include <papcoll.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int rc_block_count(const rc_call_t *call, int i)
{
    if (call->block_form) return call->count;
    return (int)((long)call->count * (long)((i + call->salt) % 3) / 2);
}

int rc_accepts(const char *collective, const char *algo, const rc_case_t *c)
{
    /* the library's own record of what each algorithm needs (algorithms.list) */
    for (int i = 0; i < papcoll_algorithm_count(collective); i++) {
        if (strcmp(papcoll_algorithm_name(collective, i), algo)) continue;
        int needs = papcoll_algorithm_needs(collective, i);
        if ((needs & PAPCOLL_NEEDS_COMMUTATIVE_OP) && !c->commutative) return 0;
        if ((needs & PAPCOLL_NEEDS_PREDEFINED_OP) && !c->predefined) return 0;
    }
    return 1;
}

void rc_buffers_free(rc_buffers_t *b)
{
    free(b->send);
    free(b->send_copy);
    free(b->recv);
    free(b->ref);
    free(b->lib);
    free(b->bound);
    memset(b, 0, sizeof *b);
}

static void reserve(rc_buffers_t *b, size_t bytes, int count)
{
    if (bytes > b->cap) {
        b->send = harness_grow(b->send, bytes);
        b->send_copy = harness_grow(b->send_copy, bytes);
        b->recv = harness_grow(b->recv, bytes);
        b->ref = harness_grow(b->ref, bytes);
        b->lib = harness_grow(b->lib, bytes);
        b->cap = bytes;
    }
    if (count > b->bound_cap) {
        b->bound = harness_grow(b->bound, (size_t)count * sizeof(double));
        b->bound_cap = count;
    }
}

static const char *hex(const unsigned char *p, size_t n, char *out)
{
    for (size_t i = 0; i < n && i < 32; i++) sprintf(out + 2 * i, "%02x", p[i]);
    return out;
}

/* Bytes of p[from, to) that differ from the sentinel, where mask (per
 * element of extent ext) is 0, or everywhere when mask is NULL. */
static long sentinel_damage(const unsigned char *p, size_t from, size_t to, uint64_t salt, const unsigned char *mask,
                            size_t ext, size_t *first)
{
    long bad = 0;
    for (size_t i = from; i < to; i++)
        if ((!mask || !mask[i % ext]) && p[i] != harness_pattern_byte(i, salt) && !bad++) *first = i;
    return bad;
}

/* The call itself, by collective. */
static int call_collective(const rc_call_t *call, const void *sendbuf, void *recvbuf, int total, const int *counts)
{
    const rc_case_t *c = call->c;
    if (!strcmp(call->collective, "reduce"))
        return papcoll_reduce_by_name(call->algo, sendbuf, recvbuf, total, c->type, c->op, call->root, call->comm);
    if (!strcmp(call->collective, "allreduce"))
        return papcoll_allreduce_by_name(call->algo, sendbuf, recvbuf, total, c->type, c->op, call->comm);
    if (!strcmp(call->collective, "scan"))
        return papcoll_scan_by_name(call->algo, sendbuf, recvbuf, total, c->type, c->op, call->comm);
    if (!strcmp(call->collective, "exscan"))
        return papcoll_exscan_by_name(call->algo, sendbuf, recvbuf, total, c->type, c->op, call->comm);
    if (call->block_form)
        return papcoll_reduce_scatter_block_by_name(call->algo, sendbuf, recvbuf, call->count, c->type, c->op,
                                                    call->comm);
    return papcoll_reduce_scatter_by_name(call->algo, sendbuf, recvbuf, counts, c->type, c->op, call->comm);
}

void rc_call_checked(const rc_call_t *call, rc_buffers_t *b, rc_result_t *res)
{
    const rc_case_t *c = call->c;
    const int is_reduce = !strcmp(call->collective, "reduce"), is_rs = !strcmp(call->collective, "reduce_scatter");
    /* elements: in the whole input (total), before my result (first), of my result (mine) */
    int total = call->count, first_mine = 0, mine = call->count;
    int *counts = NULL;
    if (is_rs) {
        counts = harness_grow(NULL, (size_t)call->size * sizeof *counts);
        total = 0;
        for (int i = 0; i < call->size; i++) {
            counts[i] = rc_block_count(call, i);
            if (i == call->rank) first_mine = total;
            total += counts[i];
        }
        mine = counts[call->rank];
    }
    const size_t ext = (size_t)c->extent, bytes = (size_t)total * ext, guard_end = bytes + HARNESS_GUARD;
    const size_t result_bytes = (size_t)mine * ext;
    const int is_scan = !strcmp(call->collective, "scan"), is_exscan = !strcmp(call->collective, "exscan");
    const int gets_result = is_exscan ? call->rank > 0 : !is_reduce || call->rank == call->root;
    const int inplace_here = call->inplace && (!is_reduce || call->rank == call->root);
    const int untouched = is_exscan && call->rank == 0; /* its receive buffer, whatever it holds */
    const uint64_t send_salt = call->salt ^ 0x5e5e5eULL, recv_salt = call->salt ^ 0x7e7e7eULL;
    memset(res, 0, sizeof *res);
    reserve(b, guard_end, total);
    /* the receive buffer: my result, or all the input when in place; guards after it */
    const size_t recv_bytes = inplace_here ? bytes : result_bytes, recv_total = recv_bytes + HARNESS_GUARD;

    if (!inplace_here) {
        harness_fill_pattern(b->send, guard_end, send_salt);
        rc_fill_input(c, call->rank, call->size, total, call->salt, b->send);
        memcpy(b->send_copy, b->send, guard_end);
    }
    void *recvbuf = NULL;
    if (gets_result || !call->null_recv) {
        harness_fill_pattern(b->recv, recv_total, recv_salt);
        if (inplace_here) rc_fill_input(c, call->rank, call->size, total, call->salt, b->recv);
        recvbuf = b->recv;
    }
    const void *sendbuf = inplace_here ? MPI_IN_PLACE : b->send;
    long type_errors = rc_user_op_type_errors();
    const int refused = !rc_accepts(call->collective, call->algo, c);
    if ((refused || untouched) && recvbuf) memcpy(b->ref, b->recv, recv_total); /* nothing may change */

    harness_watchdog_arm();
    int rc = call_collective(call, sendbuf, recvbuf, total, counts);
    harness_watchdog_call_done();
    free(counts);
    if (c->library_ref) { /* every process, whatever its call returned: the library's result of all the input */
        rc_fill_input(c, call->rank, call->size, total, call->salt, b->lib);
        harness_watchdog_arm();
        int lrc = is_scan     ? PMPI_Scan(MPI_IN_PLACE, b->lib, total, c->type, c->op, call->comm)
                  : is_exscan ? PMPI_Exscan(MPI_IN_PLACE, b->lib, total, c->type, c->op, call->comm)
                              : PMPI_Allreduce(MPI_IN_PLACE, b->lib, total, c->type, c->op, call->comm);
        harness_watchdog_call_done();
        if (lrc != MPI_SUCCESS) HARNESS_PROBLEM(res, "the MPI library's own PMPI_%s returned %s",
                                                is_scan ? "Scan" : is_exscan ? "Exscan" : "Allreduce",
                                                harness_class_name(lrc));
    }
    res->rc = rc;
    res->ran = papcoll_last_algorithm();
    res->refused = refused;

    if (refused) {
        if (harness_error_class(rc) != MPI_ERR_OP)
            HARNESS_PROBLEM(res, "%s does not take a %s operation: expected MPI_ERR_OP, got %s", call->algo,
                            c->commutative ? "user-defined" : "non-commutative", harness_class_name(rc));
        else if (recvbuf && memcmp(b->ref, b->recv, recv_total))
            HARNESS_PROBLEM(res, "refused with MPI_ERR_OP, but the receive buffer changed: it ran partly");
        else if (!inplace_here && memcmp(b->send, b->send_copy, guard_end))
            HARNESS_PROBLEM(res, "refused with MPI_ERR_OP, but the send buffer changed");
        return;
    }
    if (rc != MPI_SUCCESS) {
        HARNESS_PROBLEM(res, "returned %s", harness_class_name(rc));
        return;
    }
    if (!harness_ran_ok(call->algo, res->ran))
        HARNESS_PROBLEM(res, "papcoll_last_algorithm()=\"%s\"", res->ran);
    else if (!strcmp(call->algo, "auto") && !rc_accepts(call->collective, res->ran, c))
        HARNESS_PROBLEM(res, "auto chose %s, which does not take this operation", res->ran);

    char h1[72], h2[72];
    size_t at = 0;
    long bad;
    if (gets_result) {
        int ranks = is_scan ? call->rank + 1 : is_exscan ? call->rank : call->size; /* combined */
        rc_reference_prefix(c, call->size, ranks, total, call->salt, b->ref, c->inexact ? b->bound : NULL);
        const unsigned char *want = (c->library_ref ? b->lib : b->ref) + (size_t)first_mine * ext;
        const double *bound = c->inexact ? b->bound + first_mine : NULL;
        long first = 0;
        bad = rc_compare(c, b->recv, want, bound, mine, &first);
        if (bad)
            HARNESS_PROBLEM(res, "%ld wrong elements of %d, first %ld: got %s want %s%s", bad, mine, first,
                            hex(b->recv + (size_t)first * ext, ext, h1), hex(want + (size_t)first * ext, ext, h2),
                            c->inexact ? " (beyond the tolerance)" : "");
        if (c->gaps && (bad = sentinel_damage(b->recv, 0, result_bytes, recv_salt, c->mask, ext, &at)))
            HARNESS_PROBLEM(res, "%ld gap bytes of the receive buffer overwritten, first at byte %zu", bad, at);
        /* in place, the input after my result is MPI's to overwrite; the guards are not */
        if ((bad = sentinel_damage(b->recv, inplace_here ? recv_bytes : result_bytes, recv_total, recv_salt, NULL, 1,
                                   &at)))
            HARNESS_PROBLEM(res, "%ld guard bytes past the receive buffer overwritten", bad);
    } else if (untouched) {
        if (memcmp(b->ref, b->recv, recv_total))
            HARNESS_PROBLEM(res, "rank 0's receive buffer (not significant in MPI_Exscan) changed");
    } else if (recvbuf && (bad = sentinel_damage(b->recv, 0, recv_total, recv_salt, NULL, 1, &at))) {
        HARNESS_PROBLEM(res,
                        "%ld bytes of a non-root's receive buffer (not significant there) overwritten, first at %zu",
                        bad, at);
    }
    if (!inplace_here && harness_differences(b->send, b->send_copy, guard_end, &at))
        HARNESS_PROBLEM(res, "the send buffer changed (first at byte %zu)", at);
    if (rc_user_op_type_errors() != type_errors)
        HARNESS_PROBLEM(res, "a user operation was called with a datatype other than the caller's");
}
