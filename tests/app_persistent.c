/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * app_persistent.c - an unmodified program's persistent collectives
 * (MPI-4's MPI_Barrier_init, MPI_Bcast_init, MPI_Reduce_init,
 * MPI_Allreduce_init and the block collectives of app_persistent_blocks.c;
 * Open MPI's MPIX_<Coll>_init) through the preloaded interposer:
 *   results   on MPI_COMM_WORLD, a reversed-order communicator and halves,
 *             36 requests each (MPI_INT/MPI_SUM, MPI_DOUBLE/MPI_MAX, a 2x2
 *             matrix product that is not commutative; 1, 40 and 20000
 *             elements; MPI_IN_PLACE; moving roots; 2 barriers), made once
 *             and run 9 times with new buffer contents, every result
 *             checked against the one computed locally in rank order;
 *             the 10 block collectives with blocks of 1 and 40 ints, moving
 *             roots, uneven blocks in the v forms; the
 *             reduce with the non-commutative op (the library's own, which
 *             papcoll passes through) started and waited for alone
 *   starts    MPI_Start one by one (odd ranks in the reverse order: MPI lets
 *             processes start them in any order) and MPI_Startall
 *   mixed     in one array with the program's own MPI_Isend / MPI_Irecv and
 *             its persistent MPI_Send_init / MPI_Recv_init requests
 *   complete  by MPI_Wait, Waitall, Waitany, Waitsome, Test, Testall,
 *             Testany, Testsome and MPI_Request_get_status + MPI_Wait, one
 *             per run; afterwards the persistent handles must stay (inactive:
 *             MPI_Wait returns an empty status, Waitany finds nothing) and the
 *             others must be MPI_REQUEST_NULL
 *   free      MPI_Request_free of every request, then of the communicators;
 *             with papcoll, also of an active request (its run ends later);
 *             a communicator freed before its persistent request
 * Usage: app_persistent SEED [native|served [WAYS [SKIP]]]: SKIP a
 * comma-separated list of block collectives left out (MPICH 4.0.2's own
 * MPI_Gather_init gathers garbage); WAYS the completion
 * ways by number, run after run (default 012345678: MPICH 4.0.2's own
 * persistent collectives need 0148, its MPI_Waitany and MPI_Testall
 * mishandle them); exit 0 and "OK" on success, 77 when
 * the MPI library has no persistent collectives (Open MPI without its
 * pcollreq extension).  With papcoll preloaded, papcoll_last_algorithm
 * (dlsym) must not say native after an init (native: it must), except for
 * a reduce with the non-commutative op, which papcoll leaves to the
 * library.
 */
#define _GNU_SOURCE
#include <mpi.h>

#include "app_persistent_blocks.h" /* INIT(Name) */

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app_common.h"

#ifdef INIT

static int failures, rank_w;
static unsigned seed;

/* ---- data: three kinds of element and op ---- */

enum { K_INT_SUM, K_DOUBLE_MAX, K_MAT, K_N };
static MPI_Datatype ktype[K_N];
static MPI_Op kop[K_N];
static const size_t ksize[K_N] = {sizeof(int), sizeof(double), sizeof(mat_t)};

static void fill(int kind, void *buf, int count, int r, int salt)
{
    for (int i = 0; i < count; i++) {
        int v = (r * 131 + i * 7 + salt * 13) % 97;
        if (kind == K_INT_SUM) ((int *)buf)[i] = v - 40 + salt;
        else if (kind == K_DOUBLE_MAX) ((double *)buf)[i] = v * 0.5 - (r == (i + salt) % 5) * 100;
        else ((mat_t *)buf)[i] = (mat_t){(v + salt) % 5 + 1, r % 3, (i + r + salt) % 4, 1 + r % 2};
    }
}

/* The reduction over p ranks' inputs, in rank order. */
static void reference(int kind, void *out, int count, int p, int salt)
{
    char *tmp = malloc(ksize[kind] * (size_t)count);
    fill(kind, out, count, p - 1, salt);
    for (int r = p - 2; r >= 0; r--) {
        fill(kind, tmp, count, r, salt);
        MPI_Reduce_local(tmp, out, count, ktype[kind], kop[kind]);
    }
    free(tmp);
}

/* ---- the persistent collectives of one communicator ---- */

enum { C_BARRIER, C_BCAST, C_REDUCE, C_ALLREDUCE, C_BLOCK /* + B_<coll> */ };
static const char *cname[] = {"barrier", "bcast", "reduce", "allreduce"};

typedef struct {
    int coll, kind, count, root, inplace;
    char *in, *out, *ref;
    MPI_Request req;
    int served;          /* papcoll's (else the library's own) */
    block_coll_t blk;    /* a block collective's (coll >= C_BLOCK) */
} pcoll_t;

static const char *name_of(const pcoll_t *c)
{
    return c->coll >= C_BLOCK ? block_name[c->coll - C_BLOCK] : cname[c->coll];
}

enum { MAXP = 64 };
static const char *(*last_algorithm)(void);
static int native_expected, served, made;
static const char *ways = "012345678"; /* the completion ways, run after run */
static const char *skip = "";           /* block collectives left out */

static int skipped(int b)
{
    size_t n = strlen(block_name[b]);
    for (const char *s = skip; (s = strstr(s, block_name[b])) != NULL; s += n)
        if ((s == skip || s[-1] == ',') && (s[n] == ',' || s[n] == '\0')) return 1;
    return 0;
}

/* Whether papcoll served the init just made (or, told native, did not). */
static void check_served(pcoll_t *c)
{
    made++;
    if (!last_algorithm) return;
    const char *got = last_algorithm();
    int native = strcmp(got, "native") == 0;
    int noncomm_reduce = c->coll == C_REDUCE && c->kind == K_MAT; /* papcoll leaves it to the library */
    if (native_expected || noncomm_reduce) CHECK(native, "%s_init ran %s, expected native", name_of(c), got);
    else CHECK(!native, "%s_init kind %d count %d: native", name_of(c), c->kind, c->count);
    served += !native;
    c->served = !native;
}

/* Makes one persistent collective (its buffers included) on comm. */
static void make_one(MPI_Comm comm, pcoll_t *x, int coll, int k, int count, int root, int inplace)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    size_t bytes = ksize[k] * (size_t)count;
    *x = (pcoll_t){.coll = coll, .kind = k, .count = count, .root = root, .inplace = inplace, .in = malloc(bytes),
                   .out = malloc(bytes), .ref = malloc(bytes), .req = MPI_REQUEST_NULL};
    const void *send = inplace && (coll == C_ALLREDUCE || rank == root) ? MPI_IN_PLACE : x->in;
    if (coll == C_BARRIER) INIT(Barrier)(comm, MPI_INFO_NULL, &x->req);
    else if (coll == C_BCAST) INIT(Bcast)(x->out, count, ktype[k], root, comm, MPI_INFO_NULL, &x->req);
    else if (coll == C_REDUCE) INIT(Reduce)(send, x->out, count, ktype[k], kop[k], root, comm, MPI_INFO_NULL, &x->req);
    else INIT(Allreduce)(send, x->out, count, ktype[k], kop[k], comm, MPI_INFO_NULL, &x->req);
    check_served(x);
}

