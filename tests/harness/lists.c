/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lists.c - see lists.h.
 */
#include "lists.h"

#include <papcoll.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int harness_list_split(const char *list, char ***out)
{
    int n = 0;
    char *copy = strdup(list), *save = NULL;
    char **v = malloc((strlen(list) + 2) * sizeof *v);
    for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) v[n++] = strdup(t);
    free(copy);
    *out = v;
    return n;
}

void harness_list_free(char **words, int n)
{
    for (int i = 0; i < n; i++) free(words[i]);
    free(words);
}

int harness_list_has(const char *list, const char *word)
{
    char **v;
    int n = harness_list_split(list, &v), found = 0;
    for (int i = 0; i < n; i++) found |= !strcmp(v[i], word);
    harness_list_free(v, n);
    return found;
}

static int word_matches(const char *word, const char *name)
{
    size_t n = strlen(word);
    return n && word[n - 1] == '*' ? !strncmp(word, name, n - 1) : !strcmp(word, name);
}

int harness_list_matches(const char *list, const char *name)
{
    char **v;
    int n = harness_list_split(list, &v), found = 0;
    for (int i = 0; i < n; i++) found |= word_matches(v[i], name);
    harness_list_free(v, n);
    return found;
}

void harness_list_require(const char *list, int (*known)(const char *word), const char *before, const char *after)
{
    if (!list) return;
    char **words;
    int n = harness_list_split(list, &words), rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int i = 0; i < n; i++)
        if (!known(words[i])) {
            if (rank == 0) fprintf(stderr, "%s\"%s\"%s\n", before, words[i], after);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    harness_list_free(words, n);
}

int harness_algorithms(const char *collective, const char *only, char ***out)
{
    int nlib = papcoll_algorithm_count(collective), n = 0;
    if (nlib < 0) nlib = 0;
    char **v = malloc((size_t)(nlib + 1) * sizeof *v);
    for (int a = 0; a <= nlib; a++) {
        const char *name = a < nlib ? papcoll_algorithm_name(collective, a) : "auto";
        if (!only || harness_list_matches(only, name)) v[n++] = strdup(name);
    }
    *out = v;
    return n;
}

void harness_print_algorithms(const char *collective)
{
    char **algos;
    int n = harness_algorithms(collective, NULL, &algos);
    printf("%s algorithms:", collective);
    for (int a = 0; a < n; a++) printf(" %s", algos[a]);
    printf("\n");
    harness_list_free(algos, n);
}

int harness_is_algorithm(const char *collective, const char *name)
{
    if (!strcmp(name, "auto")) return 1;
    int n = papcoll_algorithm_count(collective);
    for (int a = 0; a < n; a++)
        if (!strcmp(name, papcoll_algorithm_name(collective, a))) return 1;
    return 0;
}
