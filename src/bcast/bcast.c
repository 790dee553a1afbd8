/*
 * bcast.c - papcoll_bcast: check the arguments, get the context, select,
 * call the algorithm.  The broadcast algorithm table is here: adding an
 * algorithm is one file in src/bcast/ and one line below.
 */
#include "bcast.h"
#include "../args.h"
#include "../log.h"
#include "../p2p.h"
#include "../select.h"
#include "../state.h"
#include "../tune.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const pc_bcast_algorithm_t pc_bcast_algorithms[] = {
    {"native", pc_bcast_native, PC_BCAST_WANTS_DATATYPE, "the MPI library's own MPI_Bcast (PMPI_Bcast), the baseline"},
    {"linear", pc_bcast_linear, 0, "root sends the whole message to each process in turn (seed 004 naive)"},
    {"chain", pc_bcast_chain, 0, "whole message passed along a ring of processes (seed 004 ring)"},
    {"chain_pipelined", pc_bcast_chain_pipelined, 0, "segmented chain, blocking Recv/Send (seed 004 MODE 3)"},
    {"chain_pipelined_isend", pc_bcast_chain_pipelined_isend, 0, "segmented chain, Irecv ahead and Isend (seed 004 MODE 4)"},
    {"binomial", pc_bcast_binomial, 0, "whole message down a binomial tree"},
    {"bintree_pipelined", pc_bcast_bintree_pipelined, 0, "segmented binary tree with Isend (seed 004 MODE 5)"},
    {"scatter_rdb_allgather", pc_bcast_scatter_rdb_allgather, 0, "binomial scatter + recursive-doubling allgather, any p"},
    {"scatter_ring_allgather", pc_bcast_scatter_ring_allgather, 0, "binomial scatter + ring allgather"},
    {"arrival_b", pc_bcast_arrival_b, 0, "root serves arrived groups by pipelined chains or trees (seed 002 arrival_b)"},
    {"arrival_nb", pc_bcast_arrival_nb, 0, "arrival_b, and the root pushes small messages eagerly to processes not yet arrived (seed 002 arrival_nb)"},
    {"hier", pc_bcast_hier, PC_BCAST_HIERARCHICAL, "shared-memory copy-in, PAPCOLL_BCAST_INTER among node leaders, copy-out; node barriers (seed 001 Fig. 2.1)"},
    {"hier_nobarrier", pc_bcast_hier_nobarrier, PC_BCAST_HIERARCHICAL, "hier without barriers: each process copies out once its node has the data (seed 001 3.7.2)"},
    {"dynleader", pc_bcast_dynleader, PC_BCAST_HIERARCHICAL, "first arriver of each node leads; binomial tree of nodes; copy-out and leave (seed 001 Fig. 3.16)"},
    {"cp_binomial", pc_bcast_cp_binomial, PC_BCAST_HIERARCHICAL, "competitive leaders + pipelined binomial tree of nodes, copies overlap transfers (seed 000 CP-BT)"},
    {"cp_chain", pc_bcast_cp_chain, PC_BCAST_HIERARCHICAL, "competitive leaders + pipelined chain of nodes, copies overlap transfers (seed 000 CP on seed 002's chain)"},
    {"cp_rdb", pc_bcast_cp_rdb, PC_BCAST_HIERARCHICAL, "competitive leaders + scatter and recursive-doubling allgather among nodes, blocks copied as they land (seed 000 CP-RDAAS)"},
    {"cp_ring", pc_bcast_cp_ring, PC_BCAST_HIERARCHICAL, "competitive leaders + scatter and ring allgather among nodes, blocks copied as they land (seed 000 CP-RingAAS)"},
    {"multisender", pc_bcast_multisender, PC_BCAST_HIERARCHICAL, "pipelined binomial tree of nodes, every process sends its share of segments from shared memory (seed 001 2.3.2)"},
    {"arrival_dynleader", pc_bcast_arrival_dynleader, PC_BCAST_HIERARCHICAL, "arrival_b among nodes whose leaders are their first arrivers (seed 001 3.9.2 Pat. Dyn. Lead.)"},
};
const int pc_bcast_algorithm_count = (int)(sizeof pc_bcast_algorithms / sizeof pc_bcast_algorithms[0]);

/* Built-in selection rules (tune grammar, src/tune.h); measurements behind
 * them: docs/tuning.md. */
const char pc_bcast_default_rules[] =
#include "bcast_default_rules.inc"
    ;

static const pc_bcast_algorithm_t *find(const char *name)
{
    for (int i = 0; i < pc_bcast_algorithm_count; i++)
        if (!strcmp(pc_bcast_algorithms[i].name, name)) return &pc_bcast_algorithms[i];
    return NULL;
}

static int is_bcast_algorithm(const char *name) { return find(name) != NULL; }

/* Runs algorithm `algo` on bytes; packs/unpacks non-contiguous data. */
static int run(const pc_bcast_algorithm_t *algo, pc_bcast_args_t *a, const pc_layout_t *layout)
{
    if (algo->requirements & PC_BCAST_WANTS_DATATYPE || layout->contiguous) {
        a->buf = (char *)a->user_buf + layout->true_lb;
        return algo->fn(a);
    }
    a->buf = malloc(a->bytes);
    if (!a->buf) return MPI_ERR_NO_MEM;
    int rc = MPI_SUCCESS;
    if (a->ctx->rank == a->root) rc = pc_pack(a->user_buf, a->count, a->datatype, a->buf, a->bytes, a->ctx->comm);
    if (rc == MPI_SUCCESS) rc = algo->fn(a);
    if (rc == MPI_SUCCESS && a->ctx->rank != a->root)
        rc = pc_unpack(a->buf, a->bytes, a->user_buf, a->count, a->datatype, a->ctx->comm);
    free(a->buf);
    return rc;
}

