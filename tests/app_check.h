/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * app_check.h - the failure check of the unmodified test programs of the
 * nonblocking and persistent collectives: CHECK counts a failure in the
 * program's `failures` and prints the first 10, with the program's `rank_w`.
 */
#ifndef PC_TESTS_APP_CHECK_H
#define PC_TESTS_APP_CHECK_H

#include <stdio.h>

#define CHECK(cond, ...)                                   \
    do {                                                   \
        if (!(cond)) {                                     \
            if (failures++ < 10) {                         \
                fprintf(stderr, "[%d] FAIL: ", rank_w);    \
                fprintf(stderr, __VA_ARGS__);              \
                fprintf(stderr, "\n");                     \
            }                                              \
        }                                                  \
    } while (0)

#endif
