/* bench.c: ecsgen against hand-written code, in one process per workload and N.
 *
 * Every workload runs on four generated schemas (32, 128 and 512 component types with the
 * default storage, and 32 with slot storage for position, velocity and extra) at
 * N = 10k, 100k and 1M, and its hand-written baseline (baseline.c) runs beside it; the
 * table shows the median of several runs of each and the median of their per-run ratios
 * (the two run alternately). Absolute times drift on a shared machine; the ratios less.
 *
 *     bench [--quick] [--json] [--runs R] [--n N] [--components 32|128|512] [--storage sparse|slot|sparse+struct|slot+struct|relation] [--workload TEXT]
 *
 * --quick: N = 10k and one run, to prove every workload works (under 10 s even in debug
 * and sanitizer builds); --json: the results as a JSON array instead of a table; --n,
 * --components and --storage: only that N, only those schemas; --workload: only workloads whose name
 * contains TEXT. --storage relation: only the relations table (bench/relations.h, on
 * bench/benchrel.json: 6 components, one of them the relation). */
#define _POSIX_C_SOURCE 200112L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#ifdef __unix__
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#endif

#include "baseline.h"
#include "bench128_ecs.h"
#include "bench32_ecs.h"
#include "bench32slot_ecs.h"
#include "bench32slotstruct_ecs.h"
#include "bench32struct_ecs.h"
#include "bench512_ecs.h"
#include "timing.h"

typedef struct workload {
    const char *name;
    const char *unit;
    double (*run)(size_t n);
    double (*baseline)(size_t n);
    bool once; /* not a time: one run is exact */
} workload_t;

static volatile float bench_dt_storage = 1.0f / 60.0f; /* opaque to the optimiser */
#define bench_dt (bench_dt_storage)
static volatile float sink; /* results land here, so no loop is optimised away */
static bool quick;

static void fail(const char *what) {
    fprintf(stderr, "bench: %s\n", what);
    exit(1);
}

static void *xmalloc(size_t bytes) {
    void *p = malloc(bytes);
    if (!p) fail("out of memory");
    return p;
}

static uint64_t next_random(uint64_t *state) { /* xorshift64* */
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    return *state * 2685821657736338717ull;
}

static void shuffle(ecs_entity_t *ids, size_t n) {
    uint64_t seed = 99;
    for (size_t k = n; k > 1; k--) {
        size_t j = (size_t)(next_random(&seed) % k);
        ecs_entity_t t = ids[k - 1];
        ids[k - 1] = ids[j];
        ids[j] = t;
    }
}

/* Iterations are repeated to about 20M entity updates per timing (quick: 200k). */
static size_t iteration_reps(size_t n) {
    size_t budget = quick ? 200000u : 20000000u;
    return n >= budget ? 1 : budget / n;
}

/* Churn frames: about 200k destroy+create pairs per timing (quick: 2 frames). */
static size_t churn_frames(size_t n) {
    return quick ? 2 : n >= 1000000 ? 2 : 2000000 / n;
}

/* ---- Baselines ----------------------------------------------------------------------- */

static base_world_t base_populate(size_t n, uint64_t *ids) {
    base_world_t w;
    base_world_init(&w);
    for (size_t k = 0; k < n; k++) {
        uint64_t e = base_create(&w, (float)k, 1.0f, 1.0f, (float)(k & 7));
        if (ids) ids[k] = e;
    }
    return w;
}

static double base_create_n(size_t n) {
    base_world_t w;
    base_world_init(&w);
    double t0 = now_ns();
    for (size_t k = 0; k < n; k++) base_create(&w, 1.0f, 2.0f, 3.0f, 4.0f);
    double t = now_ns() - t0;
    base_world_fini(&w);
    return t / (double)n;
}

static void base_move(base_world_t *w, float dt) {
    float *restrict px = w->px, *restrict py = w->py, *restrict vx = w->vx, *restrict vy = w->vy;
    for (size_t i = 0; i < w->used; i++) {
        px[i] += vx[i] * dt;
        py[i] += vy[i] * dt;
    }
}

