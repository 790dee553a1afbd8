/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * pattern.c - arrival patterns (see pattern.h).
 */
#define _POSIX_C_SOURCE 200809L /* getline */
#include "pattern.h"
#include "../src/core/mix64.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


double pattern_uniform(uint64_t seed, long rep, int rank)
{
    uint64_t h = pc_splitmix64(pc_splitmix64(seed) ^ pc_splitmix64((uint64_t)rep * 0x100000001b3ULL) ^ (uint64_t)(rank + 1) * 0xd6e8feb86659fd93ULL);
    return (double)(h >> 11) / 9007199254740992.0;
}

static int number(const char *s, double *out)
{
    char *end;
    *out = strtod(s, &end);
    return end != s && *end == '\0' && *out >= 0 ? 0 : -1;
}

/* Appends ROW (COLS values) to P's table; 0, or -1 with a message. */
static int append_row(pattern_t *p, const double *row, int cols, const char *path, long line, char *err,
                      size_t errlen)
{
    if (p->trace_cols && cols != p->trace_cols) {
        snprintf(err, errlen, "trace %s line %ld: %d offsets, earlier rows %d", path, line, cols, p->trace_cols);
        return -1;
    }
    if (p->trace_rows == p->trace_cap) {
        int cap = p->trace_cap ? 2 * p->trace_cap : 64;
        double *grown = realloc(p->trace, (size_t)cap * (size_t)cols * sizeof(double));
        if (!grown) {
            snprintf(err, errlen, "trace %s: out of memory", path);
            return -1;
        }
        p->trace = grown;
        p->trace_cap = cap;
    }
    p->trace_cols = cols;
    memcpy(p->trace + (size_t)p->trace_rows * (size_t)cols, row, (size_t)cols * sizeof(double));
    p->trace_rows++;
    return 0;
}

/* Trace format (docs/benchmark.md): one call per line, arrival offsets in
 * seconds for ranks 0..n-1 separated by commas and/or white space; '#'
 * starts a comment.  A row may start with a label (a first field that is not
 * a number: the call site's name in papcoll trace report's replay/all.csv);
 * SITE (may be NULL) keeps the rows labelled SITE, and labelled rows of more
 * than one label need it.  Repetition r replays row r mod (rows); rank i >=
 * columns uses column i mod columns. */
static int load_trace(const char *path, const char *site, pattern_t *p, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "cannot open trace file %s", path);
        return -1;
    }
    char *line = NULL, first_label[128] = "";
    size_t linecap = 0;
    double *row = NULL;
    size_t rowcap = 0;
    long lineno = 0;
    int rc = 0, labels = 0, other_label = 0;
    while (rc == 0 && getline(&line, &linecap, f) != -1) {
        lineno++;
        char *hash = strchr(line, '#');
        if (hash) *hash = '\0';
        int cols = 0, labelled = 0, keep = 1;
        for (char *tok = strtok(line, " \t\r\n,"); tok; tok = strtok(NULL, " \t\r\n,")) {
            if (cols == 0 && !labelled && !isdigit((unsigned char)tok[0]) && tok[0] != '.' && tok[0] != '+') {
                labelled = 1;
                labels++;
                if (site) keep = !strcmp(tok, site);
                else if (!first_label[0]) snprintf(first_label, sizeof first_label, "%s", tok);
                else if (strcmp(tok, first_label)) other_label = 1;
                continue;
            }
            if ((size_t)cols == rowcap) {
                rowcap = rowcap ? 2 * rowcap : 256;
                double *grown = realloc(row, rowcap * sizeof(double));
                if (!grown) {
                    snprintf(err, errlen, "trace %s: out of memory", path);
                    rc = -1;
                    break;
                }
                row = grown;
            }
            if (number(tok, &row[cols++])) {
                snprintf(err, errlen, "trace %s line %ld: bad offset \"%s\"", path, lineno, tok);
                rc = -1;
                break;
            }
        }
        if (rc == 0 && cols && keep) rc = append_row(p, row, cols, path, lineno, err, errlen);
        else if (rc == 0 && labelled && !cols) {
            snprintf(err, errlen, "trace %s line %ld: a label and no offsets", path, lineno);
            rc = -1;
        }
    }
    free(line);
    free(row);
    fclose(f);
    if (rc) return rc;
    if (site && !labels) {
        snprintf(err, errlen, "trace %s has no labelled rows: drop \":%s\"", path, site);
        return -1;
    }
    if (!site && other_label) {
        snprintf(err, errlen, "trace %s holds several call sites (\"%s\", ...): name one, trace:%s:SITE", path,
                 first_label, path);
        return -1;
    }
    if (!p->trace_rows) {
        snprintf(err, errlen, site ? "trace %s holds no offsets of site \"%s\"" : "trace %s holds no offsets", path,
                 site);
        return -1;
    }
    return 0;
}

