/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * state.h - process-wide state visible through the public API.
 */
#ifndef PC_STATE_H
#define PC_STATE_H

/* Records the algorithm a call actually ran (a static table string). */
void pc_set_last_algorithm(const char *name);

#endif
