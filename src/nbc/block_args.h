/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * block_args.h - the blocks of the block collectives' schedules (nbc.h):
 * block i of the send or receive side, in the caller's layout (counts and
 * displacements of the v forms, or the regular form's count), and messages
 * that are left out when they carry no data (both ends know it: MPI makes
 * the type signatures of a send and its receive match).
 */
#ifndef PC_NBC_BLOCK_ARGS_H
#define PC_NBC_BLOCK_ARGS_H

#include "nbc/nbc.h"

static inline int pc_nbc_scount(const pc_nbc_args_t *a, int i)
{
    return a->sendcounts ? a->sendcounts[i] : a->sendcount;
}

static inline int pc_nbc_rcount(const pc_nbc_args_t *a, int i)
{
    return a->recvcounts ? a->recvcounts[i] : a->recvcount;
}

/* Element i of buf in type's layout. */
static inline MPI_Aint pc_nbc_elem_offset(MPI_Datatype type, long i)
{
    MPI_Aint lb, extent;
    PMPI_Type_get_extent(type, &lb, &extent);
    return (MPI_Aint)i * extent;
}

static inline char *pc_nbc_elem(const void *buf, MPI_Datatype type, long i)
{
    return (char *)buf + pc_nbc_elem_offset(type, i);
}

/* The datatype of block i of each side (ialltoallw: its own). */
static inline MPI_Datatype pc_nbc_stype(const pc_nbc_args_t *a, int i)
{
    return a->sendtypes ? a->sendtypes[i] : a->sendtype;
}

static inline MPI_Datatype pc_nbc_rtype(const pc_nbc_args_t *a, int i)
{
    return a->recvtypes ? a->recvtypes[i] : a->recvtype;
}

/* Block i of the send side (sendbuf) and of the receive side (recvbuf, or
 * buf laid out like it); ialltoallw: displacements in bytes. */
static inline char *pc_nbc_sblock(const pc_nbc_args_t *a, const void *buf, int i)
{
    if (a->sendtypes) return (char *)buf + a->sdispls[i];
    return pc_nbc_elem(buf, a->sendtype, a->sendcounts ? a->sdispls[i] : (long)i * a->sendcount);
}

/* Where block i of the receive side starts, in bytes from the buffer. */
static inline MPI_Aint pc_nbc_roffset(const pc_nbc_args_t *a, int i)
{
    if (a->recvtypes) return a->rdispls[i];
    return pc_nbc_elem_offset(a->recvtype, a->recvcounts ? a->rdispls[i] : (long)i * a->recvcount);
}

static inline char *pc_nbc_rblock(const pc_nbc_args_t *a, const void *buf, int i)
{
    return (char *)buf + pc_nbc_roffset(a, i);
}

static inline int pc_nbc_empty(int count, MPI_Datatype type)
{
    int size = 0;
    if (count > 0) PMPI_Type_size(type, &size);
    return count <= 0 || size == 0;
}

/* pc_nbc_send / pc_nbc_recv, left out when no data moves. */
static inline void pc_nbc_send_data(pc_nbc_sched_t *s, const void *buf, int count, MPI_Datatype type, int peer)
{
    if (!pc_nbc_empty(count, type)) pc_nbc_send(s, buf, count, type, peer);
}

static inline void pc_nbc_recv_data(pc_nbc_sched_t *s, void *buf, int count, MPI_Datatype type, int peer)
{
    if (!pc_nbc_empty(count, type)) pc_nbc_recv(s, buf, count, type, peer);
}

/* My own block from the send side to the receive side (nothing with
 * MPI_IN_PLACE): send block `si` of sendbuf to receive block `ri`. */
static inline void pc_nbc_own_block(pc_nbc_sched_t *s, const pc_nbc_args_t *a, int si, int ri)
{
    if (a->sendbuf == MPI_IN_PLACE) return;
    pc_nbc_convert(s, pc_nbc_sblock(a, a->sendbuf, si), pc_nbc_scount(a, si), pc_nbc_stype(a, si),
                   pc_nbc_rblock(a, a->recvbuf, ri), pc_nbc_rcount(a, ri), pc_nbc_rtype(a, ri));
}

/* The binomial trees of igather and iscatter, ranks renumbered from the
 * root (v = rank - root mod p): v's lowest set bit (p or more for the
 * root); v's children are v + m for the powers of two m below it, their
 * subtrees of pc_nbc_subtree(v + m, m, p) processes. */
static inline long pc_nbc_lowbit(long v, int p)
{
    long m = 1;
    while (m < p && !(v & m)) m <<= 1;
    return m;
}

static inline int pc_nbc_subtree(long v, long low, int p) { return (int)(low < p - v ? low : p - v); }

/* ireduce_scatter: first[i] = the element where block i starts (receive
 * counts), first[p] = all of them; NULL (s->rc MPI_ERR_NO_MEM) when out of
 * memory; free() it. */
long *pc_nbc_block_starts(pc_nbc_sched_t *s, const pc_nbc_args_t *a);

/* ialltoall(v,w) with MPI_IN_PLACE: *src = a with the send side made of a
 * copy of the receive buffer's blocks (every one but mine, laid out like the
 * receive buffer), taken when the schedule starts; otherwise *src = a.
 * Returns s->rc. */
int pc_nbc_alltoall_source(pc_nbc_sched_t *s, const pc_nbc_args_t *a, pc_nbc_args_t *src);
/* The all-to-all exchanges: my own block copied, then with peer k = 1 ..
 * p - 1 a receive from rank - k and a send to rank + k, in one round
 * (linear) or one round each (pairwise).  Returns s->rc. */
int pc_nbc_alltoall_exchanges(pc_nbc_sched_t *s, const pc_nbc_args_t *a, int round_each);

#endif
