/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lock.c - the process-wide mutex (see lock.h).  Recursive: a locked section
 * may read the parameters, which take the lock on first use.
 */
#define _GNU_SOURCE /* PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP */
#include "core/lock.h"

#ifndef PAPCOLL_SMPI
pthread_mutex_t pc_global_mutex = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
#endif
