/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * watchdog.h - turns a hung collective into a named failure: every call is
 * bracketed by harness_watchdog_arm() / harness_watchdog_call_done(); if a
 * call does not return within the timeout the process prints what it was
 * doing (the labels) and aborts the job with exit code 124.
 *
 * Native, one thread per process: the alarm is armed at the start of a call
 * and cancelled at its end.  Shared mode (SMPI, where every rank lives in one
 * process and shares one alarm, or several threads calling collectives):
 * a rank or thread leaving its call must not cancel an alarm a peer still
 * needs, so each call start and end re-arms it; it fires when nobody started
 * or finished a call for the timeout (wall time).  harness_watchdog_off()
 * cancels it for good (after a final barrier).
 */
#ifndef PC_HARNESS_WATCHDOG_H
#define PC_HARNESS_WATCHDOG_H

enum { HARNESS_WATCHDOG_SLOTS = 16 };

/* Installs the SIGALRM handler.  `shared` selects shared mode (always on
 * under SMPI).  `world_rank` is printed with the message. */
void harness_watchdog_init(int timeout_seconds, int shared, int world_rank);
/* What slot `slot` (a thread index; 0 for single-threaded tests) is doing,
 * printf-style; the handler prints every non-empty slot. */
void harness_watchdog_label_slot(int slot, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#define harness_watchdog_label(...) harness_watchdog_label_slot(0, __VA_ARGS__)
/* The text of slot `slot`; of slot 0. */
const char *harness_watchdog_text(int slot);
const char *harness_watchdog_current(void);
void harness_watchdog_arm(void);
void harness_watchdog_call_done(void);
void harness_watchdog_off(void);

#endif
