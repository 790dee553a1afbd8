/*
 * arrival_nb - process-arrival-pattern-aware broadcast for the non-blocking
 * model, on MPI.
 *
 * Idea (seed 002 Fig. 4): as arrival_b, the root serves groups of arrived
 * receivers with sub-group broadcasts; in addition, while nobody is waiting,
 * it pushes the whole message to a receiver that has not arrived yet, so
 * that this receiver, when it arrives, finds the data already delivered,
 * receives it from local memory and leaves.  On MPI a push is an MPI_Isend
 * on its own tag, done only for messages up to PAPCOLL_ARRIVAL_PUSH_BYTES (an
 * eager send completes without its receiver; a rendezvous one would only move
 * when the receiver arrives), at most PAPCOLL_ARRIVAL_PUSH_MAX in flight.
 *
 * Protocol (tags PUSH_DATA, ARRIVED, GROUP_HEADER; seq = the call's number):
 *
 *   receiver r: Iprobe(root, PUSH_DATA)?
 *     yes: Recv push; Send ARRIVED{seq, HAVE}; leave
 *     no:  Send ARRIVED{seq, NEED}; Recv header (ANY_SOURCE, GROUP_HEADER):
 *          kind PUSHED -> Recv push from root;  CHAIN/SAG -> group broadcast
 *   root: Irecv ARRIVED from everyone; until all ARRIVED are in and pushes done:
 *     ARRIVED{NEED} from a pushed r -> header {seq, PUSHED} to r
 *     ARRIVED{NEED} from others    -> group them, pc_group_serve (arrival_b's)
 *     nobody waiting, a push slot free -> Isend PUSH_DATA to the next receiver
 *        (relative rank order) that is neither pushed nor arrived
 *
 *   root 0:  push->3  push->1  [ARRIVED 2,4] chain 0->2->4  [ARRIVED 3 HAVE] ...
 *
 * Why nothing is left unmatched: the root pushes to r at most once and only
 * before r's ARRIVED reached it; r either finds the push by Iprobe (HAVE:
 * root sends nothing more) or announces NEED and gets exactly one header,
 * which is PUSHED exactly when the root has pushed to r, and then receives
 * the push.  Every receiver sends exactly one ARRIVED, matched by the Irecv
 * the root posted for it; the root leaves only when all are in and its pushes
 * are complete, so no message of this call reaches another call.  A process
 * cannot see the next call's push or header early: both need its ARRIVED of
 * this call first.
 *
 * Cost (Hockney, T = alpha + beta m): balanced arrival as arrival_b plus one
 * Iprobe per receiver; a receiver whose push arrived before it leaves after
 * one local receive (e_i ~ beta_mem m); otherwise e_i <= 2T as in seed 002
 * Theorem 5.  Late arrival: pushes go first to receivers in relative rank
 * order, so with eager pushes the late receivers (and, while the root idles,
 * the early ones) find their data waiting.
 * Limitations: pushes only below the eager limit (small and medium messages),
 * so large messages behave as arrival_b; the root cannot leave before every
 * receiver has arrived (it must consume every ARRIVED), unlike the model's
 * root which leaves after n - 1 rounds; the push target is chosen blindly
 * (rank order), not by predicted lateness.
 * Parameters: PAPCOLL_ARRIVAL_PUSH_MAX, PAPCOLL_ARRIVAL_PUSH_BYTES, and those
 * of the sub-group broadcast (PAPCOLL_ARRIVAL_SAG_MIN, _SAG_BYTES, segment
 * size, PAPCOLL_MAX_INFLIGHT).
 * Source: seed 002 section 4, Fig. 4 (arrival_nb) and Theorem 5; section 5
 * on non-blocking communication being made of small (eager) messages.
 */
#include "bcast.h"
#include "../p2p.h"

#include <stdlib.h>

enum { NEED = 0, HAVE = 1 }; /* ARRIVED = {seq, NEED | HAVE} */

