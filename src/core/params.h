/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * params.h - papcoll's run-time parameters: one table, read once.
 *
 * Every tunable lives in the table of params.c as {environment name, type,
 * default, help}.  The table is the single source: it fills pc_params_t,
 * it is printed by `papcoll-bench --list-params`, and a test checks that
 * docs/params.md matches it.  Algorithms receive a `const pc_params_t *`
 * and never call getenv.  This file has no MPI dependency.
 */
#ifndef PC_PARAMS_H
#define PC_PARAMS_H

#include <stdatomic.h>
#include <stddef.h>

typedef enum { PC_LOG_OFF = 0, PC_LOG_WARN, PC_LOG_INFO, PC_LOG_DEBUG } pc_log_level_t;
/* PAPCOLL_NODE_PROTOCOL, decoded once (ctx/shm.h, Morimoto et al. 1999): how node readers
 * get a message - auto (by size and who posts first), only the ring, the
 * writer's single copy into posted readers, or posted readers' own pulls. */
typedef enum { PC_NODE_PROTOCOL_AUTO = 0, PC_NODE_PROTOCOL_RING, PC_NODE_PROTOCOL_WRITE, PC_NODE_PROTOCOL_READ } pc_node_protocol_t;

/* Parameters of one collective: PAPCOLL_<COLL>_... */
typedef struct pc_bcast_params {
    char *algorithm;          /* PAPCOLL_BCAST: algorithm name or "auto" */
    size_t segsize;           /* PAPCOLL_BCAST_SEGSIZE: bytes, 0 = alpha-beta model */
    long chunks;              /* PAPCOLL_BCAST_CHUNKS: segments per message, 0 = unset */
    char *inter;              /* PAPCOLL_BCAST_INTER: algorithm among node leaders (hier, hier_nobarrier) */
    size_t cp_segsize;        /* PAPCOLL_BCAST_CP_SEGSIZE: inter-node segment of the CP and multisender broadcasts */
    size_t cp_noseg_max;      /* PAPCOLL_BCAST_CP_NOSEG_MAX: CP messages up to this size are not segmented */
    char *leader;             /* PAPCOLL_BCAST_LEADER: first (competitive, default) | fixed (lowest rank) */
    size_t leader_guess_max;  /* PAPCOLL_BCAST_LEADER_GUESS_MAX: largest message sent to a guessed leader */
    long arrival_push_max;    /* PAPCOLL_BCAST_ARRIVAL_PUSH_MAX: arrival_nb pushes in flight */
    size_t arrival_push_bytes; /* PAPCOLL_BCAST_ARRIVAL_PUSH_BYTES: largest message arrival_nb pushes */
    long arrival_sag_min;     /* PAPCOLL_BCAST_ARRIVAL_SAG_MIN: group size served by scatter-allgather, 0 = never */
    size_t arrival_sag_bytes; /* PAPCOLL_BCAST_ARRIVAL_SAG_BYTES: smallest message served so */
    double arrival_window;    /* PAPCOLL_BCAST_ARRIVAL_WINDOW: batching window, fraction of T */
    long knomial_radix;       /* PAPCOLL_BCAST_KNOMIAL_RADIX: radix of knomial and cp_knomial */
    char *copyout;            /* PAPCOLL_BCAST_COPYOUT: memcpy|bcast|numa, node copy-out of the hier broadcasts */
} pc_bcast_params_t;

typedef struct pc_reduce_params {
    char *algorithm;          /* PAPCOLL_REDUCE */
    char *inter;              /* PAPCOLL_REDUCE_INTER: reduce among node leaders (hier, hier_nobarrier) */
    size_t segsize;           /* PAPCOLL_REDUCE_SEGSIZE: segment of the pipelined tree reductions */
    char *lock;               /* PAPCOLL_REDUCE_LOCK: hier_nobarrier's shared-memory locking */
    char *leader;             /* PAPCOLL_REDUCE_LEADER: last (dynamic, default) | fixed */
    long clairvoyant_period;  /* PAPCOLL_REDUCE_CLAIRVOYANT_PERIOD: calls between observations */
    long clairvoyant_late;    /* PAPCOLL_REDUCE_CLAIRVOYANT_LATE: most ranks predicted late */
    long knomial_radix;       /* PAPCOLL_REDUCE_KNOMIAL_RADIX: radix of two_level's tree of nodes */
    long part_owners;         /* PAPCOLL_REDUCE_PART_OWNERS: nodes that own a part in two_level_scatter_gather, 0 = all */
} pc_reduce_params_t;

