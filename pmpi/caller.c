/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * caller.c - pc_from_fortran (caller.h): dladdr of the return address, the
 * last answer cached per thread (a program calls from few places).
 */
#define _GNU_SOURCE
#include "caller.h"

#include <dlfcn.h>
#include <string.h>

int pc_from_fortran(void *caller)
{
    static __thread void *last_caller;
    static __thread int last_answer;
    if (caller == last_caller) return last_answer;
    Dl_info info;
    int fortran = dladdr(caller, &info) && info.dli_fname &&
                  (strstr(info.dli_fname, "fort") || strstr(info.dli_fname, "mpifh") || strstr(info.dli_fname, "usempi"));
    last_caller = caller;
    last_answer = fortran;
    return fortran;
}
