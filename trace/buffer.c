/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * buffer.c - the per-rank record buffer and its file (see buffer.h).
 */
#include "buffer.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int write_all(int fd, const void *data, size_t n)
{
    const char *p = data;
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

int pt_buffer_open(pt_buffer_t *b, const char *path, size_t bytes, int world_rank, int world_size)
{
    *b = (pt_buffer_t){.fd = -1};
    b->capacity = bytes / sizeof(pt_record_t);
    if (b->capacity < 16) b->capacity = 16;
    b->records = malloc(b->capacity * sizeof(pt_record_t));
    if (!b->records) return -1;
    b->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    pt_file_header_t h = {.version = PT_FORMAT_VERSION,
                          .header_size = sizeof h,
                          .record_size = sizeof(pt_record_t),
                          .world_rank = world_rank,
                          .world_size = world_size};
    memcpy(h.magic, PT_FILE_MAGIC, sizeof h.magic);
    if (b->fd < 0 || write_all(b->fd, &h, sizeof h)) {
        int e = errno;
        pt_buffer_close(b);
        errno = e;
        return -1;
    }
    return 0;
}

static int flush(pt_buffer_t *b)
{
    if (!b->count) return 0;
    if (write_all(b->fd, b->records, b->count * sizeof(pt_record_t))) return -1;
    b->written += b->count;
    b->count = 0;
    return 0;
}

int pt_buffer_append(pt_buffer_t *b, const pt_record_t *r)
{
    pt_record_t *slot = &b->records[b->count++];
    *slot = *r;
    if (b->spilled) slot->flags |= PT_FLAG_AFTER_SPILL;
    b->spilled = 0;
    if (b->count < b->capacity) return 0;
    b->spills++;
    b->spilled = 1;
    return flush(b);
}

int pt_buffer_close(pt_buffer_t *b)
{
    int rc = 0;
    if (b->fd >= 0) {
        rc = flush(b);
        if (close(b->fd)) rc = -1;
    }
    free(b->records);
    b->records = NULL;
    b->fd = -1;
    return rc;
}
