/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tracer.c - recording a call, and finding the next definition of a name
 * (natively; under SMPI it is PMPI_<name>: see tracer.h).
 */
#define _GNU_SOURCE
#include "tracer.h"
#include "buffer.h"
#include "run.h"
#include "sites.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

int pt_active;
#ifdef PAPCOLL_SMPI
int pt_depth;
#else
__thread int pt_depth __attribute__((tls_model("initial-exec")));

void *pt_next(void **cache, const char *name)
{
    void *f = __atomic_load_n(cache, __ATOMIC_ACQUIRE);
    if (f) return f;
    f = dlsym(RTLD_NEXT, name);
    if (!f) {
        fprintf(stderr, "papcoll trace: no definition of %s after libpapcoll_trace.so (%s)\n", name, dlerror());
        abort();
    }
    __atomic_store_n(cache, f, __ATOMIC_RELEASE);
    return f;
}
#endif

void pt_end(const pt_call_t *c, int failed, void *site)
{
    uint32_t seq = __atomic_fetch_add(&c->comm->seq, 1, __ATOMIC_RELAXED);
    pt_record_t r = {.t_arrive = c->t_arrive,
                     .t_exit = c->t_exit,
                     .site = (uint64_t)(uintptr_t)site,
                     .bytes = c->bytes,
                     .comm = c->comm->index,
                     .seq = seq,
                     .root = c->root,
                     .coll = c->coll,
                     .flags = (uint16_t)(c->flags | (failed ? PT_FLAG_ERROR : 0))};
    pt_run_record(&r);
    if (pt_resync_check) pt_run_resync_point(c->comm, seq, c->flags);
}
