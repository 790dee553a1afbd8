/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cma.c - single-copy transfers between processes of one node (see cma.h).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* process_vm_readv, process_vm_writev */
#endif
#include "ctx/cma.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#ifndef PAPCOLL_SMPI
#include <sys/prctl.h>
#include <sys/uio.h>
#endif

#define PC_CMA_PROBE_MAGIC 0x70617063636d6121ull /* "papccma!" */

static volatile uint64_t probe_word;

uint64_t pc_cma_probe_value(int64_t pid) { return PC_CMA_PROBE_MAGIC ^ (uint64_t)pid; }

int64_t pc_cma_self(void) { return (int64_t)getpid(); }

const volatile uint64_t *pc_cma_probe_word(void)
{
    probe_word = pc_cma_probe_value(pc_cma_self());
    return &probe_word;
}

#ifdef PAPCOLL_SMPI

/* One address space: the peer's memory is ours (see cma.h). */
int pc_cma_prepare(const char **why)
{
    *why = NULL;
    return 1;
}

int pc_cma_probe(int64_t pid, uint64_t addr)
{
    (void)pid;
    (void)addr;
    return 1; /* ranks share one address space: every probe word is the same static */
}

int pc_cma_write(int64_t pid, uint64_t dst, const void *src, size_t len)
{
    (void)pid;
    memcpy((void *)(uintptr_t)dst, src, len);
    return 0;
}

int pc_cma_read(int64_t pid, void *dst, uint64_t src, size_t len)
{
    (void)pid;
    memcpy(dst, (const void *)(uintptr_t)src, len);
    return 0;
}

#else

int pc_cma_prepare(const char **why)
{
    *why = NULL;
    FILE *f = fopen("/proc/sys/kernel/yama/ptrace_scope", "r");
    int scope = 0;
    if (f) { /* no Yama: the classic uid rule only */
        if (fscanf(f, "%d", &scope) != 1) scope = 0;
        fclose(f);
    }
    if (scope >= 2) {
        *why = "Yama ptrace_scope >= 2 forbids process_vm_readv/writev";
        return 0;
    }
#ifdef PR_SET_PTRACER
    if (scope == 1) (void)prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0); /* as Open MPI's smsc/cma */
#endif
    return 1;
}

int pc_cma_probe(int64_t pid, uint64_t addr)
{
    uint64_t v = 0;
    return pc_cma_read(pid, &v, addr, sizeof v) == 0 && v == pc_cma_probe_value(pid);
}

/* One direction of a transfer, continued after short transfers. */
static int transfer(int64_t pid, char *local, uint64_t remote, size_t len, int write)
{
    while (len > 0) {
        struct iovec l = {local, len}, r = {(void *)(uintptr_t)remote, len};
        ssize_t n = write ? process_vm_writev((pid_t)pid, &l, 1, &r, 1, 0)
                          : process_vm_readv((pid_t)pid, &l, 1, &r, 1, 0);
        if (n < 0) {
            if (errno == EINTR) continue;
            return errno;
        }
        if (n == 0) return EFAULT;
        local += n, remote += (uint64_t)n, len -= (size_t)n;
    }
    return 0;
}

int pc_cma_write(int64_t pid, uint64_t dst, const void *src, size_t len)
{
    return transfer(pid, (char *)(uintptr_t)src, dst, len, 1);
}

int pc_cma_read(int64_t pid, void *dst, uint64_t src, size_t len) { return transfer(pid, dst, src, len, 0); }

#endif
