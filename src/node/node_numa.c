/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * node_numa.c - the NUMA domains of a node (see node_numa.h): the lookup of
 * this process's domain in /sys, the node's agreement on them, virtual
 * domains, and their cache on the node communicator.
 */
#define _GNU_SOURCE
#include "node/node_numa.h"

#include <dirent.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct numa_cache {
    int *numa_of;             /* [node_size] each node rank's NUMA node, NULL until exchanged */
    pc_numa_domains_t domains; /* the last built (domains.ndomains == 0: none yet) */
} numa_cache_t;

static int numa_keyval = MPI_KEYVAL_INVALID;

static void domains_free(pc_numa_domains_t *d)
{
    free(d->domain_of);
    free(d->first);
    free(d->members);
    memset(d, 0, sizeof *d);
}

static int delete_cache(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)comm; (void)keyval; (void)extra;
    numa_cache_t *c = value;
    domains_free(&c->domains);
    free(c->numa_of);
    free(c);
    return MPI_SUCCESS;
}

int pc_numa_node_of_self(void)
{
    int cpu = sched_getcpu();
    if (cpu < 0) return 0;
    DIR *dir = opendir("/sys/devices/system/node");
    if (!dir) return 0;
    int found = 0;
    struct dirent *e;
    while ((e = readdir(dir))) {
        int n;
        char tail;
        if (sscanf(e->d_name, "node%d%c", &n, &tail) != 1) continue;
        char path[128];
        snprintf(path, sizeof path, "/sys/devices/system/node/node%d/cpu%d", n, cpu);
        if (access(path, F_OK) == 0) {
            found = n;
            break;
        }
    }
    closedir(dir);
    return found;
}

/* Domains from group[j] (any integers): one domain per distinct value, in increasing order. */
static int build(int size, const int *group, long forced, pc_numa_domains_t *d)
{
    d->forced = forced;
    d->domain_of = malloc((size_t)size * sizeof(int));
    d->first = malloc((size_t)(size + 1) * sizeof(int));
    d->members = malloc((size_t)size * sizeof(int));
    if (!d->domain_of || !d->first || !d->members) return MPI_ERR_NO_MEM;
    d->ndomains = 0;
    d->first[0] = 0;
    int prev_min = 0, have_prev = 0;
    for (;;) { /* the next distinct value above the previous one */
        int have = 0, v = 0;
        for (int j = 0; j < size; j++)
            if ((!have_prev || group[j] > prev_min) && (!have || group[j] < v)) v = group[j], have = 1;
        if (!have) break;
        int pos = d->first[d->ndomains];
        for (int j = 0; j < size; j++)
            if (group[j] == v) d->domain_of[j] = d->ndomains, d->members[pos++] = j;
        d->first[++d->ndomains] = pos;
        prev_min = v, have_prev = 1;
    }
    return MPI_SUCCESS;
}

static numa_cache_t *cache_of(pc_comm_t *ctx, int *rc)
{
    numa_cache_t *c = NULL;
    int found = 0;
    *rc = pc_comm_cache_get(ctx->node, &numa_keyval, delete_cache, &c, &found);
    if (*rc != MPI_SUCCESS) return NULL;
    if (!found) {
        c = calloc(1, sizeof *c);
        *rc = c ? PMPI_Comm_set_attr(ctx->node, numa_keyval, c) : MPI_ERR_NO_MEM;
        if (*rc != MPI_SUCCESS) {
            free(c);
            c = NULL;
        }
    }
    return *rc == MPI_SUCCESS ? c : NULL;
}

int pc_numa_domains(pc_comm_t *ctx, long forced, const pc_numa_domains_t **out)
{
    int rc;
    numa_cache_t *c = cache_of(ctx, &rc);
    if (!c) return rc;
    if (c->domains.ndomains > 0 && c->domains.forced == forced) {
        *out = &c->domains;
        return MPI_SUCCESS;
    }
    int n = ctx->node_size, *group = malloc((size_t)n * sizeof(int));
    if (!group) return MPI_ERR_NO_MEM;
    if (forced > 0) {
        long k = forced < n ? forced : n;
        for (int j = 0; j < n; j++) group[j] = (int)((long)j * k / n);
    } else {
        if (!c->numa_of) {
            int mine = pc_numa_node_of_self(), *all = malloc((size_t)n * sizeof(int));
            rc = all ? PMPI_Allgather(&mine, 1, MPI_INT, all, 1, MPI_INT, ctx->node) : MPI_ERR_NO_MEM;
            if (rc != MPI_SUCCESS) {
                free(all);
                free(group);
                return rc;
            }
            c->numa_of = all;
        }
        memcpy(group, c->numa_of, (size_t)n * sizeof(int));
    }
    domains_free(&c->domains);
    rc = build(n, group, forced, &c->domains);
    free(group);
    if (rc != MPI_SUCCESS) {
        domains_free(&c->domains);
        return rc;
    }
    *out = &c->domains;
    return MPI_SUCCESS;
}