/* The requests run together: every collective, kind, count (1, 40, 20000),
 * in place or not, moving roots; but the reduce with the non-commutative
 * op, which papcoll leaves to the library (run beside them: MPICH 4.0.2's
 * own persistent collectives break MPI_Testall, Waitany and the like). */
static int make_all(MPI_Comm comm, pcoll_t *c)
{
    int p, n = 0;
    MPI_Comm_size(comm, &p);
    static const int counts[] = {1, 40, 20000};
    for (int k = 0; k < K_N; k++)
        for (int ci = 0; ci < 3; ci++)
            for (int coll = C_BCAST; coll <= C_ALLREDUCE; coll++)
                    for (int inplace = 0; inplace < (coll == C_ALLREDUCE ? 2 : 1); inplace++)
                    if (!(coll == C_REDUCE && k == K_MAT))
                        make_one(comm, &c[n++], coll, k, counts[ci], (k + ci + coll) % p,
                                 inplace || (coll == C_REDUCE && ci % 2));
    make_one(comm, &c[n++], C_BARRIER, 0, 0, 0, 0);
    make_one(comm, &c[n++], C_BARRIER, 0, 0, 0, 0);
    for (int b = 0; b < B_N; b++)
        for (int ci = 0; ci < 2 && !skipped(b); ci++) {
            pcoll_t *x = &c[n++];
            *x = (pcoll_t){.coll = C_BLOCK + b, .count = ci ? 40 : 1, .root = (b + ci) % p, .req = MPI_REQUEST_NULL};
            block_make(comm, &x->blk, b, x->count, x->root, &x->req);
            check_served(x);
        }
    return n;
}

