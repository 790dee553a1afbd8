/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fft3d.c - a 3-D FFT in the style of NAS FT, the all-to-all application
 * benchmark of Parsons 2015 (§3.9.4, Table 3.11: "Alltoall was tested with
 * the FT benchmark from the NAS Parallel Benchmark suite"; A-128, B-256,
 * C-512, the largest process counts at which FT's 1-D layout still moves its
 * data with a true alltoall).
 *
 * What NAS FT computes (NPB 3 FT, D. Bailey, W. Saphir), done the same way
 * here so that its published checksums verify the result:
 *   u(x, 0)   an N1 x N2 x N3 complex array of pseudo-random numbers (NAS's
 *             46-bit linear congruential generator, a = 5^13, seed
 *             314159265, two numbers per point in x-fastest order);
 *   U = FFT(u(x, 0)), then for t = 1..iters
 *     U <- U * exp(-4 alpha pi^2 (ibar^2 + jbar^2 + kbar^2))   (evolve; alpha 1e-6,
 *             ibar the signed frequency of index i: i for i < N1/2, else i - N1)
 *     u = IFFT(U) (unnormalised), checksum(t) = sum_{j=1}^{1024} u(j mod N1,
 *             3j mod N2, 5j mod N3) / (N1 N2 N3).
 *
 * Distribution (FT's 1-D layout): rank r holds the z-planes
 * [r N3/p, (r+1) N3/p) of the physical array, x fastest (A[kl][j][i]).  A 3-D
 * FFT is 1-D FFTs along x and y inside each slab, a global transpose by one
 * MPI_Alltoall (each rank sends every other rank the block of its planes that
 * falls in that rank's y range: N3/p x N2/p x N1 complex numbers, 16 bytes
 * each), after which rank r holds the y-range [r N2/p, (r+1) N2/p) for every
 * z (B[jl][k][i]), and 1-D FFTs along z.  The spectrum stays in that layout
 * (evolve works there); the inverse is z-FFTs, the transpose back (a second
 * MPI_Alltoall of the same size) and y- and x-FFTs.  So the forward FFT
 * before the loop and each iteration move one alltoall; the checksum is an
 * MPI_Reduce of one complex number (not timed separately).  N2 and N3 must
 * be multiples of p (equal alltoall blocks) and every N a power of two (the
 * FFT is radix 2).
 *
 *   rank 0: planes 0..N3/p-1        rank 1: planes N3/p..
 *   [x,y FFTs] --- MPI_Alltoall (block N3/p x N2/p x N1) --->  [z FFTs]
 *
 * FFT: a small iterative radix-2 Cooley-Tukey transform (bit reversal, then
 * log2 N butterfly passes) with twiddles exp(-2 pi i k / N) computed by
 * cos/sin for each k, so no dependency; lines along y and z are copied to a
 * contiguous scratch line and back.
 *
 * --check (untimed, rank 0): a serial run of the same computation on the
 * whole grid (same 1-D routine, same order of the dimensions), every
 * iteration's checksum compared with relative tolerance 1e-12 (NAS's); and,
 * when the grid and seed are those of a NAS class (S 64^3, W 128x128x32,
 * A 256x256x128, B 512x256x256, C 512^3, seed 314159265), every checksum
 * against NAS's published reference values, also at 1e-12 (NPB's verify()),
 * which checks the FFT itself, not only its distribution.  The serial run
 * needs 40 bytes per grid point on rank 0 (class A: 320 MiB).
 *
 * Computation model (app_compute.h), per rank: 5 N log2 N flops per FFT line
 * of N values (the usual count of a radix-2 FFT), 1 flop per complex number
 * packed or unpacked around an alltoall (a 16-byte copy), 3 per point of
 * evolve (a complex times a real, and the copy).
 *
 * Natively the program calls plain MPI_Alltoall (papcoll through
 * LD_PRELOAD=libpapcoll_mpi.so); the SMPI flavour (fft3d-smpi) runs the same MPI_Alltoall
 * with papcoll linked in (PAPCOLL_ALLTOALL chooses), see app_common.h.
 */
