/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * reduction.h - what reduction algorithms (reduce, allreduce, and later
 * reduce_scatter) share: buffers in the user's datatype layout, local
 * combination in rank order, element blocks, the single-process case.
 *
 * Reductions work on `count` elements of the user's datatype in its own
 * layout (MPICH's approach): a temporary buffer for n elements spans
 * true_extent + (n - 1) x extent bytes and is addressed like the user's
 * buffer (shifted by -true_lb), so MPI_Reduce_local and point-to-point with
 * the user's datatype work on it directly, for derived and pair types alike,
 * and user-defined ops receive what they expect.
 *
 * Order: MPI_Reduce_local(in, inout) computes inout = in op inout.  To keep
 * the rank order of a non-commutative op, `in` must hold the lower ranks.
 */
#ifndef PC_COLL_REDUCTION_H
#define PC_COLL_REDUCTION_H

#include "coll/call.h"

/* A buffer for n elements of a's datatype; *base is what to free() (NULL on
 * failure: the return is then NULL too).  n = 0 gives a valid 1-byte buffer. */
void *pc_red_alloc(const pc_call_t *a, long n, void **base);
/* Element i of buf. */
static inline char *pc_red_at(const pc_call_t *a, const void *buf, long i)
{
    return (char *)buf + (MPI_Aint)i * a->extent;
}
/* Copies n elements src -> dst (same layout; gaps of dst untouched).
 * Nothing to do when dst == src. */
int pc_red_copy(const pc_call_t *a, void *dst, const void *src, long n);
/* inout[0..n) = in[0..n) op inout[0..n): in holds the lower ranks. */
int pc_red_local(const pc_call_t *a, const void *in, void *inout, long n);
/* Point-to-point of n elements of a's datatype on the private communicator. */
int pc_red_send(const pc_call_t *a, const void *buf, long n, int dst, int tag);
int pc_red_recv(const pc_call_t *a, void *buf, long n, int src, int tag);
int pc_red_sendrecv(const pc_call_t *a, const void *sbuf, long sn, int dst, void *rbuf, long rn, int src, int tag);
/* MPICH's reduction of p processes to a power of two pof2 = p - rem (the
 * recursive algorithms): of the first 2 rem ranks, the even ones send acc to
 * rank + 1 and sit out (*newrank = -1), the odd ones combine it into acc,
 * the lower rank on the left (tmp: scratch for count elements); the others
 * are renumbered rank - rem. */
int pc_red_fold(const pc_call_t *a, void *acc, void *tmp, int rem, int tag, long *newrank);
/* The reverse: the odd ranks below 2 rem send buf to rank - 1. */
int pc_red_unfold(const pc_call_t *a, void *buf, int rem, int tag);
/* Largest power of two <= p (p >= 1). */
static inline int pc_red_pof2(int p)
{
    int pof2 = 1;
    while (pof2 <= p / 2) pof2 *= 2;
    return pof2;
}
/* The rank in the communicator of rank `newrank` among the pof2 processes
 * left after pc_red_fold (the odd ranks below 2 rem, then the others). */
static inline int pc_red_fold_rank(long newrank, int rem)
{
    return (int)(newrank < rem ? newrank * 2 + 1 : newrank + rem);
}
/* What a reduction does on one process: recvbuf = sendbuf. */
int pc_red_single(const pc_call_t *a);

/* The front of papcoll_reduce and papcoll_allreduce (coll->rooted says
 * which; root ignored for allreduce): the MPI argument checks (errors
 * through comm's handler), the MPI library on an intercommunicator, then
 * pc_coll_run with `forced` ("auto" or a name) from `source` (logs). */
int pc_red_enter(const char *forced, const char *source, const pc_coll_t *coll, const void *sendbuf, void *recvbuf,
                 int count, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm);
/* Whether pc_check_reduction_args (rooted: with root; else as MPI_Allreduce,
 * MPI_Scan and MPI_Reduce_scatter_block check them) certainly accepts the
 * buffers and root of a call whose datatype, count (> 0), op and
 * MPI_IN_PLACE were accepted before (a memo's repeat: coll/call_memo.h):
 * anything else takes the whole check, which reports it. */
int pc_red_buffers_accepted(const void *sendbuf, const void *recvbuf, int rooted, int root, const pc_comm_t *ctx);
/* Runs algorithm `name` (or "auto") of a->coll with a's datatype and op on
 * another communicator (hier: among node leaders): sendbuf -> recvbuf (at
 * root for reduce).  Does not touch papcoll_last_algorithm. */
int pc_red_call_on(const pc_call_t *a, const char *name, const void *sendbuf, void *recvbuf, int root, MPI_Comm comm);
/* A hierarchical reduction whose single element does not fit the `room`
 * bytes it has in node shared memory: logs (at the root) and runs `inter`
 * over the whole communicator instead. */
int pc_red_whole_comm(const pc_call_t *a, const char *algorithm, size_t room, const char *inter);

#endif
