/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * node_copyout.c - the copy-out variants' entry points (node_copyout.h) and
 * the memcpy variant.
 *
 * memcpy: the writer copies each piece into the node ring; every reader
 * copies every piece out as soon as it is valid, and leaves.
 * Cost: one copy-in by the writer, then every reader copies m out of the
 * ring at once (q - 1 simultaneous copies of m: memory bandwidth shared, the
 * contention Parsons 2015 measured beyond some size).
 * Late arrival: the best of the variants: nobody waits for a reader; a late
 * reader costs the others nothing, except that a message larger than the
 * ring makes the writer wait for the slowest reader to free cells.
 * Source: Parsons 2015 §2.3.3 ("Memory Copies"), Fig. 2.8 ("Mem. Copy").
 */
#include "node/node_copyout.h"

#include <string.h>

pc_copyout_variant_t pc_copyout_variant(const char *name)
{
    if (name && !strcmp(name, "bcast")) return PC_COPYOUT_BCAST;
    if (name && !strcmp(name, "numa")) return PC_COPYOUT_NUMA;
    return PC_COPYOUT_MEMCPY;
}

const char *pc_copyout_name(pc_copyout_variant_t v)
{
    return v == PC_COPYOUT_BCAST ? "bcast" : v == PC_COPYOUT_NUMA ? "numa" : "memcpy";
}

int pc_copyout_init(pc_copyout_t *co, pc_comm_t *ctx, pc_shm_t *shm, unsigned long seq, pc_copyout_variant_t v,
                    long numa_domains, int writer, void *buf, size_t bytes)
{
    *co = (pc_copyout_t){.ctx = ctx, .shm = shm, .seq = seq, .variant = v, .writer = writer, .buf = buf,
                         .bytes = bytes};
    if (v == PC_COPYOUT_MEMCPY) return MPI_SUCCESS;
    /* bcast: the whole node as one domain (no exchange) */
    return pc_numa_domains(ctx, v == PC_COPYOUT_BCAST ? 1 : numa_domains, &co->domains);
}

void pc_copyout_put(const pc_copyout_t *co, size_t first, size_t last)
{
    if (co->variant == PC_COPYOUT_MEMCPY) pc_shm_put_pieces(co->shm, co->seq, co->buf, co->bytes, first, last);
    else pc_copyout_tree_put(co, first, last);
}

int pc_copyout_send(const pc_copyout_t *co, size_t first, size_t last)
{
    return co->variant == PC_COPYOUT_MEMCPY ? MPI_SUCCESS : pc_copyout_tree_send(co, first, last);
}

int pc_copyout_get(const pc_copyout_t *co, size_t first, size_t last)
{
    if (co->variant != PC_COPYOUT_MEMCPY) return pc_copyout_tree_get(co, first, last);
    pc_shm_get_pieces(co->shm, co->seq, co->buf, co->bytes, first, last);
    return MPI_SUCCESS;
}
