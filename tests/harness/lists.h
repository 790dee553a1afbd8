/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lists.h - comma-separated option lists and the algorithm lists of the
 * tests: the library's own catalogue of a collective (papcoll_algorithm_name)
 * plus "auto", filtered or named by a --algos option.
 */
#ifndef PC_HARNESS_LISTS_H
#define PC_HARNESS_LISTS_H

/* Splits "a,b,c" into a malloc'ed array of malloc'ed words; returns the
 * number of words.  Free with harness_list_free(). */
int harness_list_split(const char *list, char ***out);
void harness_list_free(char **words, int n);
/* 1 when `word` is one of the words of `list`. */
int harness_list_has(const char *list, const char *word);
/* 1 when `name` matches a word of `list`: equal to it, or starting with
 * what precedes a trailing '*' ("hier*" matches hier and hier_nobarrier). */
int harness_list_matches(const char *list, const char *name);

/* Aborts the job (code 2) when a word of `list` (NULL: none) is not
 * `known`, printing before"WORD"after on rank 0 of MPI_COMM_WORLD: a typo
 * in an option must not pass silently. */
void harness_list_require(const char *list, int (*known)(const char *word), const char *before, const char *after);

/* The algorithms of `collective` in the library's order, then "auto"; when
 * `only` is not NULL, just those of them it matches (harness_list_matches;
 * names of other collectives are ignored).  Returns the count (0 for a
 * collective the library does not know); free with harness_list_free(). */
int harness_algorithms(const char *collective, const char *only, char ***out);
/* Prints "COLLECTIVE algorithms: a b ... auto" (the library's list). */
void harness_print_algorithms(const char *collective);
/* 1 when `name` is "auto" or an algorithm of `collective`. */
int harness_is_algorithm(const char *collective, const char *name);

#endif