typedef struct pc_allreduce_params {
    char *algorithm;          /* PAPCOLL_ALLREDUCE */
    char *inter;              /* PAPCOLL_ALLREDUCE_INTER: allreduce among node leaders (hier) */
    size_t unit;              /* PAPCOLL_ALLREDUCE_UNIT: straggler_nodeblock's largest inter-node message, bytes */
} pc_allreduce_params_t;

typedef struct pc_block_params {
    char *algorithm;          /* PAPCOLL_<COLL> (alltoall, gather, scatter, reduce_scatter) */
    char *inter;              /* PAPCOLL_<COLL>_INTER: the collective among node leaders (hier) */
} pc_block_params_t;

typedef struct pc_allgather_params {
    char *algorithm;          /* PAPCOLL_ALLGATHER */
    char *inter;              /* PAPCOLL_ALLGATHER_INTER: allgather among node leaders (hier) */
    long senders;             /* PAPCOLL_ALLGATHER_SENDERS: multisender_bruck's senders per node, 0 = all */
    char *copyout;            /* PAPCOLL_ALLGATHER_COPYOUT: memcpy|bcast|numa, hier's node copy-out */
} pc_allgather_params_t;

typedef struct pc_barrier_params {
    char *algorithm;          /* PAPCOLL_BARRIER */
    long radix;               /* PAPCOLL_BARRIER_RADIX: k of the k-ary dissemination (dissemination, hier) */
} pc_barrier_params_t;

/* The nonblocking collectives (src/nbc/). */
typedef struct pc_nbc_params {
    char *ibarrier;           /* PAPCOLL_IBARRIER */
    char *ibcast;             /* PAPCOLL_IBCAST */
    char *ireduce;            /* PAPCOLL_IREDUCE */
    char *iallreduce;         /* PAPCOLL_IALLREDUCE */
    size_t iallreduce_large;  /* PAPCOLL_IALLREDUCE_LARGE: auto takes rabenseifner from this many bytes */
    long progress_thread;     /* PAPCOLL_NBC_PROGRESS_THREAD: 1 = a thread advances the schedules */
    char *iallgather;         /* PAPCOLL_IALLGATHER (iallgather and iallgatherv) */
    size_t iallgather_large;  /* PAPCOLL_IALLGATHER_LARGE: auto takes ring from this many bytes (all blocks) */
    char *ialltoall;          /* PAPCOLL_IALLTOALL (ialltoall and ialltoallv) */
    size_t ialltoall_large;   /* PAPCOLL_IALLTOALL_LARGE: auto takes pairwise from this block size (ialltoall) */
    char *igather;            /* PAPCOLL_IGATHER (igather and igatherv) */
    size_t igather_large;     /* PAPCOLL_IGATHER_LARGE: auto takes linear from this block size */
    char *iscatter;           /* PAPCOLL_ISCATTER (iscatter and iscatterv) */
    size_t iscatter_large;    /* PAPCOLL_ISCATTER_LARGE: auto takes linear from this block size */
    char *ireduce_scatter;    /* PAPCOLL_IREDUCE_SCATTER (ireduce_scatter and ireduce_scatter_block) */
    char *iscan;              /* PAPCOLL_ISCAN (iscan and iexscan) */
} pc_nbc_params_t;

typedef struct pc_scan_params {
    char *algorithm;          /* PAPCOLL_SCAN (scan and exscan) */
    size_t segment;           /* PAPCOLL_SCAN_SEGMENT: linear's segment */
    char *inter;              /* PAPCOLL_SCAN_INTER: exscan among node leaders (hier) */
} pc_scan_params_t;

