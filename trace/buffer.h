/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * buffer.h - this rank's records: a fixed-size in-memory buffer
 * (PAPCOLL_TRACE_BUFFER bytes) appended to by every traced call and written
 * to rank-R.bin when full and at MPI_Finalize.  A write happens after the
 * call that filled the buffer has returned (outside its arrival-exit
 * interval); the next record carries PT_FLAG_AFTER_SPILL since the write
 * may have delayed its arrival.  Callers hold the tracer's lock.
 */
#ifndef PAPCOLL_TRACE_BUFFER_H
#define PAPCOLL_TRACE_BUFFER_H

#include "format.h"

#include <stddef.h>
#include <stdint.h>

typedef struct {
    pt_record_t *records;
    size_t capacity, count;
    int fd;
    uint64_t written; /* records written to the file */
    uint64_t spills;  /* writes of a full buffer */
    int spilled;      /* the last append wrote the buffer: flag the next record */
} pt_buffer_t;

/* Opens path, writes the file header.  0, or -1 with errno. */
int pt_buffer_open(pt_buffer_t *b, const char *path, size_t bytes, int world_rank, int world_size);
/* Appends r (flags it after a spill), writing the buffer out when full.  0, or -1 with errno. */
int pt_buffer_append(pt_buffer_t *b, const pt_record_t *r);
/* Writes what remains and closes.  0, or -1 with errno. */
int pt_buffer_close(pt_buffer_t *b);

#endif
