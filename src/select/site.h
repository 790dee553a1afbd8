/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * site.h - the call site of a collective, for adaptive selection (adapt.h):
 * a hash of the caller's module name and its offset in the module (the same
 * in every process whatever the load addresses), plus both for logs.
 *
 * The entry points (the PMPI interposer's MPI_<coll>, the Fortran bindings,
 * papcoll's API) bracket the call with pc_site_enter(__builtin_return_address(0))
 * and pc_site_leave(): the outermost records its caller, and the site costs
 * a lookup in a per-thread cache (one dladdr() per distinct caller).  Where
 * that caller is itself an MPI wrapper (an MPI library's Fortran bindings
 * calling the C MPI_<coll>, the arrival tracer) or no entry point recorded
 * one, the site is the first frame of a backtrace outside papcoll and the
 * MPI entry points (about 2-4 us a call on this machine, against well under
 * 0.1 us for the cached lookup).
 */
#ifndef PC_SITE_H
#define PC_SITE_H

#include <stddef.h>
#include <stdint.h>

/* FNV-1a, for the site hashes and adaptive selection's group keys (inline:
 * every call hashes its site, and a constant n unrolls). */
static inline uint64_t pc_fnv(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001b3ULL;
    return h;
}
#define PC_FNV_START 0xcbf29ce484222325ULL

/* One FNV step over a whole 64-bit word (not its 8 bytes): the call
 * sequence's hash takes each call's site so, a few instructions a call. */
static inline uint64_t pc_fnv_word(uint64_t h, uint64_t word) { return (h ^ word) * 0x100000001b3ULL; }

/* Records return_address as the call's caller unless an outer entry point
 * did; returns whether it did (pass that to pc_site_leave). */
int pc_site_enter(void *return_address);
void pc_site_leave(int entered);

/* An entry point's body `return EXPR;`, with its caller recorded meanwhile.
 * (Used in the function whose caller is wanted: __builtin_return_address.) */
#define PC_SITE_RETURN(expr)                                                \
    do {                                                                    \
        int pc_site_entered_ = pc_site_enter(__builtin_return_address(0)); \
        int pc_site_rc_ = (expr);                                           \
        pc_site_leave(pc_site_entered_);                                    \
        return pc_site_rc_;                                                 \
    } while (0)

/* The current call's site (never 0), its module's name (valid until the
 * thread's next call) and offset. */
uint64_t pc_site_current(const char **module, uintptr_t *offset);

/* The current call's recorded caller when pc_site_current() has resolved it
 * to a site of its own (not an MPI library's wrapper: a backtrace's site),
 * else NULL: equal callers, equal sites. */
void *pc_site_caller(void);

#endif
