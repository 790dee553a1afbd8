/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_barrier - every barrier algorithm and auto keep MPI_Barrier's promise:
 * nobody leaves before everyone has entered.
 *
 * The witness does not depend on time: a shared-memory file (/dev/shm, all
 * processes of the job on this machine; under SMPI every rank maps it too)
 * holds one word per world rank.  Before barrier i of shape s a process
 * stores (s << 32 | i) in its word; after the barrier it loads the words of
 * every member of the communicator and each must be at least that (a member
 * may already be past: words only grow, the shapes run in the same order
 * everywhere).  A barrier that lets a process out early is caught whenever
 * some member has not yet stored its word, which the delays make likely:
 * in each round one member (seeded choice) sleeps 2 ms before entering, the
 * others up to 200 us.
 *
 * Shapes: world, reversed, oddeven (two communicators), shuffled (seeded
 * permutation), each with virtual nodes of 1, 2 and 3 world ranks and the
 * real node (PAPCOLL_PPN 1, 2, 3, 0): at 5 processes nodes of 2+2+1 and
 * 3+2, members not consecutive in the reversed and shuffled orders.  On each:
 * every algorithm and auto for --rounds delayed rounds (checking
 * papcoll_last_algorithm), then --back-to-back barriers without delay
 * alternating the algorithms, each checked.  Also: an unknown name returns
 * MPI_ERR_ARG, and PMPI-level MPI_Barrier is left alone.
 * Prints "test_barrier: np=P shapes=S algorithms=A calls=C: OK".
 */
#include <papcoll.h>

#include "check.h"
#include "harness/watchdog.h"

#include <fcntl.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static int world_rank, world_size;
static _Atomic uint64_t *words; /* [world_size], shared by every process of the job */
static unsigned long seed = 20261128;
static long calls;

static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

