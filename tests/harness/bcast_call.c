/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bcast_call.c - see bcast_call.h.
 */
#include "bcast_call.h"

#include "watchdog.h"

#include <papcoll.h>

#include <string.h>

int harness_ran_ok(const char *algo, const char *ran)
{
    return strcmp(algo, "auto") ? !strcmp(ran, algo) : (*ran && strcmp(ran, "auto"));
}

void harness_bcast_checked(const char *algo, MPI_Comm comm, int rank, int root, int count, MPI_Datatype type,
                           uint64_t salt, harness_buffer_t *b, harness_bcast_result_t *res)
{
    int tsize;
    MPI_Type_size(type, &tsize);
    size_t bytes = (size_t)count * (size_t)tsize;
    int is_root = rank == root;
    harness_buffer_reserve(b, bytes);
    unsigned char *buf = b->buf;
    for (size_t i = 0; i < bytes; i++)
        buf[i] = is_root ? harness_pattern_byte(i, salt) : (unsigned char)~harness_pattern_byte(i, salt);
    memset(buf + bytes, 0xA5, HARNESS_GUARD);
    harness_watchdog_arm();
    int rc = papcoll_bcast_by_name(algo, buf, count, type, root, comm);
    harness_watchdog_call_done();
    memset(res, 0, sizeof *res);
    res->rc = rc;
    res->bytes = bytes;
    res->ran = papcoll_last_algorithm();
    if (rc != MPI_SUCCESS) return;
    for (size_t i = 0; i < bytes; i++)
        if (buf[i] != harness_pattern_byte(i, salt) && !res->bad++) {
            res->first_bad = i;
            res->got = buf[i];
            res->want = harness_pattern_byte(i, salt);
        }
    for (size_t i = 0; i < HARNESS_GUARD; i++) res->guard_bad += buf[bytes + i] != 0xA5;
    res->name_ok = harness_ran_ok(algo, res->ran);
}

int harness_bcast_ok(const harness_bcast_result_t *res)
{
    return res->rc == MPI_SUCCESS && !res->bad && !res->guard_bad && res->name_ok;
}