static double base_iterate(size_t n) {
    base_world_t w = base_populate(n, NULL);
    size_t reps = iteration_reps(n);
    double t0 = now_ns();
    for (size_t r = 0; r < reps; r++) base_move(&w, bench_dt), frame_end();
    double t = now_ns() - t0;
    sink += w.px[n / 2];
    base_world_fini(&w);
    return t / (double)(reps * n);
}

/* The matches of the 1-in-4 workload, already packed: the best a hand-written loop can do. */
static double base_iterate_sparse(size_t n) {
    size_t m = (n + 3) / 4;
    float *px = xmalloc(m * sizeof *px), *py = xmalloc(m * sizeof *py), *vx = xmalloc(m * sizeof *vx),
          *vy = xmalloc(m * sizeof *vy), *d = xmalloc(m * sizeof *d);
    for (size_t i = 0; i < m; i++) px[i] = (float)i, py[i] = 1, vx[i] = 1, vy[i] = (float)(i & 7), d[i] = 0.5f;
    size_t reps = iteration_reps(m);
    float dt = bench_dt;
    double t0 = now_ns();
    for (size_t r = 0; r < reps; r++) {
        float *restrict x = px, *restrict y = py;
        const float *restrict u = vx, *restrict v = vy, *restrict s = d;
        for (size_t i = 0; i < m; i++) {
            x[i] += u[i] * s[i] * dt;
            y[i] += v[i] * s[i] * dt;
        }
        frame_end();
    }
    double t = now_ns() - t0;
    sink += px[m / 2];
    free(px), free(py), free(vx), free(vy), free(d);
    return t / (double)(reps * m);
}

static double base_churn(size_t n) {
    uint64_t *ids = xmalloc(n * sizeof *ids);
    base_world_t w = base_populate(n, ids);
    size_t per_frame = n / 10, frames = churn_frames(n);
    uint64_t seed = 12345;
    double t0 = now_ns();
    for (size_t f = 0; f < frames; f++) {
        for (size_t k = 0; k < per_frame; k++) {
            size_t at = (size_t)(next_random(&seed) % n);
            base_destroy(&w, ids[at]);
            ids[at] = base_create(&w, 1.0f, 2.0f, 3.0f, 4.0f);
        }
    }
    double t = now_ns() - t0;
    if (w.alive != n) fail("baseline churn: wrong count");
    base_world_fini(&w);
    free(ids);
    return t / (double)(frames * per_frame);
}

static double base_add_remove(size_t n) {
    base_sparse_t s;
    base_sparse_init(&s, (uint32_t)n);
    double t0 = now_ns();
    for (size_t k = 0; k < n; k++) {
        base_sparse_add(&s, (uint32_t)k, 1.0f);
        base_sparse_remove(&s, (uint32_t)k);
    }
    double t = now_ns() - t0;
    if (s.count != 0) fail("baseline add+remove: members left");
    base_sparse_fini(&s);
    return t / (double)n;
}

/* Gets of every id in random order: position.x alone, or every field (x + y). */
static double base_random_gets(size_t n, bool every_field) {
    uint64_t *ids = xmalloc(n * sizeof *ids);
    base_world_t w = base_populate(n, ids);
    shuffle(ids, n);
    float sum = 0;
    double t0 = now_ns();
    if (every_field) {
        for (size_t k = 0; k < n; k++) sum += base_get_xy(&w, ids[k]);
    } else {
        for (size_t k = 0; k < n; k++) sum += base_get_x(&w, ids[k]);
    }
    double t = now_ns() - t0;
    sink += sum;
    base_world_fini(&w);
    free(ids);
    return t / (double)n;
}

static double base_random_get(size_t n) {
    return base_random_gets(n, false);
}

static double base_random_get_every_field(size_t n) {
    return base_random_gets(n, true);
}

static double base_create_destroy(size_t n) {
    uint64_t *ids = xmalloc(n * sizeof *ids);
    base_world_t w;
    base_world_init(&w);
    double t0 = now_ns();
    for (size_t k = 0; k < n; k++) ids[k] = base_create(&w, 1.0f, 2.0f, 3.0f, 4.0f);
    for (size_t k = 0; k < n; k++) base_destroy(&w, ids[k]);
    double t = now_ns() - t0;
    base_world_fini(&w);
    free(ids);
    return t / (double)n;
}