/* The algorithm for (forced or auto) on a context; never NULL (a fallback to
 * native is logged).  why receives the reason. */
static const pc_bcast_algorithm_t *choose(const char *forced, const char *source, const pc_comm_t *ctx, size_t bytes,
                                          char *why, size_t whylen)
{
    pc_select_input_t in = {"bcast", bytes, ctx->size, ctx->nnodes, ctx->max_ppn};
    const char *name = pc_select(forced, source, pc_bcast_default_rules, &in, is_bcast_algorithm, why, whylen);
    const pc_bcast_algorithm_t *algo = name ? find(name) : NULL;
    if (!algo) { /* only if the rules lack a catch-all: never silent */
        algo = find("native");
        snprintf(why, whylen, "no rule matched: fallback to native");
        pc_log(PC_LOG_WARN, "bcast: %s", why);
    }
    return algo;
}

int pc_bcast_bytes_on(const char *name, void *buf, size_t bytes, int root, MPI_Comm comm)
{
    pc_bcast_args_t a = {.buf = buf, .bytes = bytes, .root = root, .params = pc_params(), .datatype = MPI_BYTE};
    if (strcmp(name, "auto") && !find(name)) {
        pc_log(PC_LOG_WARN, "bcast: unknown algorithm \"%s\" among node leaders (PAPCOLL_BCAST_INTER): MPI_ERR_ARG", name);
        return MPI_ERR_ARG;
    }
    int rc = pc_comm_get(comm, &a.ctx);
    if (rc != MPI_SUCCESS) return rc;
    a.ctx->seq++;
    char why[192];
    const pc_bcast_algorithm_t *algo = choose(name, "an enclosing algorithm", a.ctx, bytes, why, sizeof why);
    if (algo->requirements & PC_BCAST_HIERARCHICAL) {
        if (strcmp(name, "auto")) {
            pc_log(PC_LOG_WARN, "bcast: %s cannot run among node leaders (PAPCOLL_BCAST_INTER; it is hierarchical itself): MPI_ERR_ARG", name);
            return MPI_ERR_ARG;
        }
        pc_log(PC_LOG_INFO, "bcast: auto chose %s among node leaders; binomial instead", algo->name);
        algo = find("binomial");
    }
    pc_log(PC_LOG_DEBUG, "bcast (inner) seq=%lu bytes=%zu p=%d root=%d algorithm=%s (%s)", a.ctx->seq, bytes,
           a.ctx->size, root, algo->name, why);
    if (bytes == 0 || a.ctx->size == 1) return MPI_SUCCESS;
    if (!(algo->requirements & PC_BCAST_WANTS_DATATYPE)) return algo->fn(&a);
    for (size_t done = 0; done < bytes && rc == MPI_SUCCESS; done += (size_t)a.count) { /* int counts */
        a.user_buf = (char *)buf + done;
        a.count = (int)pc_min_size(bytes - done, PC_MAX_MSG);
        rc = algo->fn(&a);
    }
    return rc;
}

/* forced: algorithm name or "auto"; source names where it came from. */
static int bcast(const char *forced, const char *source, void *buf, int count, MPI_Datatype datatype, int root,
                 MPI_Comm comm)
{
    int rc = pc_check_comm(comm);
    if (rc != MPI_SUCCESS) return pc_error(MPI_COMM_WORLD, rc);
    if (pc_is_intercomm(comm)) {
        pc_log(PC_LOG_DEBUG, "bcast on an intercommunicator: fallback to PMPI_Bcast");
        pc_set_last_algorithm("native");
        return PMPI_Bcast(buf, count, datatype, root, comm);
    }
    pc_layout_t layout;
    rc = pc_check_args(buf, count, datatype, root, comm, &layout);
    if (rc != MPI_SUCCESS) return pc_error(comm, rc);

    pc_bcast_args_t a = {.bytes = layout.bytes, .root = root, .params = pc_params(), .user_buf = buf,
                         .count = count, .datatype = datatype};
    if ((rc = pc_comm_get(comm, &a.ctx)) != MPI_SUCCESS) return pc_error(comm, rc);
    a.ctx->seq++;
    char why[192];
    const pc_bcast_algorithm_t *algo = choose(forced, source, a.ctx, a.bytes, why, sizeof why);
    pc_set_last_algorithm(algo->name);
    pc_log(PC_LOG_DEBUG, "bcast seq=%lu bytes=%zu p=%d nodes=%d root=%d algorithm=%s (%s)", a.ctx->seq, a.bytes,
           a.ctx->size, a.ctx->nnodes, root, algo->name, why);
    if (a.bytes == 0 || a.ctx->size == 1) return MPI_SUCCESS;
    rc = run(algo, &a, &layout);
    return rc == MPI_SUCCESS ? rc : pc_error(comm, rc);
}

int papcoll_bcast(void *buf, int count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    return bcast(pc_params()->bcast, "PAPCOLL_BCAST", buf, count, datatype, root, comm);
}

int papcoll_bcast_by_name(const char *algorithm, void *buf, int count, MPI_Datatype datatype, int root,
                          MPI_Comm comm)
{
    if (!algorithm || (strcmp(algorithm, "auto") && !find(algorithm))) {
        pc_log(PC_LOG_WARN, "papcoll_bcast_by_name: unknown algorithm \"%s\"", algorithm ? algorithm : "(null)");
        int rc = pc_check_comm(comm);
        return pc_error(rc == MPI_SUCCESS ? comm : MPI_COMM_WORLD, MPI_ERR_ARG);
    }
    return bcast(algorithm, "papcoll_bcast_by_name", buf, count, datatype, root, comm);
}
