/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * arrival_nb - process-arrival-pattern-aware broadcast for the non-blocking
 * model, on MPI.
 *
 * Idea (Patarasuk & Yuan 2008 Fig. 4): as arrival_b, the root serves groups of arrived
 * receivers with sub-group broadcasts (bcast/common/group.c: chain, tree or
 * scatter + ring allgather); in addition, while nobody is waiting, it
 * pushes the whole message to a receiver that has not arrived yet, so that
 * this receiver, when it arrives, finds the data already there, receives it
 * at once and leaves.  On MPI a push is an MPI_Isend on its own tag, done
 * only for messages up to PAPCOLL_ARRIVAL_PUSH_BYTES (an eager send moves
 * without its receiver; a rendezvous one only when the receiver arrives).
 *
 * Protocol (tags PUSH_DATA, ARRIVED, GROUP_HEADER; seq = the call's number):
 *
 *   receiver r: Iprobe(root, PUSH_DATA)?
 *     yes: Recv push; Send ARRIVED{seq, HAVE}; leave
 *     no:  Send ARRIVED{seq, NEED}; Recv header (ANY_SOURCE, GROUP_HEADER):
 *          kind PUSHED -> Recv push from root;  CHAIN/TREE/SAG -> group broadcast
 *   root: Irecv ARRIVED from everyone; until all ARRIVED are in and pushes done:
 *     ARRIVED{NEED} from a pushed r -> header {seq, PUSHED} to r
 *     ARRIVED{NEED} from others    -> group them, pc_group_serve (as arrival_b)
 *     nobody waiting, link free, a push slot free -> Isend PUSH_DATA to the
 *        next receiver (relative rank order) neither pushed nor arrived
 *
 *   root 0:  [NEED 3,5] group 0->3->5 | push->1 | push->2 | [NEED 2] PUSHED->2 | [HAVE 1]
 *   rank 1 (late):   Iprobe finds the push: Recv, HAVE, leave
 *   rank 2 (arrives while its push is on the way): NEED, header PUSHED, Recv push, leave
 *
 * Bounded pushes, no flooding: a receiver is pushed at most once per call,
 * at most PAPCOLL_ARRIVAL_PUSH_BYTES; at most PAPCOLL_ARRIVAL_PUSH_MAX pushes
 * are incomplete at once; every message the root sends (push or group)
 * keeps its link busy for the model time T = alpha + beta m, and the next
 * push waits for that (the model's round: one push per round), and the
 * first push waits 2 alpha so that receivers already in the call announce
 * themselves instead of being pushed to.  A group that waits is served at
 * once.  A late receiver holds at most one unexpected message of this
 * library per communicator: the root cannot start the next call before this
 * receiver's ARRIVED of this call is in.
 *
 * Why nothing is left unmatched: the root pushes to r at most once and only
 * before r's ARRIVED reached it; r either finds the push by Iprobe (HAVE:
 * root sends nothing more) or announces NEED and gets exactly one header,
 * which is PUSHED exactly when the root has pushed to r, and then receives
 * the push.  Every receiver sends exactly one ARRIVED, matched by the Irecv
 * the root posted for it; the root leaves only when all are in and its pushes
 * are complete.  A process cannot meet the next call's push or header in
 * this call: a push from the same root is ordered after this call's (MPI
 * non-overtaking) and a header needs r's ARRIVED of the next call first.
 *
 * Cost (Hockney, T = alpha + beta m): balanced arrival as arrival_b plus one
 * Iprobe per receiver (pushes only start 2 alpha after the root arrives).
 * A receiver whose push is there when it arrives leaves after one local
 * receive (e_i ~ beta_mem m); otherwise e_i <= 2T as in Patarasuk & Yuan 2008 Theorem 5.
 * Late arrival: while the root is idle it pushes one message per T, in
 * relative rank order, so late receivers find their data waiting; the root
 * itself leaves only when the last receiver has arrived.
 * Limitations: pushes only at or below the eager limit (small and medium
 * messages; larger ones behave as arrival_b); the root cannot leave before
 * every receiver has arrived (it must consume every ARRIVED), unlike the
 * model's root which leaves after n - 1 rounds; the push target is chosen
 * blindly (rank order), not by predicted lateness; pacing uses the model T
 * (PAPCOLL_ALPHA/_BETA), not a measurement.  Under SMPI with its default
 * smpi/async-small-thresh 0 a push moves only once its receiver receives it:
 * there it saves the ARRIVED round trip and the wait for the root's round,
 * not the transfer, and late receivers arriving together share the root's
 * link for their pushes (smpi/async-small-thresh:65536 models eager
 * delivery).
 * Parameters: PAPCOLL_ARRIVAL_PUSH_MAX, PAPCOLL_ARRIVAL_PUSH_BYTES,
 * PAPCOLL_ALPHA/_BETA (pacing), PAPCOLL_ARRIVAL_WINDOW, and those of the
 * sub-group broadcast (PAPCOLL_ARRIVAL_SAG_MIN, _SAG_BYTES, segment size,
 * PAPCOLL_MAX_INFLIGHT).
 * Source: Patarasuk & Yuan 2008 §4, Fig. 4 (arrival_nb) and Theorem 5; section 5
 * on non-blocking communication being made of small (eager) messages.
 */
