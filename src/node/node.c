/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * node.c - shared parts of the hierarchical broadcasts (see node.h): roles,
 * the node copy-in/copy-out (Morimoto et al. 1999's write and eager protocols over
 * ctx/shm.h's slots and ring; Parsons 2015's tree variants through
 * node_copyout.h), trees of nodes, leader announcements.
 */
#include "node/node.h"
#include "core/log.h"
#include "core/phase.h"
#include "core/p2p.h"

#include <stdlib.h>
#include <string.h>

int pc_node_begin(const pc_call_t *a, pc_node_call_t *nc)
{
    nc->a = a;
    nc->seq = a->ctx->seq;
    nc->root_node = a->ctx->node_of[a->root];
    int rc = pc_shm_get(a->ctx, &nc->shm);
    nc->npieces = rc == MPI_SUCCESS ? pc_shm_pieces(nc->shm, a->bytes) : 0;
    if (rc == MPI_SUCCESS) rc = pc_copyout_init(&nc->co, a->ctx, nc->shm, nc->seq, PC_COPYOUT_MEMCPY, 0, -1, a->buf, a->bytes);
    return rc;
}

int pc_node_copyout_enable(pc_node_call_t *nc, int leader)
{
    const pc_call_t *a = nc->a;
    int writer = a->ctx->my_node == nc->root_node ? a->ctx->node_rank_of[a->root] : leader;
    return pc_copyout_init(&nc->co, a->ctx, nc->shm, nc->seq, pc_copyout_variant(a->params->bcast.copyout),
                           a->params->numa_domains, writer, a->buf, a->bytes);
}

int pc_node_claim(const pc_node_call_t *nc)
{
    if (!strcmp(nc->a->params->bcast.leader, "fixed")) {
        if (nc->a->ctx->node_rank != 0) return 0;
        pc_phase_mark_leader();
        return 1;
    }
    return pc_shm_claim(nc->shm, nc->seq);
}

/* Whether this call may use the write protocol or its read variant (the
 * writer picks which, ctx/shm.h; the same answer on every node process:
 * same parameters, same bytes, node-agreed single_copy). */
static int direct_allowed(const pc_node_call_t *nc)
{
    const pc_params_t *p = nc->a->params;
    if (nc->npieces == 0 || !pc_shm_single_copy(nc->shm) || p->node_protocol_kind == PC_NODE_PROTOCOL_RING) return 0;
    return p->node_protocol_kind != PC_NODE_PROTOCOL_AUTO || nc->a->bytes >= p->node_write_min;
}

int pc_node_copy_out(const pc_node_call_t *nc)
{
    if (nc->co.variant != PC_COPYOUT_MEMCPY) return pc_copyout_get(&nc->co, 0, nc->npieces);
    int allowed = direct_allowed(nc), posted = allowed && pc_shm_post(nc->shm, nc->seq, nc->a->buf, nc->a->bytes);
    int written = posted && pc_shm_wait_delivery(nc->shm, nc->seq, nc->npieces);
    if (pc_log_enabled(PC_LOG_DEBUG))
        pc_log(PC_LOG_DEBUG, "node copy-out seq=%lu bytes=%zu: %s", nc->seq, nc->a->bytes,
               written ? "write protocol (posted first, one copy)"
               : posted ? "eager (posted, declined by the writer)"
               : allowed ? "eager (the writer came first)" : "ring");
    if (written) return MPI_SUCCESS; /* the writer copied the message into a->buf */
    pc_shm_get_pieces(nc->shm, nc->seq, nc->a->buf, nc->a->bytes, 0, nc->npieces);
    return MPI_SUCCESS;
}

int pc_node_copy_in(const pc_node_call_t *nc, size_t first, size_t last)
{
    if (nc->co.variant != PC_COPYOUT_MEMCPY) {
        pc_copyout_put(&nc->co, first, last);
        /* the last piece is in: a->buf holds the whole message (sent once, even if called again with nothing) */
        return last == nc->npieces && first < last ? pc_copyout_send(&nc->co, 0, nc->npieces) : MPI_SUCCESS;
    }
    if (direct_allowed(nc)) pc_shm_writer_begin(nc->shm, nc->seq, nc->a->bytes, 1);
    pc_shm_put_pieces(nc->shm, nc->seq, nc->a->buf, nc->a->bytes, first, last);
    return MPI_SUCCESS;
}

size_t pc_node_pieces_within(const pc_node_call_t *nc, size_t bytes)
{
    return bytes >= nc->a->bytes ? nc->npieces : bytes / pc_shm_cell_size(nc->shm);
}

int pc_node_tree(const pc_node_call_t *nc, pc_tree_shape_t shape, pc_tree_t *t)
{
    const pc_comm_t *c = nc->a->ctx;
    int radix = (int)nc->a->params->bcast.knomial_radix; /* PC_TREE_KNOMIAL only */
    return pc_tree_build(t, shape, radix, c->my_node, c->nnodes, nc->root_node) ? MPI_ERR_NO_MEM : MPI_SUCCESS;
}

int pc_leader_messages_for_me(const pc_node_call_t *nc)
{
    const pc_call_t *a = nc->a;
    return a->ctx->my_node != nc->root_node || a->ctx->rank == a->root;
}

int pc_leader_addressees(const pc_node_call_t *nc, int node)
{
    const pc_comm_t *c = nc->a->ctx;
    return node == nc->root_node ? 1 : c->node_first[node + 1] - c->node_first[node];
}

int pc_leader_addressee(const pc_node_call_t *nc, int node, int i)
{
    const pc_comm_t *c = nc->a->ctx;
    return node == nc->root_node ? nc->a->root : c->node_members[c->node_first[node] + i];
}

int pc_leader_announce(const pc_node_call_t *nc, const int *nodes, int n)
{
    const pc_comm_t *c = nc->a->ctx;
    int total = 0, nreq = 0, rc = MPI_SUCCESS;
    for (int i = 0; i < n; i++) total += pc_leader_addressees(nc, nodes[i]);
    if (total == 0) return MPI_SUCCESS;
    MPI_Request *req = malloc((size_t)total * sizeof *req);
    if (!req) return MPI_ERR_NO_MEM;
    long long msg[2] = {(long long)nc->seq, c->rank};
    for (int i = 0; i < n && rc == MPI_SUCCESS; i++)
        for (int m = 0; m < pc_leader_addressees(nc, nodes[i]) && rc == MPI_SUCCESS; m++)
            rc = PMPI_Isend(msg, 2, MPI_LONG_LONG, pc_leader_addressee(nc, nodes[i], m),
                            pc_window_tag(PC_TAG_LEADER_READY, nc->seq), c->comm, &req[nreq++]);
    int wrc = pc_waitall(nreq, req, MPI_STATUSES_IGNORE);
    free(req);
    return rc != MPI_SUCCESS ? rc : wrc;
}

int pc_leader_ready_post(const pc_node_call_t *nc, long long msg[2], MPI_Request *req)
{
    return PMPI_Irecv(msg, 2, MPI_LONG_LONG, MPI_ANY_SOURCE, pc_window_tag(PC_TAG_LEADER_READY, nc->seq),
                      nc->a->ctx->comm, req);
}

int pc_leader_ready_wait(const pc_node_call_t *nc, long long msg[2], MPI_Request *req, int *leader)
{
    int rc = pc_wait_request(req, MPI_STATUS_IGNORE);
    if (rc == MPI_SUCCESS && msg[0] != (long long)nc->seq) rc = MPI_ERR_INTERN; /* another call's READY */
    if (rc == MPI_SUCCESS) *leader = (int)msg[1];
    return rc;
}
