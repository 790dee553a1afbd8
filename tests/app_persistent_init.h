/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * app_persistent_init.h - INIT(Name): this MPI library's persistent
 * collective init, MPI-4's MPI_<Name>_init (APP_HAVE_MPI_PERSISTENT_COLL)
 * or Open MPI's MPIX_<Name>_init (APP_HAVE_MPIX_PCOLLREQ), for the test
 * programs that call them (app_persistent.c, app_mixed.c); undefined when
 * the library has neither.
 */
#ifndef APP_PERSISTENT_INIT_H
#define APP_PERSISTENT_INIT_H

#include <mpi.h>
#if defined(APP_HAVE_MPIX_PCOLLREQ)
#include <mpi-ext.h>
#define INIT(Name) MPIX_##Name##_init
#elif defined(APP_HAVE_MPI_PERSISTENT_COLL)
#define INIT(Name) MPI_##Name##_init
#endif

#endif
