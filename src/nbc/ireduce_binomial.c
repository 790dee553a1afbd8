/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ireduce_binomial - MPI_Ireduce as a schedule of the binomial tree: with
 * ranks renumbered from the root (v = rank - root mod p), v receives the
 * partial results of its children v + 2^j (2^j below its lowest set bit)
 * all at once, each into its own buffer, combines them into its own, and
 * sends the result to its parent v - 2^k.
 *
 *   p = 8, root 0:   7 -> 6    5, 6 -> 4    3 -> 2    1, 2, 4 -> 0
 *
 * Cost (Hockney, gamma per byte reduced): ceil(log2 p) (alpha + m beta +
 * m gamma) along the deepest path; the root receives log2 p messages.
 * Late arrival: the children's data is received in whatever order it comes
 * (one buffer each); only the combination waits for all of them.  A late
 * leaf delays its ancestors only.
 * Limitations: commutative ops (children are combined in tree order, not
 * rank order): front.c runs native for the others, logged.  Memory: one
 * temporary of count elements per child, plus one for a non-root's partial
 * result.
 * Source: the binomial tree of MPICH and Open MPI (Thakur et al. 2005); as a
 * schedule: Hoefler et al. 2007 (libNBC's ireduce binomial).
 */
#include "nbc/nbc.h"

int pc_ireduce_binomial(pc_nbc_sched_t *s, const pc_nbc_args_t *a)
{
    int p = a->size, v = (a->rank - a->root + p) % p, n = a->count;
    long mask = 1;
    while (mask < p && !(v & mask)) mask <<= 1; /* lowest set bit (p for the root) */
    int nchildren = 0;
    for (long m = 1; m < mask; m <<= 1)
        if (v + m < p) nchildren++;

    void *acc;
    if (v == 0) acc = a->recvbuf;
    else if (nchildren) acc = pc_nbc_alloc(s, n, a->type);
    else acc = (void *)a->sendbuf; /* a leaf sends its data as it is */
    if (!acc) return s->rc;
    pc_nbc_copy(s, a->sendbuf, acc, n, a->type);

    void *child[64];
    int c = 0;
    for (long m = 1; m < mask; m <<= 1)
        if (v + m < p) {
            if (!(child[c] = pc_nbc_alloc(s, n, a->type))) return s->rc;
            pc_nbc_recv(s, child[c++], n, a->type, (int)((v + m + a->root) % p));
        }
    pc_nbc_round(s);
    for (int i = 0; i < c; i++) pc_nbc_reduce(s, child[i], acc, n, a->type, a->op);
    if (v != 0) pc_nbc_send(s, acc, n, a->type, (int)((v - mask + a->root) % p));
    pc_nbc_round(s);
    return s->rc;
}