#include "app_common.h"

#include <complex.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define APP "fft3d"
#define CHECK_TOLERANCE 1e-12 /* NPB FT verify()'s epsilon */
#define CHECKSUM_POINTS 1024
#define NAS_SEED 314159265ULL
#define NAS_MULTIPLIER 1220703125ULL /* 5^13 */
#define NAS_ALPHA 1e-6
#define PI 3.141592653589793238

typedef double complex cplx;

/* ---- NAS's random numbers: x <- a x mod 2^46, value x / 2^46 ------------- */

#define MASK23 ((UINT64_C(1) << 23) - 1)
#define MASK46 ((UINT64_C(1) << 46) - 1)

/* U V mod 2^46 for U, V < 2^46, exactly in 64-bit arithmetic (halves of 23 bits). */
static uint64_t mulmod46(uint64_t u, uint64_t v)
{
    uint64_t u1 = u >> 23, u0 = u & MASK23, v1 = v >> 23, v0 = v & MASK23;
    uint64_t cross = (u1 * v0 + u0 * v1) & MASK23;
    return ((cross << 23) + u0 * v0) & MASK46;
}

/* A^E mod 2^46 (NPB's ipow46). */
static uint64_t powmod46(uint64_t a, uint64_t e)
{
    uint64_t r = 1;
    for (; e; e >>= 1, a = mulmod46(a, a))
        if (e & 1) r = mulmod46(r, a);
    return r;
}

/* Fills OUT with COUNT complex numbers, the stream's values 2 FIRST + 1, 2 FIRST + 2, ...
 * (NPB's vranlc after jumping FIRST complex numbers ahead of SEED). */
static void nas_random(uint64_t seed, uint64_t first, size_t count, cplx *out)
{
    const double scale = 1.0 / (double)(UINT64_C(1) << 46);
    uint64_t x = mulmod46(seed & MASK46, powmod46(NAS_MULTIPLIER, 2 * first));
    for (size_t m = 0; m < count; m++) {
        x = mulmod46(x, NAS_MULTIPLIER);
        double re = (double)x * scale;
        x = mulmod46(x, NAS_MULTIPLIER);
        out[m] = re + I * ((double)x * scale);
    }
}

/* ---- Radix-2 FFT ------------------------------------------------------- */

typedef struct {
    long n;
    cplx *w;  /* exp(-2 pi i k / n), k < n/2 */
    long *rev; /* bit reversal of 0..n-1 */
} fft_plan_t;

static int is_power_of_two(long n) { return n > 0 && (n & (n - 1)) == 0; }

static void plan_init(fft_plan_t *plan, long n)
{
    plan->n = n;
    plan->w = malloc((size_t)(n / 2 > 0 ? n / 2 : 1) * sizeof(cplx));
    plan->rev = malloc((size_t)n * sizeof(long));
    if (!plan->w || !plan->rev) app_fail(APP, "out of memory (FFT plan)");
    for (long k = 0; k < n / 2; k++) {
        double angle = 2.0 * PI * (double)k / (double)n;
        plan->w[k] = cos(angle) - I * sin(angle);
    }
    int bits = 0;
    while ((1L << bits) < n) bits++;
    for (long i = 0; i < n; i++) {
        long r = 0;
        for (int b = 0; b < bits; b++)
            if (i & (1L << b)) r |= 1L << (bits - 1 - b);
        plan->rev[i] = r;
    }
}

static void plan_free(fft_plan_t *plan)
{
    free(plan->w);
    free(plan->rev);
}

/* In-place unnormalised DFT of the N contiguous values X: sign -1 forward
 * (exp(-2 pi i jk / N)), +1 inverse. */
