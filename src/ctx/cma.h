/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cma.h - single-copy transfers between processes of one node.
 *
 * Natively: Linux Cross-Memory Attach (process_vm_readv / process_vm_writev),
 * the kernel copying straight between two address spaces, as Open MPI's
 * smsc/cma (and vader before it) and MPICH's nemesis LMT "cma" use it.  The
 * kernel allows it between processes that may ptrace each other: same uid,
 * and a Yama policy (/proc/sys/kernel/yama/ptrace_scope) of 0, or of 1 with
 * the target having called prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY) (done by
 * pc_cma_prepare, like Open MPI); 2 and 3 forbid it.  Containers, seccomp or
 * pid namespaces may forbid it too: so whether it works is decided by a
 * probe, pc_cma_probe, which reads a known word of a peer.
 *
 * Under SimGrid SMPI every rank lives in one address space: a "single copy"
 * is a plain memcpy from/to the peer's address, and the caller charges it as
 * ONE copy (pc_shm_charge).  That is the copy model of single-copy
 * transfers, not CMA.
 *
 * The node segment (ctx/shm_segment.c) publishes each process's pid and probe word,
 * probes every pair when it is created and agrees over the node whether
 * every pair can single-copy; node/node.c builds Morimoto et al. 1999's write protocol
 * on it (the writer writes, or with PAPCOLL_NODE_PROTOCOL=read its posted
 * readers read), and node/node_reduce.c the reductions' pulled copy-in.
 */
#ifndef PC_CMA_H
#define PC_CMA_H

#include <stddef.h>
#include <stdint.h>

/* Whether the local policy may allow single copies at all (natively: the
 * Yama ptrace scope; scope 1 also registers this process as traceable by
 * any process of its uid).  1 = try, 0 = forbidden (then *why says why). */
int pc_cma_prepare(const char **why);
/* This process's id as peers name it (natively getpid()). */
int64_t pc_cma_self(void);
/* The address of this process's probe word and the value a peer must read there. */
const volatile uint64_t *pc_cma_probe_word(void);
uint64_t pc_cma_probe_value(int64_t pid);
/* 1 if this process can read peer `pid`'s probe word at `addr` and reads
 * the expected value, else 0. */
int pc_cma_probe(int64_t pid, uint64_t addr);
/* Copies len bytes from local `src` to `dst` in process `pid` (write), or
 * from `src` in process `pid` to local `dst` (read).  0 on success, else an
 * errno value (a short transfer is continued until done). */
int pc_cma_write(int64_t pid, uint64_t dst, const void *src, size_t len);
int pc_cma_read(int64_t pid, void *dst, uint64_t src, size_t len);

#endif
