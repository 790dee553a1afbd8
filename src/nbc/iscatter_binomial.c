/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * iscatter_binomial - MPI_Iscatter as a schedule of the binomial tree: with
 * ranks renumbered from the root (v = rank - root mod p), the root sends
 * each child v + m (m a power of two) the blocks of its subtree in one
 * message, all at once; an inner process receives its subtree's blocks
 * into a temporary (in the receive datatype), keeps its own and sends each
 * child its part.  The root sends straight from its send buffer (through a
 * temporary for the one subtree whose blocks wrap past rank p - 1).
 *
 *   p = 8, root 0:   0 -> 1; 0 -> 2 -> 3; 0 -> 4 -> 5, 4 -> 6 -> 7
 *
 * Cost (Hockney, m = all blocks together): ceil(log2 p) alpha +
 * ((p - 1)/p) m beta at the root; the inner processes forward their
 * subtrees.  The small-message choice.
 * Late arrival: a late inner process delays its subtree only; a late root
 * delays everyone, then ceil(log2 p) messages remain on the deepest path.
 * Limitations: the regular form (MPI_Iscatterv takes linear); MPI_IN_PLACE
 * at the root.  Memory: a temporary of its subtree's blocks at each inner
 * process.
 * Source: the binomial scatter of MPICH (Thakur et al. 2005); as a
 * schedule: Hoefler et al. 2007.
 */
#include "nbc/block_args.h"

/* The root: each child's subtree from its blocks of the send buffer. */
static void root_sends(pc_nbc_sched_t *s, const pc_nbc_args_t *a)
{
    int p = a->size, root = a->root, c = a->sendcount;
    MPI_Datatype t = a->sendtype;
    if (a->recvbuf != MPI_IN_PLACE)
        pc_nbc_convert(s, pc_nbc_sblock(a, a->sendbuf, root), c, t, a->recvbuf, a->recvcount, a->recvtype);
    for (long m = 1; m < p; m <<= 1) {
        int n = pc_nbc_subtree(m, m, p), first = (int)((root + m) % p), k = p - first;
        const char *from = pc_nbc_sblock(a, a->sendbuf, first);
        if (n > k) { /* blocks first .. p - 1, then 0 .. */
            char *wrapped = pc_nbc_alloc(s, (long)n * c, t);
            if (!wrapped) return;
            pc_nbc_copy(s, from, wrapped, k * c, t);
            pc_nbc_copy(s, pc_nbc_sblock(a, a->sendbuf, 0), pc_nbc_elem(wrapped, t, (long)k * c), (n - k) * c, t);
            from = wrapped;
        }
        pc_nbc_send_data(s, from, n * c, t, first);
    }
}

int pc_iscatter_binomial(pc_nbc_sched_t *s, const pc_nbc_args_t *a)
{
    int p = a->size, root = a->root, v = (a->rank - root + p) % p, c = a->recvcount;
    if (v == 0) {
        root_sends(s, a);
        return s->rc;
    }
    long low = pc_nbc_lowbit(v, p);
    int sub = pc_nbc_subtree(v, low, p), parent = (int)((v - low + root) % p);
    MPI_Datatype t = a->recvtype;
    if (sub == 1) { /* a leaf receives its block in place */
        pc_nbc_recv_data(s, a->recvbuf, c, t, parent);
        return s->rc;
    }
    char *tmp = pc_nbc_alloc(s, (long)sub * c, t);
    if (!tmp) return s->rc;
    pc_nbc_recv_data(s, tmp, sub * c, t, parent);
    pc_nbc_round(s);
    pc_nbc_copy(s, tmp, a->recvbuf, c, t);
    for (long m = 1; m < low && v + m < p; m <<= 1)
        pc_nbc_send_data(s, pc_nbc_elem(tmp, t, m * c), pc_nbc_subtree(v + m, m, p) * c, t, (int)((v + m + root) % p));
    return s->rc;
}