static void fft_line(const fft_plan_t *plan, cplx *x, int sign)
{
    long n = plan->n;
    for (long i = 0; i < n; i++) {
        long r = plan->rev[i];
        if (r > i) {
            cplx t = x[i];
            x[i] = x[r];
            x[r] = t;
        }
    }
    for (long len = 2; len <= n; len <<= 1) {
        long half = len / 2, step = n / len;
        for (long s = 0; s < n; s += len)
            for (long j = 0; j < half; j++) {
                cplx w = sign < 0 ? plan->w[j * step] : conj(plan->w[j * step]);
                cplx u = x[s + j], v = x[s + j + half] * w;
                x[s + j] = u + v;
                x[s + j + half] = u - v;
            }
    }
}

/* FFTs of LINES lines of PLAN->n values: line l starts at BASE + l_outer *
 * OUTER + l_inner (l_inner < INNER_COUNT, so lines = outer_count x
 * inner_count) and its values are STRIDE apart.  SCRATCH holds one line. */
static void fft_lines(const fft_plan_t *plan, cplx *base, long outer_count, long outer, long inner_count,
                      long stride, int sign, cplx *scratch)
{
    long n = plan->n;
    for (long o = 0; o < outer_count; o++)
        for (long l = 0; l < inner_count; l++) {
            cplx *line = base + o * outer + l;
            if (stride == 1) {
                fft_line(plan, line, sign);
                continue;
            }
            for (long m = 0; m < n; m++) scratch[m] = line[m * stride];
            fft_line(plan, scratch, sign);
            for (long m = 0; m < n; m++) line[m * stride] = scratch[m];
        }
}

/* The model flops of LINES FFT lines of PLAN (app_compute.h): 5 N log2 N each. */
static double fft_flops(const fft_plan_t *plan, long lines)
{
    return 5.0 * (double)plan->n * log2((double)plan->n) * (double)lines;
}

/* ---- The problem ------------------------------------------------------- */

typedef struct {
    long n1, n2, n3;          /* x (fastest), y, z */
    fft_plan_t px, py, pz;
} grid_t;

/* The signed frequency of index I of N (NAS: mod(i + n/2, n) - n/2). */
static long freq(long i, long n) { return (i + n / 2) % n - n / 2; }

/* exp(-4 alpha pi^2 (ibar^2 + jbar^2 + kbar^2)), NAS's compute_indexmap. */
static double evolve_factor(const grid_t *g, long i, long j, long k)
{
    long ii = freq(i, g->n1), jj = freq(j, g->n2), kk = freq(k, g->n3);
    return exp(-4.0 * NAS_ALPHA * PI * PI * (double)(ii * ii + jj * jj + kk * kk));
}

/* Point j of the checksum: (j mod n1, 3 j mod n2, 5 j mod n3). */
static void checksum_point(const grid_t *g, long j, long *x, long *y, long *z)
{
    *x = j % g->n1;
    *y = (3 * j) % g->n2;
    *z = (5 * j) % g->n3;
}

/* NAS FT's reference checksums (NPB 3 FT verify()), per class. */
typedef struct {
    char name;
    long n1, n2, n3;
    int iters;
    double re[20], im[20];
} nas_class_t;