typedef struct pc_params {
    char *tune;             /* PAPCOLL_TUNE: selection rules (tune grammar) */
    long adapt;             /* PAPCOLL_ADAPT: 1 (default) = measure a rule's candidates online and keep the best (adapt.h) */
    char *adapt_start;      /* PAPCOLL_ADAPT_START: "N[,COLL=N]...": calls of a call site at PAPCOLL_ADAPT_FIRST's choice
                               before measuring, per collective (pc_parse_count_list) */
    char *adapt_first;      /* PAPCOLL_ADAPT_FIRST: "native" or "rule": what a site runs before PAPCOLL_ADAPT_START calls */
    long adapt_probe;       /* PAPCOLL_ADAPT_PROBE: 1 = a group's first calls compare its static choice with native (adapt_probe.c) */
    double adapt_probe_ratio; /* PAPCOLL_ADAPT_PROBE_RATIO: how many times faster than native the static choice must be */
    long adapt_period;      /* PAPCOLL_ADAPT_PERIOD: calls of a group between agreements */
    long adapt_period_max;  /* PAPCOLL_ADAPT_PERIOD_MAX: the longest period once a group has settled */
    double adapt_margin;    /* PAPCOLL_ADAPT_MARGIN: how much faster another candidate must be than the rule's first */
    long adapt_explore;     /* PAPCOLL_ADAPT_EXPLORE: measured calls per candidate before deciding */
    long adapt_reexplore;   /* PAPCOLL_ADAPT_REEXPLORE: calls after a decision before exploring again, 0 = never */
    double adapt_spread_factor; /* PAPCOLL_ADAPT_SPREAD_FACTOR: arrival-spread change that re-explores */
    long adapt_sites;       /* PAPCOLL_ADAPT_SITES: 1 = key decisions by call site too */
    char *adapt_cost;       /* PAPCOLL_ADAPT_COST: "call" (time in the call) or "iteration" (exit to exit) */
    char *phase_report;     /* PAPCOLL_PHASE_REPORT: "" off, 1 = stderr, else a file appended to at finalize */
    char *adapt_report;     /* PAPCOLL_ADAPT_REPORT: "" off, 1 = stderr, else a file appended to at finalize */
    char *tune_file;        /* PAPCOLL_TUNE_FILE: file of selection rules */
    size_t segsize_min;     /* PAPCOLL_SEGSIZE_MIN */
    size_t segsize_max;     /* PAPCOLL_SEGSIZE_MAX */
    double alpha;           /* PAPCOLL_ALPHA: seconds per message */
    double beta;            /* PAPCOLL_BETA: seconds per byte */
    long max_inflight;      /* PAPCOLL_MAX_INFLIGHT: nonblocking segments per peer */
    long ppn;               /* PAPCOLL_PPN: virtual node size, 0 = real node */
    long tag_window;        /* PAPCOLL_TAG_WINDOW: calls before a windowed tag repeats, 0 = from MPI_TAG_UB */
    long large_count_limit; /* PAPCOLL_LARGE_COUNT_LIMIT: counts above it take the _c functions' beyond-int paths */
    size_t shm_size;        /* PAPCOLL_SHM_SIZE: data ring bytes per communicator and node */
    size_t shm_cell;        /* PAPCOLL_SHM_CELL: bytes per ring cell (piece) */
    long shm_poison;        /* PAPCOLL_SHM_POISON: fill node data areas with a pattern when created (tests) */
    char *shm_backend;      /* PAPCOLL_SHM_BACKEND: posix|mpi, where node shared memory comes from */
    size_t sim_membw;       /* PAPCOLL_SIM_MEMBW: bytes/s charged for shared-memory copies under SMPI */
    char *node_protocol;    /* PAPCOLL_NODE_PROTOCOL: auto|ring|write|read, the node copy-out (Morimoto et al. 1999) */
    pc_node_protocol_t node_protocol_kind; /* derived from node_protocol */
    size_t node_write_min;  /* PAPCOLL_NODE_WRITE_MIN: auto: smallest message a posted reader gets written directly */
    long numa_domains;      /* PAPCOLL_NUMA_DOMAINS: numa copy-out, k virtual domains per node, 0 = real topology */
    long reproducible;      /* PAPCOLL_REPRODUCIBLE: 1 = reductions combine in a fixed order */
    char *fallback;         /* PAPCOLL_FALLBACK: warn|silent|error, a parameter's algorithm that cannot run a call */
    char *log;              /* PAPCOLL_LOG: off|warn|info|debug */
    pc_log_level_t log_level; /* derived from log */
    pc_bcast_params_t bcast;
    pc_reduce_params_t reduce;
    pc_allreduce_params_t allreduce;
    pc_allgather_params_t allgather;
    pc_block_params_t alltoall, gather, scatter, reduce_scatter;
    pc_barrier_params_t barrier;
    pc_scan_params_t scan;
    pc_nbc_params_t nbc;
    size_t exchange_area;   /* PAPCOLL_EXCHANGE_AREA: largest exchange area of aware (two banks) */
    size_t alltoall_min_fragment; /* PAPCOLL_ALLTOALL_MIN_FRAGMENT: smallest partial fragment of aware */
    long reduce_scatter_senders;  /* PAPCOLL_REDUCE_SCATTER_SENDERS: multisender's senders per node, 0 = all but one */
    size_t scatter_guess_max;     /* PAPCOLL_SCATTER_GUESS_MAX: scatter dynleader sends a node's blocks to its lowest rank at once */
} pc_params_t;