static double base_memory_n(size_t n) {
    base_world_t w = base_populate(n, NULL);
    double bytes = (double)base_memory(&w);
    base_world_fini(&w);
    return bytes / (double)n;
}

/* ---- The workloads, once per schema size ---------------------------------------------- */

/* STRUCT_LAYOUT: position, velocity and data have "layout": "struct". */
#define STRUCT_LAYOUT 0
#define SLOT_STORAGE 0
#define S(x) bench32_##x
#define SU(x) BENCH32_##x
#define W(x) w32_##x
#include "workloads.h"
#undef S
#undef SU
#undef W
#define S(x) bench128_##x
#define SU(x) BENCH128_##x
#define W(x) w128_##x
#include "workloads.h"
#undef S
#undef SU
#undef W
#define S(x) bench512_##x
#define SU(x) BENCH512_##x
#define W(x) w512_##x
#include "workloads.h"
#undef S
#undef SU
#undef W
#undef SLOT_STORAGE

#define SLOT_STORAGE 1
#define S(x) bench32slot_##x
#define SU(x) BENCH32SLOT_##x
#define W(x) w32slot_##x
#include "workloads.h"
#undef S
#undef SU
#undef W
#undef SLOT_STORAGE
#undef STRUCT_LAYOUT

#define STRUCT_LAYOUT 1
#define SLOT_STORAGE 0
#define S(x) bench32struct_##x
#define SU(x) BENCH32STRUCT_##x
#define W(x) w32struct_##x
#include "workloads.h"
#undef S
#undef SU
#undef W
#undef SLOT_STORAGE
#define SLOT_STORAGE 1
#define S(x) bench32slotstruct_##x
#define SU(x) BENCH32SLOTSTRUCT_##x
#define W(x) w32slotstruct_##x
#include "workloads.h"
#undef S
#undef SU
#undef W
#undef SLOT_STORAGE
#undef STRUCT_LAYOUT

#include "relations.h"

#define COUNT(a) (sizeof(a) / sizeof *(a))

static const struct {
    int components;
    const char *storage; /* of position and velocity; "+struct": position, velocity and data have "layout": "struct" */
    const workload_t *workloads;
    size_t count;
} schemas[] = {
    { 32, "sparse", w32_workloads, COUNT(w32_workloads) },
    { 32, "slot", w32slot_workloads, COUNT(w32slot_workloads) },
    { 32, "sparse+struct", w32struct_workloads, COUNT(w32struct_workloads) },
    { 32, "slot+struct", w32slotstruct_workloads, COUNT(w32slotstruct_workloads) },
    { 128, "sparse", w128_workloads, COUNT(w128_workloads) },
    { 512, "sparse", w512_workloads, COUNT(w512_workloads) },
    { 6, "relation", rel_workloads, COUNT(rel_workloads) }, /* bench/benchrel.json */
};

#define MAX_RUNS 31

typedef struct result {
    double ecs, baseline, ratio; /* medians; ratio is the median of the per-run ratios */
} result_t;

/* Runs the workload and its baseline alternately, `runs` times each, so that a change in the
 * machine's load between runs hits both alike. */
static result_t measure(const workload_t *wl, size_t n, int runs) {
    double ecs[MAX_RUNS], base[MAX_RUNS], ratio[MAX_RUNS];
    if (!wl->once && !quick) (void)wl->run(n), (void)wl->baseline(n); /* warm-up, not counted */
    for (int r = 0; r < runs; r++) {
        ecs[r] = wl->run(n);
        base[r] = wl->baseline(n);
        ratio[r] = ecs[r] / base[r];
    }
    return (result_t){ median(ecs, runs), median(base, runs), median(ratio, runs) };
}

/* measure() in a process of its own, forked from one that ran no workload, so that every
 * cell starts from the same heap. In one process a run took its arrays from what the cells
 * before it had freed, and which pages it faulted in depended on them: slot create at 10k
 * measured 1.2x run alone and 2.6x after the 1M rows, with the same binary. */