static const nas_class_t nas_classes[] = {
    {'S', 64, 64, 64, 6,
     {554.6087004964, 554.6385409189, 554.6148406171, 554.5423607415, 554.4255039624, 554.2683411902},
     {484.5363331978, 486.5304269511, 488.3910722336, 490.1273169046, 491.7475857993, 493.2597244941}},
    {'W', 128, 128, 32, 6,
     {567.3612178944, 563.1436885271, 559.4024089970, 556.0698047020, 553.0898991250, 550.4159734538},
     {529.3246849175, 528.2149986629, 527.0996558037, 526.0027904925, 524.9400845633, 523.9212247086}},
    {'A', 256, 256, 128, 6,
     {504.6735008193, 505.9412319734, 506.9376896287, 507.7892868474, 508.5233095391, 509.1487099959},
     {511.4047905510, 509.8809666433, 509.8144042213, 510.1336130759, 510.4914655194, 510.7917842803}},
    {'B', 512, 256, 256, 20,
     {517.7643571579, 515.4521291263, 514.6409228649, 514.2378756213, 513.9626667737, 513.7423460082,
      513.5547056878, 513.3910925466, 513.2470705390, 513.1197729984, 513.0070319283, 512.9070537032,
      512.8182883502, 512.7393733383, 512.6691062020, 512.6064276004, 512.5504076570, 512.5002331720,
      512.4551951846, 512.4146770029},
     {507.7803458597, 508.8249431599, 509.6208912659, 510.1023387619, 510.3976610617, 510.5948019802,
      510.7404165783, 510.8576573661, 510.9577278523, 511.0460304483, 511.1252433800, 511.1968077718,
      511.2616233064, 511.3203605551, 511.3735928093, 511.4218460548, 511.4656139760, 511.5053595966,
      511.5415130407, 511.5744692211}},
    {'C', 512, 512, 512, 20,
     {519.5078707457, 515.5422171134, 514.4678022222, 514.0150594328, 513.7550426810, 513.5811056728,
      513.4569343165, 513.3651975661, 513.2955192805, 513.2410471738, 513.1971141679, 513.1605205716,
      513.1290734194, 513.1012720314, 513.0760908195, 513.0528295923, 513.0310107773, 513.0103090133,
      512.9905029333, 512.9714421109},
     {514.9019699238, 512.7578201997, 512.2251847514, 512.1090289018, 512.1143685824, 512.1496764568,
      512.1870921893, 512.2193250322, 512.2454735794, 512.2663649603, 512.2830879827, 512.2965869718,
      512.3075927445, 512.3166486553, 512.3241541685, 512.3304037599, 512.3356167976, 512.3399592211,
      512.3435588985, 512.3465164008}},
};

static const nas_class_t *nas_class_of(long n1, long n2, long n3)
{
    for (size_t c = 0; c < sizeof nas_classes / sizeof nas_classes[0]; c++)
        if (nas_classes[c].n1 == n1 && nas_classes[c].n2 == n2 && nas_classes[c].n3 == n3) return &nas_classes[c];
    return NULL;
}

static const nas_class_t *nas_class_named(char name)
{
    for (size_t c = 0; c < sizeof nas_classes / sizeof nas_classes[0]; c++)
        if (nas_classes[c].name == name) return &nas_classes[c];
    return NULL;
}

static int close_enough(cplx got, cplx want) { return cabs((got - want) / want) <= CHECK_TOLERANCE; }

/* ---- Grid options (--dims, --class), taken out of argv before app_start -- */

/* Removes --dims=N1xN2xN3 and --class=C from ARGV, filling DIMS (0 when
 * absent); returns 0, or -1 with a message in ERR. */
static int take_grid_options(int *argc, char **argv, long dims[3], char *err, size_t errlen)
{
    int out = 1;
    dims[0] = dims[1] = dims[2] = 0;
    for (int a = 1; a < *argc; a++) {
        const char *s = argv[a];
        if (!strncmp(s, "--dims=", 7)) {
            char tail;
            if (sscanf(s + 7, "%ldx%ldx%ld%c", &dims[0], &dims[1], &dims[2], &tail) != 3) {
                snprintf(err, errlen, "--dims needs N1xN2xN3, not '%s'", s + 7);
                return -1;
            }
        } else if (!strncmp(s, "--class=", 8)) {
            const nas_class_t *c = strlen(s + 8) == 1 ? nas_class_named(s[8]) : NULL;
            if (!c) {
                snprintf(err, errlen, "--class needs S, W, A, B or C, not '%s'", s + 8);
                return -1;
            }
            dims[0] = c->n1;
            dims[1] = c->n2;
            dims[2] = c->n3;
        } else {
            argv[out++] = argv[a];
        }
    }
    *argc = out;
    argv[out] = NULL;
    return 0;
}