static void map_words(void)
{
    char name[64] = "";
    size_t len = (size_t)world_size * sizeof *words;
    int fd = -1;
    if (world_rank == 0) {
        /* a name no other run holds: under SMPI getpid() is the simulated
         * rank's (smpi_getpid), the same in every simulation, and ctest runs
         * two at once */
        for (unsigned k = 0; fd < 0 && k < 1000; k++) {
            snprintf(name, sizeof name, "/papcoll_test_barrier.%ld.%u", (long)getpid(), k);
            fd = shm_open(name, O_CREAT | O_EXCL | O_RDWR, 0600);
        }
        if (fd < 0 || ftruncate(fd, (off_t)len) != 0) {
            perror("test_barrier: shm_open");
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    }
    MPI_Bcast(name, sizeof name, MPI_CHAR, 0, MPI_COMM_WORLD); /* the file exists */
    if (world_rank != 0) fd = shm_open(name, O_RDWR, 0600);
    void *p = fd < 0 ? MAP_FAILED : mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) {
        perror("test_barrier: mmap");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    close(fd);
    words = p;
    MPI_Barrier(MPI_COMM_WORLD); /* everyone mapped it */
    if (world_rank == 0) shm_unlink(name);
}

typedef struct {
    char name[48];
    MPI_Comm comm;
    int rank, size;
    int *world_of; /* [size] world rank of each member */
} shape_t;

static void shape_make(shape_t *s, const char *kind, int ppn)
{
    char v[16];
    snprintf(v, sizeof v, "%d", ppn);
    papcoll_set_param("PAPCOLL_PPN", v); /* applies to the context built below */
    if (!strcmp(kind, "world")) MPI_Comm_dup(MPI_COMM_WORLD, &s->comm);
    else if (!strcmp(kind, "reversed")) MPI_Comm_split(MPI_COMM_WORLD, 0, world_size - world_rank, &s->comm);
    else if (!strcmp(kind, "oddeven")) MPI_Comm_split(MPI_COMM_WORLD, world_rank % 2, world_rank, &s->comm);
    else MPI_Comm_split(MPI_COMM_WORLD, 0, (int)(mix(seed ^ (uint64_t)world_rank) >> 33), &s->comm);
    MPI_Comm_set_errhandler(s->comm, MPI_ERRORS_RETURN);
    int rc = papcoll_barrier_by_name("native", s->comm); /* builds the context while PAPCOLL_PPN is set */
    CHECK(rc == MPI_SUCCESS, "%s ppn=%d: first barrier: %d", kind, ppn, rc);
    papcoll_set_param("PAPCOLL_PPN", "0");
    snprintf(s->name, sizeof s->name, "%s/ppn%d", kind, ppn);
    MPI_Comm_rank(s->comm, &s->rank);
    MPI_Comm_size(s->comm, &s->size);
    s->world_of = malloc((size_t)s->size * sizeof *s->world_of);
    MPI_Allgather(&world_rank, 1, MPI_INT, s->world_of, 1, MPI_INT, s->comm);
}

static void shape_free(shape_t *s)
{
    MPI_Comm_free(&s->comm);
    free(s->world_of);
}

/* One checked barrier: the i-th of shape number sid. */
static void witnessed(const shape_t *s, int sid, long i, const char *algo, int delay_us)
{
    uint64_t stamp = (uint64_t)sid << 32 | (uint64_t)i;
    if (delay_us > 0) usleep((useconds_t)delay_us);
    atomic_store_explicit(&words[world_rank], stamp, memory_order_release);
    harness_watchdog_label("barrier %s on %s, call %ld", algo, s->name, i);
    harness_watchdog_arm();
    int rc = papcoll_barrier_by_name(algo, s->comm);
    harness_watchdog_call_done();
    calls++;
    CHECK(rc == MPI_SUCCESS, "%s %s call %ld: rc %d", s->name, algo, i, rc);
    if (strcmp(algo, "auto"))
        CHECK(!strcmp(papcoll_last_algorithm(), algo), "%s call %ld: ran %s, not %s", s->name, i,
              papcoll_last_algorithm(), algo);
    for (int m = 0; m < s->size; m++) {
        uint64_t w = atomic_load_explicit(&words[s->world_of[m]], memory_order_acquire);
        CHECK(w >= stamp, "%s %s call %ld: rank %d (world %d) left before rank %d (world %d) entered (%llx < %llx)",
              s->name, algo, i, s->rank, world_rank, m, s->world_of[m], (unsigned long long)w,
              (unsigned long long)stamp);
    }
}

int main(int argc, char **argv)
{
    int rounds = 8, back_to_back = 1000;
    for (int i = 1; i < argc; i++) {
        if (!strncmp(argv[i], "--rounds=", 9)) rounds = atoi(argv[i] + 9);
        else if (!strncmp(argv[i], "--back-to-back=", 15)) back_to_back = atoi(argv[i] + 15);
        else if (!strncmp(argv[i], "--seed=", 7)) seed = strtoul(argv[i] + 7, NULL, 10);
        else {
            fprintf(stderr, "usage: test_barrier [--rounds=N] [--back-to-back=N] [--seed=S]\n");
            return 2;
        }
    }
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &world_size);
    harness_watchdog_init(60, 0, world_rank);
    map_words();

    int nalgo = papcoll_algorithm_count("barrier");
    CHECK(nalgo >= 5, "barrier algorithms: %d", nalgo);
    const char **algos = malloc((size_t)(nalgo + 1) * sizeof *algos);
    for (int a = 0; a < nalgo; a++) algos[a] = papcoll_algorithm_name("barrier", a);
    algos[nalgo] = "auto";

    static const char *const kinds[] = {"world", "reversed", "oddeven", "shuffled"};
    static const int ppns[] = {1, 2, 3, 0};
    int sid = 0;
    for (int pi = 0; pi < 4; pi++)
        for (int k = 0; k < 4; k++) {
            shape_t s;
            shape_make(&s, kinds[k], ppns[pi]);
            sid++;
            long i = 0;
            for (int a = 0; a <= nalgo; a++)
                for (int r = 0; r < rounds; r++, i++) {
                    uint64_t h = mix(seed ^ mix((uint64_t)sid << 40 ^ (uint64_t)i));
                    int late = (int)(h % (uint64_t)s.size);
                    int delay = s.rank == late ? 2000 : (int)(mix(h ^ (uint64_t)world_rank) % 200);
                    witnessed(&s, sid, i, algos[a], delay);
                }
            /* back to back on the shapes with several nodes and members out of order */
            if (ppns[pi] == 2 || (ppns[pi] == 3 && k == 3) || (ppns[pi] == 1 && k == 1))
                for (int b = 0; b < back_to_back; b++, i++) witnessed(&s, sid, i, algos[b % (nalgo + 1)], 0);
            if (sid == 1) { /* an unknown name: MPI_ERR_ARG through the communicator's handler */
                int rc = papcoll_barrier_by_name("no_such_barrier", s.comm);
                CHECK(rc == MPI_ERR_ARG, "unknown barrier name: rc %d", rc);
            }
            shape_free(&s);
        }
    harness_watchdog_off();

    int bad = failures, all = 0;
    MPI_Allreduce(&bad, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (world_rank == 0) {
        if (all) printf("test_barrier: np=%d: %d FAILURES\n", world_size, all);
        else printf("test_barrier: np=%d shapes=%d algorithms=%d calls=%ld: OK\n", world_size, sid, nalgo + 1, calls);
    }
    munmap((void *)words, (size_t)world_size * sizeof *words);
    free(algos);
    MPI_Finalize();
    return all ? 1 : 0;
}
