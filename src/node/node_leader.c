/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * node_leader.c - how the dynamic node leaders of the broadcast tree
 * engine (bcast/common/leader_tree.c) find each other without a round trip on the
 * data's path (see node.h): a child leader's REQUEST to every process of its
 * parent node (to the root alone on the root's node, which the root leads),
 * the first message of a parent -> child stream on a tag carrying the call's
 * sequence number, received with MPI_ANY_SOURCE,
 * and what a guess that does not lead receives: its copy, or an empty
 * message.
 *
 * The guess is the child node's lowest rank.  It is right when that process
 * claims its node, which the engine favours: in a call that guesses, any
 * other process pauses once (pc_poll_pause) before claiming, so among
 * processes that arrive together the lowest rank leads.
 */
#include "node/node.h"
#include "core/p2p.h"

int pc_leader_requests_post(const pc_node_call_t *nc, pc_leader_requests_t *q)
{
    int rc = MPI_SUCCESS;
    for (int i = 0; i < q->n; i++) q->req[i] = MPI_REQUEST_NULL;
    for (int i = 0; i < q->n && rc == MPI_SUCCESS; i++)
        rc = PMPI_Irecv(q->msg[i], 3, MPI_LONG_LONG, MPI_ANY_SOURCE, pc_window_tag(PC_TAG_LEADER_REQUEST, nc->seq),
                        nc->a->ctx->comm, &q->req[i]);
    return rc;
}

int pc_leader_request_read(const pc_node_call_t *nc, const pc_leader_requests_t *q, int i, int *child, int *leader)
{
    const long long *m = q->msg[i];
    if (m[0] != (long long)nc->seq) return MPI_ERR_INTERN; /* another call's REQUEST: must not happen */
    for (int c = 0; c < q->n; c++)
        if (q->nodes[c] == m[2]) {
            *child = c;
            *leader = (int)m[1];
            return MPI_SUCCESS;
        }
    return MPI_ERR_INTERN; /* not from a child node */
}

int pc_leader_requests_wait(const pc_node_call_t *nc, pc_leader_requests_t *q)
{
    int rc = pc_waitall(q->n, q->req, MPI_STATUSES_IGNORE);
    for (int i = 0; i < q->n && rc == MPI_SUCCESS; i++) {
        int child, leader;
        rc = pc_leader_request_read(nc, q, i, &child, &leader);
    }
    return rc;
}

int pc_leader_request_send(const pc_node_call_t *nc, int node, long long msg[3], MPI_Request *req, int *nreq)
{
    const pc_comm_t *c = nc->a->ctx;
    int rc = MPI_SUCCESS;
    msg[0] = (long long)nc->seq, msg[1] = c->rank, msg[2] = c->my_node;
    *nreq = 0;
    for (int m = 0; m < pc_leader_addressees(nc, node) && rc == MPI_SUCCESS; m++)
        rc = PMPI_Isend(msg, 3, MPI_LONG_LONG, pc_leader_addressee(nc, node, m),
                        pc_window_tag(PC_TAG_LEADER_REQUEST, nc->seq), c->comm, &req[(*nreq)++]);
    return rc;
}

int pc_leader_guessing(const pc_node_call_t *nc, size_t nseg)
{
    return nseg == 1 && nc->a->bytes <= nc->a->params->bcast.leader_guess_max;
}

int pc_leader_first_tag(const pc_node_call_t *nc) { return pc_window_tag(PC_TAG_LEADER_FIRST, nc->seq); }

int pc_leader_guess_consume(const pc_node_call_t *nc)
{
    const pc_call_t *a = nc->a;
    MPI_Status st;
    int count;
    /* the copy is the message itself: it lands on the bytes the ring gave */
    int rc = PMPI_Recv(a->buf, (int)a->bytes, MPI_BYTE, MPI_ANY_SOURCE, pc_leader_first_tag(nc), a->ctx->comm, &st);
    if (rc == MPI_SUCCESS) rc = PMPI_Get_count(&st, MPI_BYTE, &count);
    if (rc == MPI_SUCCESS && count != 0 && (size_t)count != a->bytes) rc = MPI_ERR_INTERN;
    return rc;
}