/* ---- Distributed run --------------------------------------------------- */

typedef struct {
    const grid_t *g;
    int p, rank;
    long nzl, nyl;    /* planes and y-rows per rank */
    long block;       /* complex numbers per alltoall block: nzl nyl n1 */
    cplx *a;          /* physical slab A[kl][j][i] */
    cplx *b;          /* spectral slab B[jl][k][i] (u0 of NAS) */
    cplx *u1;         /* work copy of B */
    double *twiddle;  /* evolve factors in B's layout */
    cplx *send, *recv, *scratch;
    app_timer_t *timer;
} dist_t;

/* A -> send (for rank q: its y range of my planes), alltoall, recv -> DST in B's layout. */
static void transpose_forward(dist_t *d, cplx *dst)
{
    const grid_t *g = d->g;
    size_t row = (size_t)g->n1 * sizeof(cplx);
    for (int q = 0; q < d->p; q++)
        for (long kl = 0; kl < d->nzl; kl++)
            for (long jj = 0; jj < d->nyl; jj++)
                memcpy(d->send + q * d->block + (kl * d->nyl + jj) * g->n1, d->a + (kl * g->n2 + q * d->nyl + jj) * g->n1,
                       row);
    app_work((double)(d->block * d->p));
    APP_CHECK(app_alltoall(d->send, (int)(2 * d->block), MPI_DOUBLE, d->recv, (int)(2 * d->block), MPI_DOUBLE,
                           MPI_COMM_WORLD, d->timer));
    for (int s = 0; s < d->p; s++)
        for (long kl = 0; kl < d->nzl; kl++)
            for (long jj = 0; jj < d->nyl; jj++)
                memcpy(dst + (jj * g->n3 + s * d->nzl + kl) * g->n1, d->recv + s * d->block + (kl * d->nyl + jj) * g->n1,
                       row);
    app_work((double)(d->block * d->p));
}

/* SRC in B's layout -> send (for rank q: my y range of its planes), alltoall, recv -> A. */
static void transpose_back(dist_t *d, const cplx *src)
{
    const grid_t *g = d->g;
    size_t row = (size_t)g->n1 * sizeof(cplx);
    for (int q = 0; q < d->p; q++)
        for (long kl = 0; kl < d->nzl; kl++)
            for (long jj = 0; jj < d->nyl; jj++)
                memcpy(d->send + q * d->block + (kl * d->nyl + jj) * g->n1, src + (jj * g->n3 + q * d->nzl + kl) * g->n1,
                       row);
    app_work((double)(d->block * d->p));
    APP_CHECK(app_alltoall(d->send, (int)(2 * d->block), MPI_DOUBLE, d->recv, (int)(2 * d->block), MPI_DOUBLE,
                           MPI_COMM_WORLD, d->timer));
    for (int s = 0; s < d->p; s++)
        for (long kl = 0; kl < d->nzl; kl++)
            for (long jj = 0; jj < d->nyl; jj++)
                memcpy(d->a + (kl * g->n2 + s * d->nyl + jj) * g->n1, d->recv + s * d->block + (kl * d->nyl + jj) * g->n1,
                       row);
    app_work((double)(d->block * d->p));
}

/* The 1024 checksum points that lie in my planes, summed over ranks at rank 0 (divided by N). */
static cplx dist_checksum(const dist_t *d)
{
    const grid_t *g = d->g;
    long k0 = d->rank * d->nzl;
    cplx mine = 0, all = 0;
    for (long j = 1; j <= CHECKSUM_POINTS; j++) {
        long x, y, z;
        checksum_point(g, j, &x, &y, &z);
        if (z >= k0 && z < k0 + d->nzl) mine += d->a[((z - k0) * g->n2 + y) * g->n1 + x];
    }
    double part[2] = {creal(mine), cimag(mine)}, sum[2];
    app_settle();
    APP_CHECK(MPI_Reduce(part, sum, 2, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD));
    app_resume();
    if (d->rank == 0) all = (sum[0] + I * sum[1]) / (double)(g->n1 * g->n2 * g->n3);
    return all;
}

