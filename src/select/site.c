/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * site.c - the call site of a collective (see site.h): from the return
 * address the entry point recorded, cached per thread, or from a backtrace.
 */
#define _GNU_SOURCE
#include "select/site.h"
#include "core/lock.h"

#include <dlfcn.h>
#include <execinfo.h>
#include <link.h>
#include <stdio.h>
#include <string.h>

static int starts_with(const char *s, const char *prefix) { return s && !strncmp(s, prefix, strlen(prefix)); }

/* papcoll's own functions, the MPI entry points (interposer, Fortran bindings) */
static int is_library_symbol(const char *s)
{
    return starts_with(s, "MPI_") || starts_with(s, "PMPI_") || starts_with(s, "mpi_") || starts_with(s, "pmpi_") ||
           starts_with(s, "papcoll_") || starts_with(s, "pc_");
}

static int in_main_program(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    uintptr_t a = *(const uintptr_t *)data;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
        if (ph->p_type == PT_LOAD && a >= lo && a < lo + ph->p_memsz) return 1;
    }
    return 2; /* the first object is the main program: stop there */
}

/* Whether papcoll is linked into the main program (static library: SMPI). */
static int library_in_main_program(void)
{
#ifdef PAPCOLL_SMPI
    return 1; /* static library, in the program smpimain loads */
#endif
    static int answer = -1;
    if (answer < 0) {
        uintptr_t self = (uintptr_t)&pc_site_current;
        answer = dl_iterate_phdr(in_main_program, &self) == 1;
    }
    return answer;
}

static const char *base_name(const char *path)
{
    const char *slash = path ? strrchr(path, '/') : NULL;
    return slash ? slash + 1 : path ? path : "?";
}

/* The call site of the collective: the first return address outside papcoll
 * and the MPI entry points, as a hash of its module's name and its offset in
 * the module (the same in every process, whatever the load addresses).  When
 * papcoll is linked into the program and its symbols are not exported
 * (nothing tells its frames apart), the hash covers the first three frames
 * above this one instead: a short call path, as consistent between processes. */
static uint64_t backtrace_site(char *module, size_t modlen, uintptr_t *offset)
{
    void *frames[8];
    int n = backtrace(frames, 8);
    Dl_info self;
    if (!dladdr((void *)&pc_site_current, &self)) self.dli_fbase = NULL;
    int static_lib = library_in_main_program();
    uint64_t h = PC_FNV_START;
    int hashed = 0;
    for (int i = 1; i < n && hashed < 3; i++) {
        Dl_info info;
        if (!dladdr(frames[i], &info) || !info.dli_fbase) continue;
        if (is_library_symbol(info.dli_sname)) continue;
        int own_module = info.dli_fbase == self.dli_fbase;
        if (own_module && !static_lib) continue;
        const char *name = base_name(info.dli_fname);
        uintptr_t off = (uintptr_t)frames[i] - (uintptr_t)info.dli_fbase;
#ifdef PAPCOLL_SMPI
        h = pc_fnv(h, &off, sizeof off); /* each simulated process loads its own copy of the program, named apart */
#else
        h = pc_fnv(pc_fnv(h, name, strlen(name)), &off, sizeof off);
#endif
        if (!hashed) {
            snprintf(module, modlen, "%s", name);
            *offset = off;
        }
        hashed++;
        if (!(own_module && static_lib && !info.dli_sname)) break; /* a frame known to be the caller's */
    }
    if (!hashed) {
        snprintf(module, modlen, "?");
        *offset = 0;
    }
    return h ? h : 1; /* 0 is state 0 */
}

/* ---- the entry point's return address ---- */

/* set by the outermost entry point of the call in progress */
#ifdef PAPCOLL_SMPI
static __thread void *entry_caller;
#else
static PC_THREAD_LOCAL void *entry_caller;
#endif

int pc_site_enter(void *return_address)
{
    if (entry_caller) return 0;
    entry_caller = return_address;
    return 1;
}

void pc_site_leave(int entered)
{
    if (entered) entry_caller = NULL;
}

/* What one return address resolves to, cached per thread (direct-mapped):
 * dladdr() once per address instead of a backtrace per call. */
typedef struct {
    void *address;
    uint64_t hash;        /* 0: the address is no caller's (an MPI library's Fortran wrapper, the tracer): backtrace */
    uintptr_t offset;
    char module[40];
} site_entry_t;

enum { SITE_CACHE = 64 };
static __thread site_entry_t site_cache[SITE_CACHE];

static void resolve(void *address, site_entry_t *e)
{
    memset(e, 0, sizeof *e);
    e->address = address;
    Dl_info info, self;
    if (!dladdr(address, &info) || !info.dli_fbase || is_library_symbol(info.dli_sname)) return;
    if (dladdr((void *)&pc_site_current, &self) && info.dli_fbase == self.dli_fbase && !library_in_main_program())
        return; /* papcoll's own module */
    const char *name = base_name(info.dli_fname);
    e->offset = (uintptr_t)address - (uintptr_t)info.dli_fbase;
    snprintf(e->module, sizeof e->module, "%s", name);
#ifdef PAPCOLL_SMPI
    uint64_t h = pc_fnv(PC_FNV_START, &e->offset, sizeof e->offset); /* each simulated process's copy is named apart */
#else
    uint64_t h = pc_fnv(pc_fnv(PC_FNV_START, name, strlen(name)), &e->offset, sizeof e->offset);
#endif
    e->hash = h ? h : 1;
}

void *pc_site_caller(void)
{
    void *address = entry_caller;
    const site_entry_t *e = address ? &site_cache[((uintptr_t)address >> 2) % SITE_CACHE] : NULL;
    return e && e->address == address && e->hash ? address : NULL;
}

uint64_t pc_site_current(const char **module, uintptr_t *offset)
{
    void *address = entry_caller;
    if (address) {
        site_entry_t *e = &site_cache[((uintptr_t)address >> 2) % SITE_CACHE];
        if (e->address != address) resolve(address, e);
        if (e->hash) {
            *module = e->module;
            *offset = e->offset;
            return e->hash;
        }
    }
    static __thread char traced[40];
    *module = traced;
    return backtrace_site(traced, sizeof traced, offset);
}
