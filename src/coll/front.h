/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * front.h - the public pair every collective's front defines, written once:
 *
 *   int papcoll_NAME(PARAMS)
 *       runs the algorithm of the collective's parameter (PAPCOLL_<COLL>, or
 *       auto);
 *   int papcoll_NAME_by_name(const char *algorithm, PARAMS)
 *       checks the name against the collective's algorithms (MPI_ERR_ARG
 *       through comm's error handler for an unknown one) and runs it.
 *
 * Both record their caller as the call site (select/site.h: the address
 * papcoll_NAME returns to, so each must be its own function) and return
 * RUN(forced, source, ARGS...), where forced is the algorithm name or
 * "auto" and source says where it came from (logs).  PARAMS and ARGS are
 * parenthesized lists; PARAMS names the communicator `comm`.  Example:
 *
 *   PC_DEFINE_FRONT(barrier, pc_barrier_coll, barrier, "PAPCOLL_BARRIER", barrier,
 *                   (MPI_Comm comm), (comm))
 */
#ifndef PC_COLL_FRONT_H
#define PC_COLL_FRONT_H

#include "coll/entry.h"
#include "core/state.h"
#include "select/site.h"

#define PC_UNPAREN(...) __VA_ARGS__

#define PC_DEFINE_FRONT(NAME, COLL, FIELD, PARAM, RUN, PARAMS, ARGS)                         \
    int papcoll_##NAME(PC_UNPAREN PARAMS)                                                    \
    {                                                                                        \
        PC_SITE_RETURN(RUN(pc_params()->FIELD.algorithm, PARAM, PC_UNPAREN ARGS));           \
    }                                                                                        \
    int papcoll_##NAME##_by_name(const char *algorithm, PC_UNPAREN PARAMS)                   \
    {                                                                                        \
        int pc_front_rc_ = pc_coll_check_name(&COLL, "papcoll_" #NAME "_by_name", algorithm, comm); \
        if (pc_front_rc_ != MPI_SUCCESS) return pc_front_rc_;                                \
        PC_SITE_RETURN(RUN(algorithm, "papcoll_" #NAME "_by_name", PC_UNPAREN ARGS));        \
    }

#endif