typedef enum { PC_PARAM_SIZE, PC_PARAM_LONG, PC_PARAM_DOUBLE, PC_PARAM_STRING } pc_param_type_t;

typedef struct pc_param_def {
    const char *name;          /* environment variable */
    const char *alias;         /* its former name, still read (NULL: none) */
    pc_param_type_t type;
    const char *default_value; /* as it would be written in the environment */
    size_t offset;             /* field in pc_params_t */
    const char *choices;       /* '|'-separated allowed values (strings), or NULL */
    const char *help;
} pc_param_def_t;

extern const pc_param_def_t pc_param_table[];
extern const int pc_param_table_size;

/* Process-wide parameters, read from the environment on first use: a
 * load and a test once read (every call reads several). */
extern const pc_params_t *_Atomic pc_params_loaded; /* NULL until read */
const pc_params_t *pc_params_load(void);
static inline const pc_params_t *pc_params(void)
{
    const pc_params_t *p = atomic_load_explicit(&pc_params_loaded, memory_order_acquire);
    return p ? p : pc_params_load();
}
/* Set one parameter from text; 0 on success, -1 on unknown name/bad value. */
int pc_params_set(const char *name, const char *value);
/* Counts the successful pc_params_set() calls: what was derived from the
 * parameters (coll/choice_cache.h) is stale once it changes. */
unsigned long pc_params_generation(void);
/* Format the current value of a parameter; 0 on success, -1 if unknown. */
int pc_params_format(const char *name, char *buf, size_t buflen);
/* Defaults only, without the environment (for documentation and tests). */
void pc_params_load_defaults(pc_params_t *p);
const char *pc_param_type_name(pc_param_type_t t);

/* "64K" -> 65536; accepts K, M, G (powers of 1024), optional trailing 'B'
 * or "iB".  Returns 0 on success, -1 on malformed input. */
int pc_parse_size(const char *text, size_t *out);
/* A count per name: "N[,NAME=N]..." (e.g. PAPCOLL_ADAPT_START's "1000,reduce=100").
 * Writes into *out the count of `name` (the first NAME=N that names it, else the
 * leading N); name NULL only checks the syntax.  Returns 0, or -1 on malformed
 * text (a NAME is lower-case letters and '_'; counts are decimal, >= 0). */
int pc_parse_count_list(const char *text, const char *name, unsigned long *out);
/* Writes a size as "64K"/"1M"/"1234" (exact), for printing. */
void pc_format_size(size_t v, char *buf, size_t buflen);

#endif
