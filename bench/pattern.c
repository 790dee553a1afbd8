/*
 * pattern.c - arrival patterns (see pattern.h).
 */
#include "pattern.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

double pattern_uniform(uint64_t seed, long rep, int rank)
{
    uint64_t h = mix(mix(seed) ^ mix((uint64_t)rep * 0x100000001b3ULL) ^ (uint64_t)(rank + 1) * 0xd6e8feb86659fd93ULL);
    return (double)(h >> 11) / 9007199254740992.0;
}

static int number(const char *s, double *out)
{
    char *end;
    *out = strtod(s, &end);
    return end != s && *end == '\0' && *out >= 0 ? 0 : -1;
}

/* Trace format: one call per line, whitespace-separated arrival offsets in
 * seconds for ranks 0..n-1; '#' starts a comment.  Repetition r replays line
 * r mod (number of lines); rank i >= columns uses column i mod columns. */
static int load_trace(const char *path, pattern_t *p, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "cannot open trace file %s", path);
        return -1;
    }
    char line[1 << 16];
    int cap = 0;
    while (fgets(line, sizeof line, f)) {
        char *hash = strchr(line, '#');
        if (hash) *hash = '\0';
        double row[4096];
        int cols = 0;
        for (char *tok = strtok(line, " \t\r\n"); tok && cols < 4096; tok = strtok(NULL, " \t\r\n"))
            if (number(tok, &row[cols++])) {
                snprintf(err, errlen, "trace %s line %d: bad offset \"%s\"", path, p->trace_rows + 1, tok);
                fclose(f);
                return -1;
            }
        if (!cols) continue;
        if (p->trace_cols && cols != p->trace_cols) {
            snprintf(err, errlen, "trace %s: line %d has %d offsets, earlier lines %d", path, p->trace_rows + 1, cols, p->trace_cols);
            fclose(f);
            return -1;
        }
        p->trace_cols = cols;
        if (p->trace_rows == cap) {
            cap = cap ? 2 * cap : 64;
            p->trace = realloc(p->trace, (size_t)cap * (size_t)cols * sizeof(double));
        }
        memcpy(p->trace + (size_t)p->trace_rows * (size_t)cols, row, (size_t)cols * sizeof(double));
        p->trace_rows++;
    }
    fclose(f);
    if (!p->trace_rows) {
        snprintf(err, errlen, "trace %s holds no offsets", path);
        return -1;
    }
    return 0;
}

int pattern_parse(const char *spec, pattern_t *p, char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    snprintf(p->spec, sizeof p->spec, "%s", spec);
    char copy[256];
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
    } else if (!strcmp(name, "late")) {
        p->kind = PAT_LATE;
        ok = nargs == 2 && !number(arg1, &p->fraction) && p->fraction <= 1 && !number(arg2, &p->late_if);
    } else if (!strcmp(name, "root-late") || !strcmp(name, "first-child-late")) {
        p->kind = name[0] == 'r' ? PAT_ROOT_LATE : PAT_FIRST_CHILD_LATE;
        ok = nargs == 1 && !number(arg1, &p->late_if);
    } else if (!strcmp(name, "microbench")) {
        double x = 0;
        p->kind = PAT_MICROBENCH;
        ok = nargs == 1 && !number(arg1, &x) && x == (long)x;
        p->xtime = (long)x;
    } else if (!strcmp(name, "trace")) {
        p->kind = PAT_TRACE;
        if (nargs != 1) ok = 0;
        else return load_trace(arg1, p, err, errlen);
    } else {
        snprintf(err, errlen, "unknown pattern \"%s\" (balanced, uniform:MAX_IF, late:FRACTION:IF, root-late:IF, "
                 "first-child-late:IF, microbench:XTIME, trace:FILE)", name);
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
}

double pattern_delay(const pattern_t *p, int rank, int n, int root, long rep, uint64_t seed, int *seconds)
{
    *seconds = 0;
    int rel = (rank - root + n) % n;
    switch (p->kind) {
    case PAT_UNIFORM: return p->max_if * pattern_uniform(seed, rep, rank);
    case PAT_LATE: return rank != root && pattern_uniform(seed, rep, rank) < p->fraction ? p->late_if : 0;
    case PAT_ROOT_LATE: return rank == root ? p->late_if : 0;
    case PAT_FIRST_CHILD_LATE: return rel > 0 && (rel & (rel - 1)) == 0 ? p->late_if : 0;
    case PAT_TRACE:
        *seconds = 1;
        return p->trace[(size_t)(rep % p->trace_rows) * (size_t)p->trace_cols + (size_t)(rank % p->trace_cols)];
    default: return 0;
    }
}
