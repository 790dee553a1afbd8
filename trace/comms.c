/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * comms.c - the communicator registry (see comms.h).
 */
#include "comms.h"
#include "u64map.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

static struct {
    pthread_mutex_t lock;
    int keyval;
    MPI_Group world_group;
    FILE *out;
    pt_u64map_t instances; /* KEY -> communicators of these members registered so far */
    pt_comm_t *entries;
    uint32_t count;
} reg = {.lock = PTHREAD_MUTEX_INITIALIZER, .keyval = MPI_KEYVAL_INVALID, .world_group = MPI_GROUP_NULL};

int pt_comms_init(FILE *out)
{
    int rc = PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &reg.keyval, NULL);
    if (rc == MPI_SUCCESS) rc = PMPI_Comm_group(MPI_COMM_WORLD, &reg.world_group);
    reg.out = out;
    return rc;
}

/* FNV-1a over 64-bit words. */
static uint64_t hash_words(uint64_t h, const int *words, int n)
{
    for (int i = 0; i < n; i++) {
        h ^= (uint64_t)(uint32_t)words[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

/* The world ranks of group's members, in group rank order (malloc'd). */
static int *world_ranks(MPI_Group group, int n)
{
    int *ranks = malloc((size_t)(n ? n : 1) * sizeof(int)), *world = malloc((size_t)(n ? n : 1) * sizeof(int));
    if (!ranks || !world) {
        free(ranks);
        free(world);
        return NULL;
    }
    for (int i = 0; i < n; i++) ranks[i] = i;
    PMPI_Group_translate_ranks(group, n, ranks, reg.world_group, world);
    free(ranks);
    return world;
}

static void write_ranks(const int *ranks, int n)
{
    for (int i = 0; i < n; i++) fprintf(reg.out, " %d", ranks[i]);
}

static pt_comm_t *register_comm(MPI_Comm comm)
{
    int inter = 0, size = 0, remote_size = 0, rank = 0;
    MPI_Group local = MPI_GROUP_NULL, remote = MPI_GROUP_NULL;
    int *lw = NULL, *rw = NULL;
    pt_comm_t *c = NULL;
    PMPI_Comm_test_inter(comm, &inter);
    PMPI_Comm_size(comm, &size);
    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_group(comm, &local);
    lw = world_ranks(local, size);
    if (inter) {
        PMPI_Comm_remote_size(comm, &remote_size);
        PMPI_Comm_remote_group(comm, &remote);
        rw = world_ranks(remote, remote_size);
    }
    if (!lw || (inter && !rw)) goto out;
    /* The two sides of an intercommunicator see local and remote swapped: combine symmetrically. */
    uint64_t basis = 0xcbf29ce484222325ULL, key;
    uint64_t hl = hash_words(basis, lw, size);
    if (inter) {
        uint64_t hr = hash_words(basis, rw, remote_size);
        int both[4] = {(int)(uint32_t)(hl < hr ? hl : hr), (int)((hl < hr ? hl : hr) >> 32),
                       (int)(uint32_t)(hl < hr ? hr : hl), (int)((hl < hr ? hr : hl) >> 32)};
        key = hash_words(basis ^ 1, both, 4);
    } else {
        key = hl;
    }
    if (!key) key = 1;
    uint64_t *instances = pt_u64map_slot(&reg.instances, key);
    c = calloc(1, sizeof *c);
    if (!instances || !c) {
        free(c);
        c = NULL;
        goto out;
    }
    c->index = reg.count++;
    c->inter = inter;
    c->peers = inter ? remote_size : size;
    c->rank = rank;
    c->next = reg.entries;
    reg.entries = c;
    fprintf(reg.out, "%u %016llx %llu %d %d %d :", c->index, (unsigned long long)key, (unsigned long long)*instances,
            inter, size, remote_size);
    ++*instances;
    write_ranks(lw, size);
    if (inter) {
        fprintf(reg.out, " |");
        write_ranks(rw, remote_size);
    }
    fputc('\n', reg.out);
    PMPI_Comm_set_attr(comm, reg.keyval, c);
out:
    free(lw);
    free(rw);
    if (local != MPI_GROUP_NULL) PMPI_Group_free(&local);
    if (remote != MPI_GROUP_NULL) PMPI_Group_free(&remote);
    return c;
}

pt_comm_t *pt_comms_lookup(MPI_Comm comm)
{
    void *value = NULL;
    int found = 0;
    if (comm == MPI_COMM_NULL || reg.keyval == MPI_KEYVAL_INVALID) return NULL;
    PMPI_Comm_get_attr(comm, reg.keyval, &value, &found);
    if (found) return value;
    pthread_mutex_lock(&reg.lock);
    pt_comm_t *c = register_comm(comm);
    pthread_mutex_unlock(&reg.lock);
    return c;
}

void pt_comms_finalize(void)
{
    pthread_mutex_lock(&reg.lock);
    if (reg.keyval != MPI_KEYVAL_INVALID) PMPI_Comm_free_keyval(&reg.keyval);
    if (reg.world_group != MPI_GROUP_NULL) PMPI_Group_free(&reg.world_group);
    while (reg.entries) {
        pt_comm_t *next = reg.entries->next;
        free(reg.entries);
        reg.entries = next;
    }
    pt_u64map_free(&reg.instances);
    if (reg.out) fclose(reg.out);
    reg.out = NULL;
    pthread_mutex_unlock(&reg.lock);
}