/* New contents for run `salt`: inputs, the root's broadcast data, and the
 * expected results. */
static void prepare(MPI_Comm comm, pcoll_t *x, int salt)
{
    int rank, p;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &p);
    if (x->coll >= C_BLOCK) block_prepare(&x->blk, salt);
    if (x->coll == C_BARRIER || x->coll >= C_BLOCK) return;
    size_t bytes = ksize[x->kind] * (size_t)x->count;
    if (x->coll == C_BCAST) {
        fill(x->kind, x->ref, x->count, x->root + 7, salt);
        if (rank == x->root) memcpy(x->out, x->ref, bytes);
        else memset(x->out, 0, bytes);
        return;
    }
    reference(x->kind, x->ref, x->count, p, salt);
    memset(x->out, 0, bytes);
    int inplace_here = x->inplace && (x->coll == C_ALLREDUCE || rank == x->root);
    fill(x->kind, inplace_here ? x->out : x->in, x->count, rank, salt);
}

static void verify(MPI_Comm comm, const pcoll_t *x, const char *where, int run)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    if (x->coll >= C_BLOCK) CHECK(block_verify(&x->blk), "%s %s count %d root %d run %d", where, name_of(x), x->count, x->root, run);
    if (x->coll == C_BARRIER || x->coll >= C_BLOCK || (x->coll == C_REDUCE && rank != x->root)) return;
    CHECK(memcmp(x->out, x->ref, ksize[x->kind] * (size_t)x->count) == 0, "%s %s kind %d count %d root %d run %d",
          where, name_of(x), x->kind, x->count, x->root, run);
}

/* ---- completion in one of 9 ways ---- */

static void poll_pause(void)
{
    if (rand_r(&seed) % 4 == 0) usleep((useconds_t)(rand_r(&seed) % 500));
}

static void complete(MPI_Request *req, int n, int way)
{
    static MPI_Status st[128];
    int flag, idx, out, indices[128];
    switch (way) {
    case 0: for (int i = n - 1; i >= 0; i--) MPI_Wait(&req[i], &st[0]); break;
    case 1: MPI_Waitall(n, req, st); break;
    case 2: do MPI_Waitany(n, req, &idx, &st[0]); while (idx != MPI_UNDEFINED); break;
    case 3: do MPI_Waitsome(n, req, &out, indices, st); while (out != MPI_UNDEFINED); break;
    case 4:
        for (int i = 0; i < n; i++)
            do { MPI_Test(&req[i], &flag, &st[0]); if (!flag) poll_pause(); } while (!flag);
        break;
    case 5: do { MPI_Testall(n, req, &flag, st); if (!flag) poll_pause(); } while (!flag); break;
    case 6: do { MPI_Testany(n, req, &idx, &flag, &st[0]); if (!flag) poll_pause(); } while (!(flag && idx == MPI_UNDEFINED)); break;
    case 7: do { MPI_Testsome(n, req, &out, indices, st); if (!out) poll_pause(); } while (out != MPI_UNDEFINED); break;
    case 8: /* get_status leaves the request active: the Wait completes it */
        for (int i = 0; i < n; i++) {
            do { MPI_Request_get_status(req[i], &flag, &st[0]); if (!flag) poll_pause(); } while (!flag);
            MPI_Wait(&req[i], &st[0]);
        }
        break;
    }
}

/* The program's own point-to-point requests of one run: a ring exchange
 * by MPI_Isend / MPI_Irecv, and one by persistent requests (made once). */
typedef struct {
    int sendv[64], recvv[64], psend[64], precv[64];
    MPI_Request pers[2];
} own_t;

/* ---- one communicator: 9 runs of every request ---- */

