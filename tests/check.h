/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * check.h - the tests' assertion: CHECK(condition, printf-style message)
 * prints the failing line and message and counts the failure in `failures`.
 */
#ifndef PC_TEST_CHECK_H
#define PC_TEST_CHECK_H

#include <stdio.h>

static int failures;
#define CHECK(cond, ...)                                                   \
    do {                                                                   \
        if (!(cond)) {                                                     \
            if (failures++ < 20) {                                         \
                fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);       \
                fprintf(stderr, __VA_ARGS__);                              \
                fputc('\n', stderr);                                       \
            }                                                              \
        }                                                                  \
    } while (0)

#endif
