/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lock.h - what makes papcoll safe under MPI_THREAD_MULTIPLE for collectives
 * on different communicators from different threads: per-thread storage and
 * a process-wide mutex for the few shared lazily-built structures (context
 * list, keyvals, compiled rules, parameters).  Never hold the lock across an
 * MPI collective (another process's thread may wait for it).
 *
 * Under SimGrid SMPI every simulated rank is a coroutine of one OS thread:
 * globals are privatized per rank and ranks never run concurrently, so the
 * lock is a no-op and "per thread" means per rank (a plain static).
 */
#ifndef PC_CORE_LOCK_H
#define PC_CORE_LOCK_H

#ifdef PAPCOLL_SMPI
#define PC_THREAD_LOCAL
static inline void pc_lock(void) {}
static inline void pc_unlock(void) {}
#else
#include <pthread.h>
/* initial-exec: a load from the thread pointer instead of a call to
 * __tls_get_addr per access (the variables are few and small; the library
 * is linked or preloaded, and a dlopen finds room for them in glibc's
 * surplus of static TLS) */
#define PC_THREAD_LOCAL _Thread_local __attribute__((tls_model("initial-exec")))
extern pthread_mutex_t pc_global_mutex;
static inline void pc_lock(void) { pthread_mutex_lock(&pc_global_mutex); }
static inline void pc_unlock(void) { pthread_mutex_unlock(&pc_global_mutex); }
#endif

#endif
