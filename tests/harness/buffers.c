/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * buffers.c - see buffers.h.
 */
#include "buffers.h"

#include <mpi.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

void harness_fill_pattern(unsigned char *p, size_t bytes, uint64_t salt)
{
    for (size_t i = 0; i < bytes; i++) p[i] = harness_pattern_byte(i, salt);
}

void *harness_grow(void *p, size_t bytes)
{
    void *q = realloc(p, bytes ? bytes : 1);
    if (!q) {
        int rank;
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        fprintf(stderr, "rank %d: out of memory (%zu bytes)\n", rank, bytes);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    return q;
}

void harness_reserve(unsigned char **p, size_t *cap, size_t bytes)
{
    if (bytes <= *cap) return;
    *p = harness_grow(*p, bytes);
    *cap = bytes;
}

void harness_buffer_reserve(harness_buffer_t *b, size_t bytes)
{
    if (bytes + HARNESS_GUARD <= b->cap) return;
    free(b->buf);
    b->buf = NULL;
    b->cap = bytes + HARNESS_GUARD;
    b->buf = harness_grow(NULL, b->cap);
}

void harness_buffer_free(harness_buffer_t *b)
{
    free(b->buf);
    b->buf = NULL;
    b->cap = 0;
}

long harness_differences(const unsigned char *got, const unsigned char *want, size_t bytes, size_t *first)
{
    long bad = 0;
    for (size_t i = 0; i < bytes; i++)
        if (got[i] != want[i] && !bad++) *first = i;
    return bad;
}

void harness_problem(int *problems, char *first, size_t size, const char *fmt, ...)
{
    if ((*problems)++) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(first, size, fmt, ap);
    va_end(ap);
}