static int root(const pc_bcast_args_t *a)
{
    const pc_params_t *pp = a->params;
    int p = a->ctx->size, me = a->ctx->rank, rc = MPI_SUCCESS, ndone;
    int slots = a->bytes <= pc_min_size(pp->arrival_push_bytes, PC_MAX_MSG) && pp->arrival_push_max > 0
                    ? (int)pc_min_size((size_t)pp->arrival_push_max, (size_t)p) : 0;
    int waiting = p - 1, inflight = 0, next = 1; /* ARRIVED not in, pushes not done, push cursor (relative) */
    unsigned long *msg = malloc((size_t)p * 2 * sizeof *msg);
    MPI_Request *req = malloc((size_t)(p + slots) * sizeof *req); /* ARRIVED per rank, then push slots */
    int *done = malloc((size_t)(p + slots) * sizeof *done);
    int *group = malloc((size_t)p * sizeof *group);
    char *state = calloc((size_t)p, 1); /* bit 1: pushed, bit 2: arrived */
    if (!msg || !req || !done || !group || !state) {
        rc = MPI_ERR_NO_MEM;
        goto out;
    }
    for (int r = 0; r < p + slots; r++) {
        req[r] = MPI_REQUEST_NULL;
        if (r < p && r != me && (rc = PMPI_Irecv(&msg[2 * r], 2, MPI_UNSIGNED_LONG, r, PC_TAG_ARRIVED, a->ctx->comm, &req[r])))
            goto out;
    }
    while (waiting > 0 || inflight > 0) {
        while (next < p && state[(a->root + next) % p]) next++;
        int can_push = inflight < slots && next < p;
        rc = can_push ? PMPI_Testsome(p + slots, req, &ndone, done, MPI_STATUSES_IGNORE)
                      : PMPI_Waitsome(p + slots, req, &ndone, done, MPI_STATUSES_IGNORE);
        if (rc != MPI_SUCCESS) goto out;
        int n = 0;
        for (int i = 0; i < ndone; i++) {
            int r = done[i];
            if (r >= p) { /* a push completed */
                inflight--;
                continue;
            }
            waiting--;
            state[r] |= 2;
            if (msg[2 * r] != a->ctx->seq || (msg[2 * r + 1] == HAVE && !(state[r] & 1))) {
                rc = MPI_ERR_INTERN; /* a control message of another call: must not happen */
                goto out;
            }
            if (msg[2 * r + 1] == HAVE) continue;
            if (state[r] & 1) { /* pushed before its ARRIVED reached me: tell it the data is the push */
                long long hdr[PC_HDR_FIXED] = {[PC_HDR_SEQ] = (long long)a->ctx->seq, [PC_HDR_KIND] = PC_GROUP_PUSHED};
                rc = PMPI_Send(hdr, PC_HDR_FIXED, MPI_LONG_LONG, r, PC_TAG_GROUP_HEADER, a->ctx->comm);
                if (rc != MPI_SUCCESS) goto out;
            } else {
                group[n++] = r;
            }
        }
        if (n > 0) {
            rc = pc_group_serve(a, group, n);
        } else if (can_push) {
            int r = (a->root + next) % p, slot = p;
            while (req[slot] != MPI_REQUEST_NULL) slot++;
            rc = pc_isend(a->buf, a->bytes, r, PC_TAG_PUSH_DATA, a->ctx->comm, &req[slot]);
            state[r] |= 1;
            inflight++;
        }
        if (rc != MPI_SUCCESS) goto out;
    }
out:
    free(msg);
    free(req);
    free(done);
    free(group);
    free(state);
    return rc;
}

static int receiver(const pc_bcast_args_t *a)
{
    MPI_Comm comm = a->ctx->comm;
    unsigned long msg[2] = {a->ctx->seq, NEED};
    long long *hdr = malloc((size_t)(a->ctx->size + PC_HDR_FIXED) * sizeof *hdr);
    if (!hdr) return MPI_ERR_NO_MEM;
    int pushed, from, rc = PMPI_Iprobe(a->root, PC_TAG_PUSH_DATA, comm, &pushed, MPI_STATUS_IGNORE);
    if (rc == MPI_SUCCESS && pushed) { /* delivered before I came: take it and leave */
        msg[1] = HAVE;
        rc = pc_recv(a->buf, a->bytes, a->root, PC_TAG_PUSH_DATA, comm);
        if (rc == MPI_SUCCESS) rc = PMPI_Send(msg, 2, MPI_UNSIGNED_LONG, a->root, PC_TAG_ARRIVED, comm);
        goto out;
    }
    if (rc == MPI_SUCCESS) rc = PMPI_Send(msg, 2, MPI_UNSIGNED_LONG, a->root, PC_TAG_ARRIVED, comm);
    if (rc == MPI_SUCCESS) rc = pc_group_recv_header(a, hdr, &from);
    if (rc == MPI_SUCCESS)
        rc = hdr[PC_HDR_KIND] == PC_GROUP_PUSHED ? pc_recv(a->buf, a->bytes, a->root, PC_TAG_PUSH_DATA, comm)
                                                 : pc_group_join(a, hdr, from);
out:
    free(hdr);
    return rc;
}

int pc_bcast_arrival_nb(const pc_bcast_args_t *a)
{
    return a->ctx->rank == a->root ? root(a) : receiver(a);
}
