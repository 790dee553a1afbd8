/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tune_file.h - selection rules read from a file (PAPCOLL_TUNE_FILE).
 *
 * The file holds rules in the grammar of tune.h (one or more per line, '#'
 * comments), so a site or a user can ship its own tuning beside the
 * environment string, as MPICH's JSON selection file and Open MPI's
 * coll_tuned dynamic rules file allow.  Its rules are tried after those of
 * PAPCOLL_TUNE and before the built-in ones.
 *
 * Checked with errors that name the place: a file that cannot be read, or
 * that has a syntax error on any line, is ignored as a whole with a warning
 * "FILE:LINE: message" (as a bad PAPCOLL_TUNE is); a rule naming an unknown
 * collective or algorithm is warned about with its line, and skipped when
 * matched.  papcoll_check_tune_file (papcoll-bench --check-tune FILE)
 * reports every problem of a file and fails, so a rules file can be checked
 * before a job is launched.
 */
#ifndef PC_TUNE_FILE_H
#define PC_TUNE_FILE_H

#include <stddef.h>

/* Writes every problem of the rules file at path into report, one
 * "path:line: message" per line (truncated to len), and returns their
 * number; 0 for a good file.  An unreadable file is one problem. */
int pc_tune_file_check(const char *path, char *report, size_t len);

/* The rules text of the file at path (NULL or "" path: none), or NULL when
 * it cannot be read or has a syntax error.  Read and checked once per path
 * string (parameter strings get a new address when they change), problems
 * logged as warnings then.  Call with the papcoll lock held. */
const char *pc_tune_file_rules(const char *path);

#endif
