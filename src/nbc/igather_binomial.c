/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * igather_binomial - MPI_Igather as a schedule of the binomial tree: with
 * ranks renumbered from the root (v = rank - root mod p), v receives the
 * blocks of each child's subtree (v + m, for the powers of two m below v's
 * lowest set bit) at once, each into its place in a temporary holding its
 * own subtree's blocks in order (in the send datatype), then sends them all
 * to its parent in one message.  The root receives straight into its
 * receive buffer (through a temporary for the one subtree whose blocks wrap
 * past rank p - 1).
 *
 *   p = 8, root 0:   1 -> 0; 3 -> 2 -> 0; 5 -> 4, 7 -> 6 -> 4 -> 0
 *
 * Cost (Hockney, m = all blocks together): ceil(log2 p) alpha +
 * ((p - 1)/p) m beta at the root; the inner processes forward their
 * subtrees (m/2 at the root's largest child).  The small-message choice.
 * Late arrival: a late process delays its ancestors' messages (a late leaf
 * its whole path to the root), so after the last arrival up to
 * ceil(log2 p) messages remain on the path; the other subtrees have been
 * collected meanwhile.
 * Limitations: the regular form (MPI_Igatherv takes linear); MPI_IN_PLACE
 * at the root.  Memory: a temporary of its subtree's blocks at each inner
 * process.
 * Source: the binomial gather of MPICH (Thakur et al. 2005); as a schedule:
 * Hoefler et al. 2007.
 */
#include "nbc/block_args.h"

/* The root: each child's subtree into its blocks of the receive buffer. */
static void root_receives(pc_nbc_sched_t *s, const pc_nbc_args_t *a)
{
    int p = a->size, root = a->root, c = a->recvcount;
    MPI_Datatype t = a->recvtype;
    pc_nbc_own_block(s, a, 0, root);
    char *wrapped = NULL;
    int first_w = 0, n_w = 0;
    for (long m = 1; m < p; m <<= 1) {
        int n = pc_nbc_subtree(m, m, p), first = (int)((root + m) % p);
        if (n <= p - first) {
            pc_nbc_recv_data(s, pc_nbc_rblock(a, a->recvbuf, first), n * c, t, first);
        } else if ((wrapped = pc_nbc_alloc(s, (long)n * c, t))) {
            first_w = first, n_w = n;
            pc_nbc_recv_data(s, wrapped, n * c, t, first);
        }
    }
    pc_nbc_round(s);
    if (wrapped) { /* blocks first_w .. p - 1, then 0 .. */
        int k = p - first_w;
        pc_nbc_copy(s, wrapped, pc_nbc_rblock(a, a->recvbuf, first_w), k * c, t);
        pc_nbc_copy(s, pc_nbc_elem(wrapped, t, (long)k * c), pc_nbc_rblock(a, a->recvbuf, 0), (n_w - k) * c, t);
    }
}

int pc_igather_binomial(pc_nbc_sched_t *s, const pc_nbc_args_t *a)
{
    int p = a->size, root = a->root, v = (a->rank - root + p) % p, c = a->sendcount;
    if (v == 0) {
        root_receives(s, a);
        return s->rc;
    }
    long low = pc_nbc_lowbit(v, p);
    int sub = pc_nbc_subtree(v, low, p), parent = (int)((v - low + root) % p);
    MPI_Datatype t = a->sendtype;
    if (sub == 1) { /* a leaf sends its block as it is */
        pc_nbc_send_data(s, a->sendbuf, c, t, parent);
        return s->rc;
    }
    char *tmp = pc_nbc_alloc(s, (long)sub * c, t);
    if (!tmp) return s->rc;
    pc_nbc_copy(s, a->sendbuf, tmp, c, t);
    for (long m = 1; m < low && v + m < p; m <<= 1)
        pc_nbc_recv_data(s, pc_nbc_elem(tmp, t, m * c), pc_nbc_subtree(v + m, m, p) * c, t, (int)((v + m + root) % p));
    pc_nbc_round(s);
    pc_nbc_send_data(s, tmp, sub * c, t, parent);
    return s->rc;
}
