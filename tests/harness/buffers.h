/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * buffers.h - the scratch memory of the checked calls and what they check
 * it with: buffers grown as needed (out of memory aborts the job), the
 * pattern and guard bytes around data, byte-wise comparison, and the record
 * of a call's first problem.  Thread-safe (no state of its own).
 */
#ifndef PC_HARNESS_BUFFERS_H
#define PC_HARNESS_BUFFERS_H

#include <stddef.h>
#include <stdint.h>

/* Bytes of guard (pattern bytes that must stay untouched) around the data. */
enum { HARNESS_GUARD = 64 };

/* Byte i of the data of a call salted `salt`: differs between any two
 * offsets closer than 16 MiB, and between calls. */
static inline unsigned char harness_pattern_byte(size_t i, uint64_t salt)
{
    return (unsigned char)(i + (i >> 8) * 7 + (i >> 16) * 13 + salt);
}
/* p[i] = harness_pattern_byte(i, salt) for i < bytes. */
void harness_fill_pattern(unsigned char *p, size_t bytes, uint64_t salt);

/* realloc (at least 1 byte); aborts the job when out of memory. */
void *harness_grow(void *p, size_t bytes);
/* Grows *p (capacity *cap) to at least `bytes`; the contents are kept. */
void harness_reserve(unsigned char **p, size_t *cap, size_t bytes);

/* A growing scratch buffer. */
typedef struct {
    unsigned char *buf;
    size_t cap;
} harness_buffer_t;
/* Makes room for bytes + HARNESS_GUARD; aborts the job when out of memory. */
void harness_buffer_reserve(harness_buffer_t *b, size_t bytes);
void harness_buffer_free(harness_buffer_t *b);

/* The number of bytes where got and want differ; *first: the first of them
 * (left alone when there is none). */
long harness_differences(const unsigned char *got, const unsigned char *want, size_t bytes, size_t *first);

/* Records a problem of a call: counts it in *problems and keeps the text of
 * the first one in first[size]. */
void harness_problem(int *problems, char *first, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* The same for a result struct with members `problems` and `first[]`. */
#define HARNESS_PROBLEM(res, ...) harness_problem(&(res)->problems, (res)->first, sizeof (res)->first, __VA_ARGS__)

#endif