/* ---- Serial run (--check, rank 0) -------------------------------------- */

/* The same computation on the whole grid U[k][j][i], same dimension order. */
static int serial_check(const grid_t *g, uint64_t seed, long iters, const cplx *sums)
{
    size_t n = (size_t)(g->n1 * g->n2 * g->n3);
    cplx *u0 = malloc(n * sizeof(cplx)), *u1 = malloc(n * sizeof(cplx));
    long longest = g->n1 > g->n2 ? g->n1 : g->n2;
    cplx *scratch = malloc((size_t)(longest > g->n3 ? longest : g->n3) * sizeof(cplx));
    if (!u0 || !u1 || !scratch) app_fail(APP, "--check: out of memory on rank 0 for the serial run");
    long plane = g->n1 * g->n2;
    nas_random(seed, 0, n, u0);
    fft_lines(&g->px, u0, g->n3 * g->n2, g->n1, 1, 1, -1, scratch);
    fft_lines(&g->py, u0, g->n3, plane, g->n1, g->n1, -1, scratch);
    fft_lines(&g->pz, u0, 1, 0, plane, plane, -1, scratch);
    int ok = 1;
    for (long t = 0; t < iters; t++) {
        for (long k = 0; k < g->n3; k++)
            for (long j = 0; j < g->n2; j++)
                for (long i = 0; i < g->n1; i++) {
                    size_t at = (size_t)((k * g->n2 + j) * g->n1 + i);
                    u0[at] *= evolve_factor(g, i, j, k);
                    u1[at] = u0[at];
                }
        fft_lines(&g->pz, u1, 1, 0, plane, plane, +1, scratch);
        fft_lines(&g->py, u1, g->n3, plane, g->n1, g->n1, +1, scratch);
        fft_lines(&g->px, u1, g->n3 * g->n2, g->n1, 1, 1, +1, scratch);
        cplx chk = 0;
        for (long j = 1; j <= CHECKSUM_POINTS; j++) {
            long x, y, z;
            checksum_point(g, j, &x, &y, &z);
            chk += u1[(z * g->n2 + y) * g->n1 + x];
        }
        chk /= (double)n;
        if (!close_enough(sums[t], chk)) {
            fprintf(stderr, APP ": --check: iteration %ld: checksum %.12e%+.12ei, serial run gives %.12e%+.12ei\n", t + 1,
                    creal(sums[t]), cimag(sums[t]), creal(chk), cimag(chk));
            ok = 0;
        }
    }
    free(u0);
    free(u1);
    free(scratch);
    return ok;
}

/* Rank 0: the checksums against NAS's reference when the grid is a NAS class
 * with NAS's seed; 1 when they match or there is no reference. */
static int nas_check(const grid_t *g, uint64_t seed, long iters, const cplx *sums, const char **verdict)
{
    const nas_class_t *c = nas_class_of(g->n1, g->n2, g->n3);
    *verdict = "none";
    if (!c || seed != NAS_SEED) return 1;
    int ok = 1;
    for (long t = 0; t < iters && t < c->iters; t++) {
        cplx want = c->re[t] + I * c->im[t];
        if (!close_enough(sums[t], want)) {
            fprintf(stderr, APP ": --check: iteration %ld: checksum %.12e%+.12ei, NAS class %c reference %.10e%+.10ei\n",
                    t + 1, creal(sums[t]), cimag(sums[t]), c->name, creal(want), cimag(want));
            ok = 0;
        }
    }
    static char text[32];
    snprintf(text, sizeof text, "class_%c_%s", c->name, ok ? "ok" : "FAIL");
    *verdict = text;
    return ok;
}

