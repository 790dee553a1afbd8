/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tune_file.c - selection rules read from a file (see tune_file.h).
 */
#include "select/tune_file.h"
#include "coll/entry.h"
#include "core/log.h"
#include "select/tune.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Problems found in one file, appended to a bounded report. */
typedef struct {
    const char *path;
    char *report;
    size_t len, used;
    int count, syntax; /* problems; those that are syntax errors */
} problems_t;

/* Accounts for n more characters written into the report (as snprintf returns them: clamped to its room). */
static void advance(problems_t *pr, int n)
{
    if (n > 0) pr->used = pr->used + (size_t)n < pr->len ? pr->used + (size_t)n : pr->len - 1;
}

static void problem(problems_t *pr, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void problem(problems_t *pr, int line, const char *fmt, ...)
{
    pr->count++;
    if (!pr->report || pr->used + 1 >= pr->len) return;
    advance(pr, line ? snprintf(pr->report + pr->used, pr->len - pr->used, "%s:%d: ", pr->path, line)
                     : snprintf(pr->report + pr->used, pr->len - pr->used, "%s: ", pr->path));
    va_list ap;
    va_start(ap, fmt);
    advance(pr, vsnprintf(pr->report + pr->used, pr->len - pr->used, fmt, ap));
    va_end(ap);
    if (pr->used + 1 < pr->len) pr->report[pr->used++] = '\n', pr->report[pr->used] = '\0';
}

/* The whole file as a NUL-terminated string (malloc'd), or NULL with errno set. */
static char *read_text(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) return NULL;
    size_t cap = 4096, n = 0;
    char *text = malloc(cap);
    for (size_t got; text && (got = fread(text + n, 1, cap - n - 1, f)) > 0;) {
        n += got;
        if (n + 1 == cap) {
            char *grown = realloc(text, cap *= 2);
            if (!grown) free(text);
            text = grown;
        }
    }
    int failed = ferror(f) || !text;
    int err = failed ? (errno ? errno : EIO) : 0;
    fclose(f);
    if (failed) {
        free(text);
        errno = err;
        return NULL;
    }
    text[n] = '\0';
    return text;
}

/* Checks each line of text on its own (a rule never spans lines), so every
 * problem gets its line number. */
static void check_lines(const char *text, problems_t *pr)
{
    int line_no = 0;
    for (const char *line = text; *line;) {
        line_no++;
        size_t n = strcspn(line, "\n");
        char *one = strndup(line, n);
        char err[256] = "";
        pc_tune_rules_t *rules = one ? pc_tune_compile(one, err, sizeof err) : NULL;
        if (!rules) {
            pr->syntax++;
            problem(pr, line_no, "%s", one ? err : "out of memory");
        }
        for (int i = 0; rules && i < pc_tune_count(rules); i++) {
            const char *coll_name = pc_tune_rule_coll(rules, i);
            const pc_coll_t *coll = pc_coll_by_name(coll_name);
            if (!coll) {
                problem(pr, line_no, "unknown collective \"%s\"", coll_name);
                continue;
            }
            for (int j = 0; j < pc_tune_rule_ncandidates(rules, i); j++) { /* a|b|c: each must exist */
                const char *algo = pc_tune_rule_candidate(rules, i, j);
                if (strcmp(algo, "auto") && !pc_coll_find(coll, algo))
                    problem(pr, line_no, "unknown %s algorithm \"%s\" (papcoll-bench --coll=%s --list)", coll_name,
                            algo, coll_name);
            }
        }
        pc_tune_free(rules);
        free(one);
        line += n + (line[n] == '\n');
    }
}

int pc_tune_file_check(const char *path, char *report, size_t len)
{
    problems_t pr = {path, report, len, 0, 0, 0};
    if (report && len) report[0] = '\0';
    char *text = read_text(path);
    if (!text) {
        problem(&pr, 0, "cannot read: %s", strerror(errno));
        return pr.count;
    }
    check_lines(text, &pr);
    free(text);
    return pr.count;
}

const char *pc_tune_file_rules(const char *path)
{
    static const char *loaded_path;
    static char *text;
    if (!path || !*path) return NULL;
    if (path == loaded_path) return text;
    /* The old text is kept: select.c caches compiled rules by the text's address, which a new text must not reuse. */
    loaded_path = path;
    char report[2048];
    problems_t pr = {path, report, sizeof report, 0, 0, 0};
    report[0] = '\0';
    text = read_text(path);
    if (!text) problem(&pr, 0, "cannot read: %s", strerror(errno));
    else check_lines(text, &pr);
    if (pr.count) pc_log(PC_LOG_WARN, "PAPCOLL_TUNE_FILE: %d problem(s):\n%s", pr.count, report);
    if (text && pr.syntax) {
        free(text);
        text = NULL;
    }
    if (!text) pc_log(PC_LOG_WARN, "ignoring PAPCOLL_TUNE_FILE %s", path);
    return text;
}
