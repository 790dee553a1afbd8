/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * blocks.h - the blocks of the collectives papcoll-bench measures that move
 * one block per process or per pair of processes (--coll=allgather(v),
 * gather(v), scatter(v), alltoall(v), reduce_scatter(_block)): how many
 * elements each block holds, where it lies in the buffer of many blocks, and
 * the values it holds (no MPI).  -m = the bytes of one process block (OSU's
 * convention: what each process contributes to an allgather or gather, what
 * each receives from a scatter or a reduce_scatter, what each sends to each
 * destination in an alltoall).
 *
 *   equal counts  (allgather, gather, scatter, reduce_scatter_block,
 *                 alltoall) count = floor(size / element size) elements;
 *                 block r at r x count.
 *   v forms       rank r's block holds floor(size (1 + r mod 3) / 2 /
 *                 element size) elements (about size/2, size, 3 size/2
 *                 bytes: unequal counts), and the blocks lie in reverse rank
 *                 order (rank p-1's first), so the layout is not the
 *                 rank-ordered one and a library cannot get it right by
 *                 accident (allgatherv, gatherv, scatterv).  reduce_scatter
 *                 has the same counts in rank order (MPI_Reduce_scatter has
 *                 no displacements).
 *   alltoallv     the block from sender s to receiver d holds floor(size (1 +
 *                 (s + 2 d) mod 3) / 2 / element size) elements (a function
 *                 of both: row s and column d of the count matrix each cycle
 *                 through the three sizes); on each process the blocks lie in
 *                 reverse order of the peer, in the send and the receive
 *                 buffer.
 *
 * Element k of rank r's block in repetition rep holds blocks_value(r, k,
 * rep, vmax), a hash in [1, vmax], and element k of the block from s to d
 * blocks_element(blocks_pair_seed(s, d, rep), k, vmax): a block from the
 * wrong rank, pair, element or repetition differs from the expected one with
 * probability about 1 - 1/vmax, and no block holds 0 or a negative value
 * (the receive buffer's fill).
 */
#ifndef PB_BLOCKS_H
#define PB_BLOCKS_H

#include <stddef.h>

/* Elements rank r contributes for message size `size` (bytes). */
int blocks_count(int vform, size_t size, size_t elem_size, int r);
/* counts[r] and displs[r] (elements) of p processes; returns the elements
 * of the whole receive buffer, or -1 if a count, a displacement or the total
 * exceeds INT_MAX (MPI's int arguments). */
long blocks_layout(int vform, size_t size, size_t elem_size, int p, int *counts, int *displs);
/* counts[r] and displs[r] of p processes in rank order (reduce_scatter's
 * blocks); as blocks_layout otherwise. */
long blocks_rank_layout(int vform, size_t size, size_t elem_size, int p, int *counts, int *displs);
/* Elements of the alltoall(v) block that sender s sends receiver d. */
int blocks_pair_count(int vform, size_t size, size_t elem_size, int s, int d);
/* Process me's alltoall(v) layout: counts[j] and displs[j] of the block it
 * sends to j (sending = 1) or receives from j (sending = 0); the v form's
 * blocks in reverse order of j.  The buffer's elements, or -1 beyond INT_MAX. */
long blocks_pair_layout(int vform, size_t size, size_t elem_size, int p, int me, int sending, int *counts, int *displs);
/* The value of element k of rank r's block in repetition rep, in [1, vmax]:
 * blocks_element(blocks_seed(r, rep), k, vmax) (the seed once per block). */
unsigned long long blocks_seed(int r, long rep);
long blocks_element(unsigned long long seed, size_t k, long vmax);
long blocks_value(int r, size_t k, long rep, long vmax);
/* The seed of the alltoall block from s to d in repetition rep. */
unsigned long long blocks_pair_seed(int s, int d, long rep);

#endif
