/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * adapt_report.c - PAPCOLL_ADAPT_REPORT: every state of every communicator's
 * table (calls, choice, explorations, spread, each candidate's agreed mean,
 * the early probe's means and winner),
 * one line each, written by the communicator's rank 0 at MPI_Finalize (to
 * stderr for 1, else appended to the file named); tables freed before then
 * are rendered when freed.
 */
#include "select/adapt_impl.h"
#include "core/lock.h"
#include "core/log.h"
#include "core/params.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *retired_report;        /* reports of tables freed before MPI_Finalize */
static size_t retired_len;
static int report_written;

static void append(char **buf, size_t *len, const char *text)
{
    size_t n = strlen(text);
    char *grown = realloc(*buf, *len + n + 1);
    if (!grown) return;
    memcpy(grown + *len, text, n + 1);
    *buf = grown;
    *len += n;
}

/* The table's states, written by the communicator's rank 0 (agreed data are
 * the same on every process). */
static void render(const adapt_table_t *t, char **buf, size_t *len)
{
    if (t->rank != 0) return;
    for (const adapt_group_t *g = t->groups; g; g = g->next)
        for (int i = 0; i < g->nstates; i++) {
            const adapt_state_t *s = g->state[i];
            if (!s->calls) continue;
            char what[160], means[512], line[1100], probe[200] = "";
            pc_adapt_describe_state(s, what, sizeof what);
            pc_adapt_format_means(s, t->size, means, sizeof means);
            if (g->probe == PROBE_DONE) /* rank 0 holds the probe's means (adapt_probe.c) */
                snprintf(probe, sizeof probe, "; probe: %s=%.2f us, native=%.2f us, winner %s", g->cand[0],
                         1e6 * g->probe_mean[0], 1e6 * g->probe_mean[1], g->cand[g->probe_winner]);
            else if (g->probe != PROBE_OFF) { /* fewer than 5 calls: what each ran */
                size_t n = (size_t)snprintf(probe, sizeof probe, "; probe: undecided after %lu calls (", g->calls);
                for (int step = 1; step <= (int)g->calls && n < sizeof probe; step++)
                    n += (size_t)snprintf(probe + n, sizeof probe - n, "%s%s", step > 1 ? ", " : "",
                                          g->cand[pc_adapt_probe_candidate(g, step)]);
                if (n < sizeof probe) snprintf(probe + n, sizeof probe - n, ")");
            }
            snprintf(line, sizeof line,
                     "papcoll adapt: comm %d (p=%d) %s: %lu calls, %s%s, explorations %u, spread %.2f us: %s; "
                     "%lu agreements, the last every %lu calls%s\n",
                     t->id, t->size, what, s->calls,
                     g->disabled ? "static " : s->phase == EXPLOIT ? "choice " : s->phase == WAIT ? "waiting, running " : "exploring",
                     g->disabled ? g->cand[0] : s->phase == WAIT ? g->cand[pc_adapt_wait_choice(g)] : s->phase == EXPLOIT ? g->cand[s->chosen] : "", s->explorations,
                     1e6 * s->last_spread, means, g->agreements, g->period, probe);
            append(buf, len, line);
        }
}

void pc_adapt_retire(adapt_table_t *t)
{
    const char *where = pc_params()->adapt_report;
    if (!where || !*where || report_written) return;
    pc_lock();
    render(t, &retired_report, &retired_len);
    pc_unlock();
}

void pc_adapt_write_report(void)
{
    const char *where = pc_params()->adapt_report;
    if (!where || !*where || report_written) return;
    pc_lock();
    report_written = 1;
    char *buf = retired_report;
    size_t len = retired_len;
    retired_report = NULL;
    retired_len = 0;
    for (adapt_table_t *t = pc_adapt_live_tables; t; t = t->next) render(t, &buf, &len);
    pc_unlock();
    if (len) {
        if (!strcmp(where, "1")) fputs(buf, stderr);
        else {
            int fd = open(where, O_WRONLY | O_CREAT | O_APPEND, 0644);
            if (fd < 0 || write(fd, buf, len) != (ssize_t)len)
                pc_log(PC_LOG_WARN, "PAPCOLL_ADAPT_REPORT: cannot write %s", where);
            if (fd >= 0) close(fd);
        }
    }
    free(buf);
}
