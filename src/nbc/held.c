/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * held.c - the program's datatypes and ops held by pending schedules (see
 * held.h): one process-wide table of (handle, schedules holding it, freed
 * by the program), and per schedule the list of the handles it has seen.
 */
#include "nbc/held.h"
#include "nbc/sched.h"
#include "core/type_info.h"

#include <pthread.h>
#include <stdlib.h>

typedef pc_nbc_handle_t handle_t;

typedef struct {
    handle_t h;
    int holders;  /* schedules that refer to it */
    int freed;    /* the program freed it: the library's free waits for the last holder */
} entry_t;

static entry_t *table;
static int entries, capacity;
static pthread_mutex_t table_mutex = PTHREAD_MUTEX_INITIALIZER; /* never held across an MPI call */

static int same(const handle_t *a, const handle_t *b)
{
    return a->is_op == b->is_op && (a->is_op ? a->op == b->op : a->type == b->type);
}

static entry_t *find(const handle_t *h)
{
    for (int i = 0; i < entries; i++)
        if (same(&table[i].h, h)) return &table[i];
    return NULL;
}

/* s has seen h (held or predefined)?  Else records it, counting a holder
 * when it is the program's own (derived datatype, user op). */
static void hold(pc_nbc_sched_t *s, handle_t h)
{
    if (s->rc != MPI_SUCCESS) return;
    for (int i = 0; i < s->nheld; i++)
        if (same(&s->held[i].h, &h)) return;
    if (!pc_nbc_grow((void **)&s->held, &s->held_cap, s->nheld + 1, sizeof *s->held)) {
        s->rc = MPI_ERR_NO_MEM;
        return;
    }
    pc_type_info_t type_scratch;
    pc_op_info_t op_scratch;
    int own = h.is_op ? !pc_op_info(h.op, &op_scratch)->predefined : !pc_type_info(h.type, &type_scratch)->named;
    s->held[s->nheld].h = h;
    s->held[s->nheld].counted = 0;
    if (own) {
        pthread_mutex_lock(&table_mutex);
        entry_t *e = find(&h);
        if (!e && pc_nbc_grow((void **)&table, &capacity, entries + 1, sizeof *table)) {
            e = &table[entries++];
            *e = (entry_t){.h = h};
        }
        if (e) e->holders++;
        pthread_mutex_unlock(&table_mutex);
        if (!e) {
            s->rc = MPI_ERR_NO_MEM;
            return;
        }
        s->held[s->nheld].counted = 1;
    }
    s->nheld++;
}

void pc_nbc_hold_type(pc_nbc_sched_t *s, MPI_Datatype type)
{
    if (type != MPI_DATATYPE_NULL) hold(s, (handle_t){.is_op = 0, .type = type});
}

void pc_nbc_hold_op(pc_nbc_sched_t *s, MPI_Op op)
{
    if (op != MPI_OP_NULL) hold(s, (handle_t){.is_op = 1, .op = op});
}

void pc_nbc_unhold(pc_nbc_sched_t *s)
{
    for (int i = 0; i < s->nheld; i++) {
        if (!s->held[i].counted) continue;
        handle_t h = s->held[i].h;
        pthread_mutex_lock(&table_mutex);
        entry_t *e = find(&h);
        int free_now = e && --e->holders == 0 && e->freed;
        if (e && e->holders == 0) *e = table[--entries];
        pthread_mutex_unlock(&table_mutex);
        if (free_now && h.is_op) PMPI_Op_free(&h.op);
        else if (free_now) PMPI_Type_free(&h.type);
    }
    free(s->held);
    s->held = NULL;
    s->nheld = s->held_cap = 0;
}

static int defer(handle_t h)
{
    pthread_mutex_lock(&table_mutex);
    entry_t *e = find(&h);
    if (e) e->freed = 1;
    pthread_mutex_unlock(&table_mutex);
    return e != NULL;
}

int pc_held_defer_type(MPI_Datatype *type)
{
    if (!type || *type == MPI_DATATYPE_NULL || !defer((handle_t){.is_op = 0, .type = *type})) return 0;
    *type = MPI_DATATYPE_NULL;
    return 1;
}

int pc_held_defer_op(MPI_Op *op)
{
    if (!op || *op == MPI_OP_NULL || !defer((handle_t){.is_op = 1, .op = *op})) return 0;
    *op = MPI_OP_NULL;
    return 1;
}
