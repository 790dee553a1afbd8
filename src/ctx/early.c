/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * early.c - control messages of a later call, kept until it comes (see early.h).
 */
#include "ctx/early.h"
#include "core/log.h"
#include "core/p2p.h"

#include <stdlib.h>
#include <string.h>

struct pc_early {
    struct pc_early *next;
    int tag, source;
    unsigned long seq;
    size_t bytes;
    char data[];
};

int pc_early_keep(pc_comm_t *c, int tag, unsigned long seq, int source, const void *data, size_t bytes)
{
    struct pc_early *e = malloc(sizeof *e + bytes), **end = &c->early;
    if (!e) return MPI_ERR_NO_MEM;
    *e = (struct pc_early){NULL, tag, source, seq, bytes};
    memcpy(e->data, data, bytes);
    while (*end) end = &(*end)->next; /* arrival order: the first kept is the first taken */
    *end = e;
    pc_log(PC_LOG_DEBUG, "call %lu's message (tag %d, from %d) came early: kept", seq, tag, source);
    return MPI_SUCCESS;
}

int pc_early_take(pc_comm_t *c, int tag, unsigned long seq, int source, void *buf, size_t cap, int *from,
                  size_t *bytes)
{
    for (struct pc_early **p = &c->early; *p; p = &(*p)->next) {
        struct pc_early *e = *p;
        if (e->tag != tag || e->seq != seq || (source != MPI_ANY_SOURCE && e->source != source)) continue;
        *bytes = e->bytes;
        *from = e->source;
        memcpy(buf, e->data, e->bytes < cap ? e->bytes : cap);
        *p = e->next;
        free(e);
        return 1;
    }
    return 0;
}

void pc_early_free(pc_comm_t *c)
{
    while (c->early) {
        struct pc_early *e = c->early;
        c->early = e->next;
        free(e);
    }
}

int pc_recv_call(pc_comm_t *c, int tag, unsigned long seq, int source, void *buf, size_t bytes, int *from)
{
    size_t got;
    if (pc_early_take(c, tag, seq, source, buf, bytes, from, &got))
        return got == bytes ? MPI_SUCCESS : MPI_ERR_INTERN;
    for (;;) {
        MPI_Status st;
#ifdef PAPCOLL_SMPI
        /* SimGrid 3.32 aborts in MPI_Mprobe ("Not yet implemented"): probe, then receive the first message of
         * that source and tag, the one probed (non-overtaking; one thread per rank under SMPI). */
        int total, rc = PMPI_Probe(source, tag, c->comm, &st);
#else
        MPI_Message msg;
        int total, rc = PMPI_Mprobe(source, tag, c->comm, &msg, &st);
#endif
        if (rc == MPI_SUCCESS) rc = PMPI_Get_count(&st, MPI_BYTE, &total); /* the header's 8 bytes included */
        if (rc != MPI_SUCCESS) return rc;
        size_t size = total >= (int)sizeof(long long) ? (size_t)total - sizeof(long long) : 0;
        long long header = -1;
        char *into = size == bytes ? buf : malloc(size ? size : 1); /* ours has our size: straight in */
        MPI_Datatype t;
        if (!into) return MPI_ERR_NO_MEM;
        rc = pc_header_type(&header, 1, into, (int)size, MPI_BYTE, &t);
        if (rc == MPI_SUCCESS) {
#ifdef PAPCOLL_SMPI
            rc = PMPI_Recv(MPI_BOTTOM, 1, t, st.MPI_SOURCE, tag, c->comm, &st);
#else
            rc = PMPI_Mrecv(MPI_BOTTOM, 1, t, &msg, &st);
#endif
            PMPI_Type_free(&t);
        }
        if (rc == MPI_SUCCESS && header == (long long)seq && size == bytes) {
            *from = st.MPI_SOURCE;
            return MPI_SUCCESS;
        }
        if (rc == MPI_SUCCESS && header > (long long)seq)
            rc = pc_early_keep(c, tag, (unsigned long)header, st.MPI_SOURCE, into, size);
        else if (rc == MPI_SUCCESS) {
            pc_log(PC_LOG_WARN, "tag %d: a message of call %lld (%zu bytes) from %d in call %lu (%zu bytes)", tag,
                   header, size, st.MPI_SOURCE, seq, bytes);
            rc = MPI_ERR_INTERN;
        }
        if (into != buf) free(into);
        if (rc != MPI_SUCCESS) return rc;
    }
}
