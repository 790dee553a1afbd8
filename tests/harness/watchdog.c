/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * watchdog.c - see watchdog.h.
 */
#include "watchdog.h"

#include <mpi.h>

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int timeout = 120, shared_mode, rank_printed;
static char labels[HARNESS_WATCHDOG_SLOTS][400] = {"(before the first call)"};

void harness_watchdog_label_slot(int slot, const char *fmt, ...)
{
    if (slot < 0 || slot >= HARNESS_WATCHDOG_SLOTS) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(labels[slot], sizeof labels[slot], fmt, ap);
    va_end(ap);
}

const char *harness_watchdog_text(int slot)
{
    return slot >= 0 && slot < HARNESS_WATCHDOG_SLOTS ? labels[slot] : "";
}

const char *harness_watchdog_current(void) { return labels[0]; }

static void say(const char *text)
{
    size_t n = strlen(text);
    (void)!write(2, text, n);
}

static void on_alarm(int sig)
{
    (void)sig;
    char msg[600];
#ifdef PAPCOLL_SMPI
    snprintf(msg, sizeof msg,
             "WATCHDOG: no call started or finished for %d s (wall); rank %d (running in the simulation) is in: %s",
             timeout, rank_printed, labels[0]);
#else
    if (shared_mode)
        snprintf(msg, sizeof msg, "WATCHDOG rank %d: no call started or finished for %d s; thread 0 in: %s",
                 rank_printed, timeout, labels[0]);
    else
        snprintf(msg, sizeof msg, "WATCHDOG rank %d: call not finished after %d s: %s", rank_printed, timeout,
                 labels[0]);
#endif
    say(msg);
    for (int s = 1; s < HARNESS_WATCHDOG_SLOTS; s++)
        if (labels[s][0]) {
            snprintf(msg, sizeof msg, "; thread %d in: %s", s, labels[s]);
            say(msg);
        }
    say("\n");
#ifdef PAPCOLL_SMPI
    _exit(124); /* every rank lives in this process: nothing else to stop */
#else
    MPI_Abort(MPI_COMM_WORLD, 124);
    _exit(124);
#endif
}

void harness_watchdog_init(int timeout_seconds, int shared, int world_rank)
{
    timeout = timeout_seconds;
#ifdef PAPCOLL_SMPI
    shared = 1;
#endif
    shared_mode = shared;
    rank_printed = world_rank;
    signal(SIGALRM, on_alarm);
}

void harness_watchdog_arm(void) { alarm((unsigned)timeout); }

void harness_watchdog_call_done(void)
{
    if (shared_mode) harness_watchdog_arm();
    else alarm(0);
}

void harness_watchdog_off(void) { alarm(0); }