static result_t measure_alone(const workload_t *wl, size_t n, int runs) {
#ifdef __unix__
    int fd[2];
    if (pipe(fd) != 0) fail("pipe failed");
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) fail("fork failed");
    if (pid == 0) {
        close(fd[0]);
        result_t m = measure(wl, n, runs);
        _exit(write(fd[1], &m, sizeof m) == (ssize_t)sizeof m ? 0 : 1);
    }
    close(fd[1]);
    result_t m;
    ssize_t got = read(fd[0], &m, sizeof m);
    close(fd[0]);
    int status;
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0 || got != (ssize_t)sizeof m)
        fail("a workload's process failed");
    return m;
#else
    return measure(wl, n, runs);
#endif
}

int main(int argc, char **argv) {
#ifdef __GLIBC__
    /* A fixed mmap threshold. glibc otherwise raises it after each large free, so that the
     * next run (ecsgen's or the baseline's) may take its big arrays from the heap, already
     * faulted in, where the run before faulted them in afresh: the ratio would then follow
     * the order of the frees (create at 1M with 128 types: 2.8x or 6.5x). */
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#endif
    bool json = false;
    int runs = 5, only_components = 0;
    const char *only_workload = NULL, *only_storage = NULL;
    static size_t sizes[] = { 10000, 100000, 1000000 };
    size_t nsizes = COUNT(sizes);
    for (int i = 1; i < argc; i++) {
        const char *value = i + 1 < argc ? argv[i + 1] : "";
        if (!strcmp(argv[i], "--quick")) quick = true;
        else if (!strcmp(argv[i], "--json")) json = true;
        else if (!strcmp(argv[i], "--runs") && atoi(value) >= 1 && atoi(value) <= MAX_RUNS) runs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--n") && atol(value) >= 100 && atol(value) <= 10000000) {
            sizes[0] = (size_t)atol(argv[++i]);
            nsizes = 1;
        } else if (!strcmp(argv[i], "--components") && (!strcmp(value, "32") || !strcmp(value, "128") || !strcmp(value, "512")))
            only_components = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--workload") && *value) only_workload = argv[++i];
        else if (!strcmp(argv[i], "--storage") && (!strcmp(value, "sparse") || !strcmp(value, "slot") || !strcmp(value, "relation") ||
                                                    !strcmp(value, "sparse+struct") || !strcmp(value, "slot+struct"))) only_storage = argv[++i];
        else {
            fprintf(stderr, "usage: bench [--quick] [--json] [--runs 1..%d] [--n 100..10000000] [--components 32|128|512] [--storage sparse|slot|sparse+struct|slot+struct|relation] [--workload TEXT]\n", MAX_RUNS);
            return 2;
        }
    }
    if (quick) sizes[0] = 10000, nsizes = 1;
    if (quick) runs = 1;
    if (json) printf("[\n");
    else printf("%-32s %-12s %5s %-13s %8s %10s %10s %7s\n", "workload", "unit", "comps", "storage", "N", "ecsgen", "baseline", "ratio");
    bool first = true;
    for (size_t s = 0; s < COUNT(schemas); s++) {
        if (only_components && schemas[s].components != only_components) continue;
        if (only_storage && strcmp(schemas[s].storage, only_storage)) continue;
        for (size_t k = 0; k < nsizes; k++) {
            for (size_t j = 0; j < schemas[s].count; j++) {
                const workload_t *wl = &schemas[s].workloads[j];
                if (only_workload && !strstr(wl->name, only_workload)) continue;
                int r = wl->once ? 1 : runs;
                result_t m = measure_alone(wl, sizes[k], r);
                if (json)
                    printf("%s  {\"workload\": \"%s\", \"unit\": \"%s\", \"components\": %d, \"storage\": \"%s\", \"n\": %zu, "
                           "\"ecsgen\": %.3f, \"baseline\": %.3f, \"ratio\": %.3f}",
                           first ? "" : ",\n", wl->name, wl->unit, schemas[s].components, schemas[s].storage, sizes[k],
                           m.ecs, m.baseline, m.ratio);
                else
                    printf("%-32s %-12s %5d %-13s %8zu %10.2f %10.2f %6.2fx\n", wl->name, wl->unit, schemas[s].components,
                           schemas[s].storage, sizes[k], m.ecs, m.baseline, m.ratio);
                first = false;
                fflush(stdout);
            }
        }
    }
    if (json) printf("\n]\n");
    return 0;
}