static void run_all(MPI_Comm comm, const char *where)
{
    int rank, p;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    static pcoll_t c[MAXP];
    /* The non-commutative reduce (the library's own, through papcoll's entry
     * point), started and waited for alone, after papcoll's requests of
     * the previous communicator were freed. */
    pcoll_t side;
    int pc;
    MPI_Comm_size(comm, &pc);
    int n = make_all(comm, c);
    make_one(comm, &side, C_REDUCE, K_MAT, 40, 1 % pc, 0);
    own_t own;
    int right = (rank + 1) % p, left = (rank + p - 1) % p;
    MPI_Send_init(own.psend, 64, MPI_INT, right, 6, MPI_COMM_WORLD, &own.pers[0]);
    MPI_Recv_init(own.precv, 64, MPI_INT, left, 6, MPI_COMM_WORLD, &own.pers[1]);
    for (int run = 0; run < 9; run++) {
        for (int i = 0; i < n; i++) prepare(comm, &c[i], run * 100 + i);
        prepare(comm, &side, run);
        MPI_Start(&side.req);
        MPI_Wait(&side.req, MPI_STATUS_IGNORE);
        for (int i = 0; i < 64; i++) own.sendv[i] = rank * 1000 + run + i, own.psend[i] = -rank - run - i;
        MPI_Request all[MAXP + 4];
        int m = 0;
        MPI_Irecv(own.recvv, 64, MPI_INT, left, 5, MPI_COMM_WORLD, &all[m++]);
        if (run % 2) { /* the collectives and the persistent point-to-point ones in one MPI_Startall */
            for (int i = 0; i < n; i++) all[m++] = c[i].req;
            all[m++] = own.pers[0], all[m++] = own.pers[1];
            MPI_Startall(m - 1, all + 1);
        } else {
            MPI_Start(&own.pers[1]);
            for (int k = 0; k < n; k++) {
                int i = rank % 2 ? n - 1 - k : k; /* any order: MPI lets processes differ */
                MPI_Start(&c[i].req);
                all[m++] = c[i].req;
            }
            MPI_Start(&own.pers[0]);
            all[m++] = own.pers[0], all[m++] = own.pers[1];
        }
        MPI_Isend(own.sendv, 64, MPI_INT, right, 5, MPI_COMM_WORLD, &all[m++]);
        complete(all, m, ways[run % strlen(ways)] - '0');
        CHECK(all[0] == MPI_REQUEST_NULL && all[m - 1] == MPI_REQUEST_NULL, "%s run %d: the Isend/Irecv not freed", where, run);
        for (int i = 1; i < m - 1; i++) CHECK(all[i] != MPI_REQUEST_NULL, "%s run %d: persistent request %d freed", where, run, i);
        CHECK(side.req != MPI_REQUEST_NULL, "%s run %d: the library's persistent request freed", where, run);
        for (int i = 0; i < n; i++) verify(comm, &c[i], where, run);
        verify(comm, &side, where, run);
        for (int i = 0; i < 64; i++) {
            CHECK(own.recvv[i] == left * 1000 + run + i, "%s run %d: own Irecv [%d]", where, run, i);
            CHECK(own.precv[i] == -left - run - i, "%s run %d: own persistent recv [%d]", where, run, i);
        }
        /* inactive now: an empty status at once, and nothing for Waitany */
        MPI_Status st;
        st.MPI_TAG = 12345;
        MPI_Wait(&c[run % n].req, &st);
        CHECK(st.MPI_TAG == MPI_ANY_TAG && st.MPI_SOURCE == MPI_ANY_SOURCE, "%s run %d: inactive wait status %d/%d",
              where, run, st.MPI_SOURCE, st.MPI_TAG);
        /* (papcoll's and the point-to-point ones: MPICH 4.0.2's MPI_Waitany
         * returns the index of an inactive persistent collective of its own) */
        MPI_Request inactive[MAXP + 2] = {own.pers[0], own.pers[1]};
        int ni = 2, idx = 0;
        for (int i = 0; i < n; i++)
            if (c[i].served) inactive[ni++] = c[i].req;
        MPI_Waitany(ni, inactive, &idx, &st);
        CHECK(idx == MPI_UNDEFINED, "%s run %d: Waitany on inactive requests gave %d", where, run, idx);
        if (failures) break;
    }
    for (int i = 0; i < n; i++) {
        MPI_Request_free(&c[i].req);
        CHECK(c[i].req == MPI_REQUEST_NULL, "%s: request_free left the handle", where);
        free(c[i].in), free(c[i].out), free(c[i].ref);
        if (c[i].coll >= C_BLOCK) block_free(&c[i].blk);
    }
    MPI_Request_free(&side.req);
    free(side.in), free(side.out), free(side.ref);
    MPI_Request_free(&own.pers[0]);
    MPI_Request_free(&own.pers[1]);
}