int main(int argc, char **argv)
{
    int rank, p;
    long dims[3];
    char grid_err[160];
    int grid_bad = take_grid_options(&argc, argv, dims, grid_err, sizeof grid_err);
    app_options_t opt = {.n = 64, .seed = NAS_SEED, .iters = 6, .check = 0};
    int status = app_start(&argc, &argv, APP,
                           "NAS FT's 3-D FFT: a complex N1 x N2 x N3 array distributed in z-slabs, 1-D FFTs along\n"
                           "x and y, a global transpose by MPI_Alltoall, FFTs along z; each iteration evolves the\n"
                           "spectrum, transforms back (one more alltoall) and prints NAS's checksum (Parsons 2015\n"
                           "Table 3.11).  N1, N2, N3: powers of two, N2 and N3 multiples of the process count.\n"
                           "  --dims=N1xN2xN3  the grid (default: N x N x N from --n)\n"
                           "  --class=C        NAS FT class S (64^3), W (128x128x32), A (256x256x128),\n"
                           "                   B (512x256x256) or C (512^3): the grid only (--iters stays yours)\n"
                           "  The default seed is NAS's (314159265), with which --check also compares the\n"
                           "  checksums of a NAS class grid with NAS's published values; n= in the output\n"
                           "  is the number of grid points N1 N2 N3.",
                           &opt, &rank, &p);
    if (status >= 0) return status;
    if (grid_bad) {
        if (rank == 0) fprintf(stderr, APP ": %s\n", grid_err);
        MPI_Finalize();
        return 2;
    }
    grid_t g = {.n1 = dims[0] ? dims[0] : opt.n, .n2 = dims[0] ? dims[1] : opt.n, .n3 = dims[0] ? dims[2] : opt.n};
    const char *problem = NULL;
    if (!is_power_of_two(g.n1) || !is_power_of_two(g.n2) || !is_power_of_two(g.n3)) problem = "every dimension must be a power of two";
    else if (g.n2 % p || g.n3 % p) problem = "N2 and N3 must be multiples of the number of processes";
    else if ((opt.seed & MASK46) == 0) problem = "--seed must not be a multiple of 2^46";
    else if (2 * (g.n3 / p) * (g.n2 / p) * g.n1 > 2147483647L) problem = "an alltoall block exceeds an int count";
    if (problem) {
        if (rank == 0) fprintf(stderr, APP ": grid %ldx%ldx%ld on %d processes: %s\n", g.n1, g.n2, g.n3, p, problem);
        MPI_Finalize();
        return 2;
    }
    plan_init(&g.px, g.n1);
    plan_init(&g.py, g.n2);
    plan_init(&g.pz, g.n3);

    app_timer_t alltoall_time = {0.0, 0, NULL};
    dist_t d = {.g = &g, .p = p, .rank = rank, .nzl = g.n3 / p, .nyl = g.n2 / p, .timer = &alltoall_time};
    d.block = d.nzl * d.nyl * g.n1;
    size_t local = (size_t)(d.block * p);
    long longest = g.n1 > g.n2 ? g.n1 : g.n2;
    d.a = malloc(local * sizeof(cplx));
    d.b = malloc(local * sizeof(cplx));
    d.u1 = malloc(local * sizeof(cplx));
    d.twiddle = malloc(local * sizeof(double));
    d.send = malloc(local * sizeof(cplx));
    d.recv = malloc(local * sizeof(cplx));
    d.scratch = malloc((size_t)(longest > g.n3 ? longest : g.n3) * sizeof(cplx));
    cplx *sums = calloc((size_t)opt.iters, sizeof(cplx));
    if (!d.a || !d.b || !d.u1 || !d.twiddle || !d.send || !d.recv || !d.scratch || !sums) app_fail(APP, "out of memory");

    /* Initial conditions of my planes and the evolve factors of my y range (untimed, as NAS's setup). */
    long k0 = rank * d.nzl, j0 = rank * d.nyl, plane = g.n1 * g.n2;
    nas_random(opt.seed, (uint64_t)(k0 * plane), local, d.a);
    for (long jl = 0; jl < d.nyl; jl++)
        for (long k = 0; k < g.n3; k++)
            for (long i = 0; i < g.n1; i++) d.twiddle[(jl * g.n3 + k) * g.n1 + i] = evolve_factor(&g, i, j0 + jl, k);

    /* Model flops of the FFTs of my slab along x, y (my planes) and z (my y range). */
    double flops_x = fft_flops(&g.px, d.nzl * g.n2), flops_y = fft_flops(&g.py, d.nzl * g.n1);
    double flops_z = fft_flops(&g.pz, d.nyl * g.n1);
    APP_CHECK(MPI_Barrier(MPI_COMM_WORLD));
    app_resume();
    double t0 = MPI_Wtime();
    /* Forward: x and y in my planes, transpose, z in my y range. */
    fft_lines(&g.px, d.a, d.nzl * g.n2, g.n1, 1, 1, -1, d.scratch);
    fft_lines(&g.py, d.a, d.nzl, plane, g.n1, g.n1, -1, d.scratch);
    app_work(flops_x + flops_y);
    transpose_forward(&d, d.b);
    fft_lines(&g.pz, d.b, d.nyl, g.n3 * g.n1, g.n1, g.n1, -1, d.scratch);
    app_work(flops_z);
    for (long t = 0; t < opt.iters; t++) {
        for (size_t m = 0; m < local; m++) {
            d.b[m] *= d.twiddle[m];
            d.u1[m] = d.b[m];
        }
        app_work(3.0 * (double)local);
        fft_lines(&g.pz, d.u1, d.nyl, g.n3 * g.n1, g.n1, g.n1, +1, d.scratch);
        app_work(flops_z);
        transpose_back(&d, d.u1);
        fft_lines(&g.py, d.a, d.nzl, plane, g.n1, g.n1, +1, d.scratch);
        fft_lines(&g.px, d.a, d.nzl * g.n2, g.n1, 1, 1, +1, d.scratch);
        app_work(flops_x + flops_y);
        sums[t] = dist_checksum(&d);
    }
    app_settle();
    double seconds = MPI_Wtime() - t0;

    if (rank == 0) {
        printf(APP ": grid=%ldx%ldx%ld,alltoall_block_bytes=%ld,alltoalls=%ld\n", g.n1, g.n2, g.n3,
               (long)(d.block * (long)sizeof(cplx)), alltoall_time.calls);
        for (long t = 0; t < opt.iters; t++)
            printf(APP ": iteration %ld checksum %.12e %.12e\n", t + 1, creal(sums[t]), cimag(sums[t]));
    }
    int ok = 1;
    const char *nas = "none";
    if (opt.check) {
        if (rank == 0) ok = nas_check(&g, opt.seed, opt.iters, sums, &nas) & serial_check(&g, opt.seed, opt.iters, sums);
        APP_CHECK(MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD));
        if (rank == 0) printf(APP ": check: serial run and NAS reference (%s): %s\n", nas, ok ? "ok" : "FAIL");
    }
    opt.n = g.n1 * g.n2 * g.n3;
    APP_CHECK(app_report(APP, &opt, "alltoall", seconds, &alltoall_time, opt.check ? (ok ? "ok" : "FAIL") : "off",
                         MPI_COMM_WORLD));

    free(d.a);
    free(d.b);
    free(d.u1);
    free(d.twiddle);
    free(d.send);
    free(d.recv);
    free(d.scratch);
    free(sums);
    plan_free(&g.px);
    plan_free(&g.py);
    plan_free(&g.pz);
    MPI_Finalize();
    return ok ? 0 : 1;
}