/* "FILE" or "FILE:SITE": the whole argument when it names a readable file, else split at its last ':'. */
static int parse_trace_arg(const char *arg, pattern_t *p, char *err, size_t errlen)
{
    FILE *probe = fopen(arg, "r");
    const char *colon = strrchr(arg, ':');
    if (probe || !colon || colon == arg || !colon[1]) {
        if (probe) fclose(probe);
        return load_trace(arg, NULL, p, err, errlen);
    }
    size_t len = (size_t)(colon - arg);
    char *path = malloc(len + 1);
    if (!path) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    memcpy(path, arg, len);
    path[len] = '\0';
    int rc = load_trace(path, colon + 1, p, err, errlen);
    free(path);
    return rc;
}

int pattern_parse(const char *spec, pattern_t *p, char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    if (strlen(spec) >= sizeof p->spec) {
        snprintf(err, errlen, "pattern \"%.40s...\" longer than %zu characters (a trace file's path: shorten it)", spec,
                 sizeof p->spec - 1);
        return -1;
    }
    snprintf(p->spec, sizeof p->spec, "%s", spec);
    char copy[sizeof p->spec];
    snprintf(copy, sizeof copy, "%s", spec);
    char *name = copy, *arg1 = strchr(copy, ':'), *arg2 = NULL;
    if (arg1) {
        *arg1++ = '\0';
        if (strcmp(name, "trace") && (arg2 = strchr(arg1, ':'))) *arg2++ = '\0';
    }
    int nargs = arg1 ? (arg2 ? 2 : 1) : 0, ok = 0;
    if (!strcmp(name, "balanced")) {
        p->kind = PAT_BALANCED;
        ok = nargs == 0;
    } else if (!strcmp(name, "uniform")) {
        p->kind = PAT_UNIFORM;
        ok = nargs == 1 && !number(arg1, &p->max_if);
    } else if (!strcmp(name, "late") || !strcmp(name, "persistent")) {
        p->kind = name[0] == 'l' ? PAT_LATE : PAT_PERSISTENT;
        ok = nargs == 2 && !number(arg1, &p->fraction) && p->fraction <= 1 && !number(arg2, &p->late_if);
    } else if (!strcmp(name, "root-late") || !strcmp(name, "first-child-late")) {
        p->kind = name[0] == 'r' ? PAT_ROOT_LATE : PAT_FIRST_CHILD_LATE;
        ok = nargs == 1 && !number(arg1, &p->late_if);
    } else if (!strcmp(name, "straggler")) {
        double r = -1;
        p->kind = PAT_STRAGGLER;
        ok = nargs == 2 && !number(arg1, &r) && r >= 0 && r == (long)r && !number(arg2, &p->late_if);
        p->late_rank = (long)r;
    } else if (!strcmp(name, "microbench")) {
        double x = 0;
        p->kind = PAT_MICROBENCH;
        ok = nargs == 1 && !number(arg1, &x) && x == (long)x;
        p->xtime = (long)x;
    } else if (!strcmp(name, "trace")) {
        p->kind = PAT_TRACE;
        if (nargs != 1) ok = 0;
        else return parse_trace_arg(arg1, p, err, errlen);
    } else {
        snprintf(err, errlen, "unknown pattern \"%s\" (balanced, uniform:MAX_IF, late:FRACTION:IF, "
                 "persistent:FRACTION:IF, root-late:IF, first-child-late:IF, straggler:RANK:IF, "
                 "microbench:XTIME, trace:FILE[:SITE])", name);
        return -1;
    }
    if (!ok) {
        snprintf(err, errlen, "bad arguments in pattern \"%s\"", spec);
        return -1;
    }
    return 0;
}

void pattern_free(pattern_t *p)
{
    free(p->trace);
    p->trace = NULL;
    p->trace_rows = p->trace_cols = p->trace_cap = 0;
}

double pattern_delay(const pattern_t *p, int rank, int n, int root, long rep, uint64_t seed, int *seconds)
{
    *seconds = 0;
    int rel = (rank - root + n) % n;
    switch (p->kind) {
    case PAT_UNIFORM: return p->max_if * pattern_uniform(seed, rep, rank);
    case PAT_LATE: return rank != root && pattern_uniform(seed, rep, rank) < p->fraction ? p->late_if : 0;
    /* one draw per rank for the whole run (repetition -1 of the hash, whatever rep is) */
    case PAT_PERSISTENT: return rank != root && pattern_uniform(seed, -1, rank) < p->fraction ? p->late_if : 0;
    case PAT_ROOT_LATE: return rank == root ? p->late_if : 0;
    case PAT_FIRST_CHILD_LATE: return rel > 0 && (rel & (rel - 1)) == 0 ? p->late_if : 0;
    case PAT_STRAGGLER: return rank == (p->late_rank < n ? p->late_rank : n - 1) ? p->late_if : 0;
    case PAT_TRACE: {
        /* warm-up repetitions are negative: replay them from the end of the table */
        long row = ((rep % p->trace_rows) + p->trace_rows) % p->trace_rows;
        *seconds = 1;
        return p->trace[(size_t)row * (size_t)p->trace_cols + (size_t)(rank % p->trace_cols)];
    }
    default: return 0;
    }
}