#include "bcast/bcast.h"
#include "core/p2p.h"

#include <stdlib.h>

enum { NEED = 0, HAVE = 1 }; /* ARRIVED = {seq, NEED | HAVE} */
enum { PUSHED = 1, ARRIVED = 2 }; /* root's state bits per receiver */

typedef struct root_state {
    int p, waiting, inflight; /* ARRIVED not in yet, pushes not complete */
    unsigned long *msg;       /* ARRIVED payload per rank */
    char *state;              /* PUSHED | ARRIVED per rank */
    int *group, n;            /* arrived receivers to serve next (arrival order) */
} root_state_t;

/* Takes in the completed requests done[0..ndone-1]: ARRIVED messages (index
 * < p) and pushes (index >= p). */
static int absorb(const pc_call_t *a, root_state_t *s, int ndone, const int *done)
{
    for (int i = 0; i < ndone; i++) {
        int r = done[i];
        if (r >= s->p) { /* a push completed */
            s->inflight--;
            continue;
        }
        s->waiting--;
        s->state[r] |= ARRIVED;
        if (s->msg[2 * r] != a->ctx->seq || (s->msg[2 * r + 1] == HAVE && !(s->state[r] & PUSHED)))
            return MPI_ERR_INTERN; /* a control message of another call: must not happen */
        if (s->msg[2 * r + 1] == HAVE) continue;
        if (s->state[r] & PUSHED) { /* pushed before its ARRIVED reached me: its data is the push */
            long long hdr[PC_HDR_FIXED] = {[PC_HDR_SEQ] = (long long)a->ctx->seq, [PC_HDR_KIND] = PC_GROUP_PUSHED};
            int rc = PMPI_Send(hdr, PC_HDR_FIXED, MPI_LONG_LONG, r, PC_TAG_GROUP_HEADER, a->ctx->comm);
            if (rc != MPI_SUCCESS) return rc;
        } else {
            s->group[s->n++] = r;
        }
    }
    return MPI_SUCCESS;
}

/* Push slots of the root: messages up to PAPCOLL_ARRIVAL_PUSH_BYTES are pushed. */
static int push_slots(const pc_call_t *a)
{
    const pc_params_t *pp = a->params;
    if (a->bytes > pc_min_size(pp->bcast.arrival_push_bytes, PC_MAX_MSG) || pp->bcast.arrival_push_max <= 0) return 0;
    return (int)pc_min_size((size_t)pp->bcast.arrival_push_max, (size_t)a->ctx->size);
}

static int may_push(const pc_call_t *a) { return push_slots(a) > 0; }

