/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * persistent_front.h - what the papcoll_<coll>_init fronts share
 * (persistent_front.c: barrier, bcast, reduce, allreduce;
 * persistent_front_blocks.c: the block collectives): the MPI library's own
 * persistent init of a collective, and the maker around its nonblocking
 * front (persistent.h).
 *
 * The library's own: MPI-4's PMPI_<Coll>_init (MPICH 4.0;
 * PAPCOLL_HAVE_MPI_PERSISTENT_COLL, a configure check), else Open MPI's
 * extension PMPIX_<Coll>_init (mpi-ext.h; PAPCOLL_HAVE_MPIX_PCOLLREQ), else
 * none: MPI_ERR_UNSUPPORTED_OPERATION where papcoll would need it.
 */
#ifndef PC_NBC_PERSISTENT_FRONT_H
#define PC_NBC_PERSISTENT_FRONT_H

#include "nbc/persistent.h"
#include "core/log.h"

#if defined(PAPCOLL_HAVE_MPI_PERSISTENT_COLL)
#define NATIVE_CALL(Name, ...) PMPI_##Name##_init(__VA_ARGS__)
#elif defined(PAPCOLL_HAVE_MPIX_PCOLLREQ)
#include <mpi-ext.h>
#define NATIVE_CALL(Name, ...) PMPIX_##Name##_init(__VA_ARGS__)
#else
/* No persistent collectives in this MPI library: papcoll's algorithms only. */
static inline int pc_persist_no_native_init(void)
{
    pc_log(PC_LOG_WARN, "this MPI library has no persistent collectives: only papcoll's algorithms serve them");
    return MPI_ERR_UNSUPPORTED_OPERATION;
}
#define NATIVE_CALL(Name, ...) ((void)x, (void)request, pc_persist_no_native_init())
#endif

/* Runs CALL (a nonblocking front) as the maker of a persistent COLL whose
 * native init is NATIVE(ARGS); returns its result. */
#define PC_PERSIST_MAKE(COLL, NATIVE, ARGS, CALL)                \
    do {                                                         \
        pc_persist_maker_t pc_maker_ = {COLL, NATIVE, ARGS, 0};  \
        pc_persist_maker = &pc_maker_;                           \
        int pc_rc_ = CALL;                                       \
        pc_persist_maker = NULL;                                 \
        return pc_rc_;                                           \
    } while (0)

#endif