/* ---- MPI_Request_free of an active request (papcoll tolerates it) ---- */

static void free_active(MPI_Comm comm)
{
    enum { N = 500 };
    static int in[N];
    static volatile int out[N]; /* written by the run after the free */
    int p;
    MPI_Comm_size(comm, &p);
    for (int i = 0; i < N; i++) in[i] = 2, out[i] = 0;
    MPI_Request req;
    INIT(Allreduce)(in, (int *)out, N, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &req);
    MPI_Start(&req);
    MPI_Request_free(&req);
    CHECK(req == MPI_REQUEST_NULL, "request_free of an active request left the handle");
    int all = progress_until(out, N, 2 * p);
    CHECK(all, "freed active allreduce: %d, expected %d", out[0], 2 * p);
}

/* ---- the communicator freed before its persistent request ---- */

static void comm_first(void)
{
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    int p, in = rank_w + 1, out = 0;
    MPI_Comm_size(dup, &p);
    MPI_Request req;
    INIT(Allreduce)(&in, &out, 1, MPI_INT, MPI_SUM, dup, MPI_INFO_NULL, &req);
    MPI_Start(&req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    CHECK(out == p * (p + 1) / 2, "allreduce on a communicator freed next: %d", out);
    MPI_Comm_free(&dup); /* MPI lets the request outlive it */
    MPI_Request_free(&req);
    CHECK(req == MPI_REQUEST_NULL, "request_free after the communicator's left the handle");
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_w);
    int p;
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    alarm(100); /* a hang is a failure */
    seed = (unsigned)(argc > 1 ? atoi(argv[1]) : 1) * 7919u + (unsigned)rank_w;
    native_expected = argc > 2 && strcmp(argv[2], "native") == 0;
    if (argc > 3) ways = argv[3];
    if (argc > 4) skip = argv[4];
    last_algorithm = (const char *(*)(void))dlsym(RTLD_DEFAULT, "papcoll_last_algorithm");
    ktype[K_INT_SUM] = MPI_INT, kop[K_INT_SUM] = MPI_SUM;
    ktype[K_DOUBLE_MAX] = MPI_DOUBLE, kop[K_DOUBLE_MAX] = MPI_MAX;
    MPI_Type_contiguous(4, MPI_INT, &ktype[K_MAT]);
    MPI_Type_commit(&ktype[K_MAT]);
    MPI_Op_create(matmul, 0, &kop[K_MAT]);

    MPI_Comm rev, half;
    MPI_Comm_split(MPI_COMM_WORLD, 0, p - rank_w, &rev);
    MPI_Comm_split(MPI_COMM_WORLD, rank_w % 2, rank_w, &half);
    run_all(MPI_COMM_WORLD, "world");
    run_all(rev, "reversed");
    run_all(half, "half");
    if (last_algorithm && !native_expected) free_active(rev);
    comm_first();
    MPI_Comm_free(&rev); /* after its persistent requests */
    MPI_Comm_free(&half);

    int total = 0, served_all = 0;
    MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Reduce(&served, &served_all, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank_w == 0)
        printf("app_persistent: np=%d papcoll=%s served=%d of %d persistent requests: %s\n", p,
               last_algorithm ? "preloaded" : "absent", served_all, made * p, total ? "FAIL" : "OK");
    MPI_Type_free(&ktype[K_MAT]);
    MPI_Op_free(&kop[K_MAT]);
    MPI_Finalize();
    return total ? 1 : 0;
}

#else /* no persistent collectives in this MPI library */

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        printf("app_persistent: SKIP: this MPI library has neither MPI-4's MPI_<Coll>_init nor Open MPI's "
               "MPIX_<Coll>_init (pcollreq extension)\n");
    MPI_Finalize();
    return 77;
}

#endif