static int root(const pc_call_t *a)
{
    int p = a->ctx->size, me = a->ctx->rank, rc = MPI_SUCCESS, ndone, next = 1; /* push cursor (relative rank) */
    int slots = push_slots(a);
    /* the first push waits a control round trip (2 alpha): receivers that are already
     * in the call announce themselves meanwhile instead of being pushed to */
    double window = pc_arrival_window(a), T = pc_arrival_T(a), busy_until = PMPI_Wtime() + 2 * a->params->alpha;
    root_state_t s = {.p = p, .waiting = p - 1};
    s.msg = malloc((size_t)p * 2 * sizeof *s.msg);
    s.state = calloc((size_t)p, 1);
    s.group = malloc((size_t)p * sizeof *s.group);
    MPI_Request *req = malloc((size_t)(p + slots) * sizeof *req); /* ARRIVED per rank, then push slots */
    int *done = malloc((size_t)(p + slots) * sizeof *done);
    if (!s.msg || !s.state || !s.group || !req || !done) {
        rc = MPI_ERR_NO_MEM;
        goto out;
    }
    for (int r = 0; r < p + slots; r++) req[r] = MPI_REQUEST_NULL;
    for (int r = 0; r < p; r++)
        if (r != me && (rc = PMPI_Irecv(&s.msg[2 * r], 2, MPI_UNSIGNED_LONG, r, PC_TAG_ARRIVED, a->ctx->comm, &req[r])))
            goto out;
    while (rc == MPI_SUCCESS && (s.waiting > 0 || s.inflight > 0 || s.n > 0)) {
        if (s.n == 0) { /* nobody waiting to be served */
            while (next < p && s.state[(a->root + next) % p]) next++;
            int push = next < p && s.inflight < slots; /* someone to push to, a slot free */
            double now = PMPI_Wtime();
            if (push && now < busy_until) pc_arrival_pause(a, busy_until); /* my link is busy: let arrivals come */
            rc = pc_some_complete(p + slots, req, !push, &ndone, done);
            if (rc == MPI_SUCCESS) rc = absorb(a, &s, ndone, done);
            if (rc != MPI_SUCCESS || s.n > 0 || !push || PMPI_Wtime() < busy_until) continue;
            int r = (a->root + next) % p, slot = p; /* still nobody waiting: push */
            while (req[slot] != MPI_REQUEST_NULL) slot++;
            busy_until = PMPI_Wtime() + T;
            rc = pc_isend(a->buf, a->bytes, r, PC_TAG_PUSH_DATA, a->ctx->comm, &req[slot]);
            s.state[r] |= PUSHED;
            s.inflight++;
            continue;
        }
        /* someone waits: serve at once, or collect the arrivals of the window first */
        double until = window > 0 ? PMPI_Wtime() + window : 0;
        while (rc == MPI_SUCCESS && s.waiting > 0 && PMPI_Wtime() < until) {
            pc_arrival_pause(a, until);
            rc = pc_some_complete(p + slots, req, 0, &ndone, done);
            if (rc == MPI_SUCCESS) rc = absorb(a, &s, ndone, done);
        }
        if (rc != MPI_SUCCESS) break;
        busy_until = PMPI_Wtime() + T;
        rc = pc_group_serve(a, s.group, s.n);
        s.n = 0;
    }
out:
    free(s.msg);
    free(s.state);
    free(s.group);
    free(req);
    free(done);
    return rc;
}

static int receiver(const pc_call_t *a)
{
    MPI_Comm comm = a->ctx->comm;
    unsigned long msg[2] = {a->ctx->seq, NEED};
    long long *hdr = malloc((size_t)(a->ctx->size + PC_HDR_FIXED) * sizeof *hdr);
    if (!hdr) return MPI_ERR_NO_MEM;
    /* look for a push only when the root may push (same parameters everywhere):
     * under SMPI every failing MPI_Iprobe makes the next one cost more */
    int pushed = 0, from, rc = MPI_SUCCESS;
    if (may_push(a)) rc = PMPI_Iprobe(a->root, PC_TAG_PUSH_DATA, comm, &pushed, MPI_STATUS_IGNORE);
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

int pc_bcast_arrival_nb(const pc_call_t *a)
{
    return a->ctx->rank == a->root ? root(a) : receiver(a);
}
