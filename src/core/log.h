/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * log.h - papcoll's logging to stderr, filtered by PAPCOLL_LOG.
 */
#ifndef PC_LOG_H
#define PC_LOG_H

#include "core/params.h"

/* Prints "papcoll[<world rank>] <level>: <message>" when `level` is enabled. */
void pc_log(pc_log_level_t level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static inline int pc_log_enabled(pc_log_level_t level) { return level <= pc_params()->log_level; }

#endif
