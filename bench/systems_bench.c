/* systems_bench.c: what the generated schedule costs (docs/performance.md, "Systems").
 *   1. 100 systems over an empty world: ns per system per step of sb_step, beside 100 direct
 *      calls of the same bodies with an empty context (the hand-written floor).
 *   2. 100 systems each matching 10 entities: sb_step beside the same work written by hand
 *      (a loop over each pool's dense array); the difference per system is the scheduler's.
 *   3. A compute-heavy system over N entities (1M by default) with 1 thread and with 2..T:
 *      the speed-up.
 * Each figure is the fastest of many short runs (--median: their median), beside its
 * baseline taken in the same process. Usage: systems_bench [--quick] [--median] [--threads T] [--heavy N] */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sb_ecs.h"
#include "timing.h"

#define REP10(M, d) M(d##0) M(d##1) M(d##2) M(d##3) M(d##4) M(d##5) M(d##6) M(d##7) M(d##8) M(d##9)
#define REP100(M) REP10(M, ) REP10(M, 1) REP10(M, 2) REP10(M, 3) REP10(M, 4) REP10(M, 5) REP10(M, 6) \
    REP10(M, 7) REP10(M, 8) REP10(M, 9)

#define BODY(k)                                                                   \
    void sb_system_s##k(sb_s##k##_t *restrict s) {                                \
        for (size_t i = 0; i < s->count; i++) SB_S##k##_FIELD(s, c##k, v, i) += s->dt; \
    }
REP100(BODY)

static int heavy_rounds = 64;

void sb_system_heavy(sb_heavy_t *restrict s) {
    for (size_t i = 0; i < s->count; i++) {
        float h = SB_HEAVY_FIELD(s, hp, v, i), x = SB_HEAVY_FIELD(s, pos, x, i), y = SB_HEAVY_FIELD(s, pos, y, i);
        for (int r = 0; r < heavy_rounds; r++) h = h * 0.999f + sqrtf(x * x + y * y + (float)r) * 0.001f;
        SB_HEAVY_FIELD(s, hp, v, i) = h;
    }
}

/* The hand-written floor for an empty world: each body called once with an empty context. */
static void direct_calls(sb_world_t *w, float dt) {
#define CALL(k) { sb_s##k##_t s; memset(&s, 0, sizeof s); s.dt = dt; s.world = w; sb_system_s##k(&s); }
    REP100(CALL)
#undef CALL
}

/* The hand-written work for 10 matches each: a loop over each pool's dense array. */
static void by_hand(sb_world_t *w, float dt) {
#define HAND(k) { float *v = w->components.c##k.v; for (uint32_t i = 0, n = w->components.c##k.set.count; i < n; i++) v[i] += dt; }
    REP100(HAND)
#undef HAND
}

static void heavy_by_hand(sb_world_t *w, float dt) {
    (void)dt;
    sb_fighters_view_t v = sb_query_fighters(w);
    sb_heavy_t s = { .count = v.count, .entity = v.entity, .dt = dt, .world = w, .hp = { v.hp.v },
                     .pos = { v.pos.x, v.pos.y } };
    sb_system_heavy(&s);
}

typedef void (*frame_fn)(sb_world_t *, float);

static void step_frame(sb_world_t *w, float dt) { sb_step(w, dt); }

/* ns per call of f: the fastest of `runs` runs of `reps` calls (on a shared machine the
 * fastest run is the one least disturbed; the median is printed with --median). */
static bool use_median;

static double time_ns(frame_fn f, sb_world_t *w, int runs, int reps) {
    double t[64];
    for (int r = 0; r < runs; r++) {
        double t0 = now_ns();
        for (int k = 0; k < reps; k++) f(w, 0.001f);
        t[r] = (now_ns() - t0) / reps;
    }
    return use_median ? median(t, runs) : (qsort(t, (size_t)runs, sizeof *t, compare_doubles), t[0]);
}

int main(int argc, char **argv) {
    bool quick = false;
    unsigned max_threads = 2;
    long heavy_n = 1000000;
    for (int k = 1; k < argc; k++) {
        if (!strcmp(argv[k], "--quick")) quick = true;
        else if (!strcmp(argv[k], "--threads") && k + 1 < argc) max_threads = (unsigned)atoi(argv[++k]);
        else if (!strcmp(argv[k], "--heavy") && k + 1 < argc) heavy_n = atol(argv[++k]);
        else if (!strcmp(argv[k], "--median")) use_median = true;
    }
    int runs = quick ? 3 : 51, reps = quick ? 200 : 2000;
    if (quick) heavy_n = 20000;

    sb_world_t *w = sb_world_new();
    /* 1: empty world (ratios and differences interleaved, each the median) */
    double step_ns = time_ns(step_frame, w, runs, reps), call_ns = time_ns(direct_calls, w, runs, reps);
    printf("100 systems, empty world:      sb_step %7.1f ns/system/step; direct calls %5.1f ns/system; overhead %5.1f ns/system\n",
           step_ns / 100, call_ns / 100, (step_ns - call_ns) / 100);
    /* 2: 10 matches each */
#define SPAWN(k) for (int i = 0; i < 10; i++) sb_spawn(w, &(sb_spawn_desc_t){ .c##k = &(sb_c##k##_t){ 0 } });
    REP100(SPAWN)
#undef SPAWN
    step_ns = time_ns(step_frame, w, runs, reps);
    double hand_ns = time_ns(by_hand, w, runs, reps);
    printf("100 systems x 10 matches:      sb_step %7.1f ns/system/step; by hand %6.1f ns/system; overhead %5.1f ns/system\n",
           step_ns / 100, hand_ns / 100, (step_ns - hand_ns) / 100);
    sb_world_free(w);

    /* 3: the heavy system on threads */
    w = sb_world_new();
    for (long i = 0; i < heavy_n; i++)
        sb_spawn(w, &(sb_spawn_desc_t){ .hp = &(sb_hp_t){ 1 }, .pos = &(sb_pos_t){ (float)(i % 100), (float)(i % 7) } });
    int hruns = quick ? 3 : 7, hreps = quick ? 2 : 5;
    double hand = time_ns(heavy_by_hand, w, hruns, hreps);
    double one = time_ns(step_frame, w, hruns, hreps);
    printf("heavy system, %ld entities:  by hand %.2f ms; sb_step 1 thread %.2f ms (%.3fx)\n", heavy_n, hand / 1e6,
           one / 1e6, one / hand);
    for (unsigned t = 2; t <= max_threads; t *= 2) {
        sb_set_threads(w, t);
        double ns = time_ns(step_frame, w, hruns, hreps);
        printf("                               %u threads %.2f ms: speed-up %.2fx (%.2f x threads)\n", sb_threads(w),
               ns / 1e6, one / ns, one / ns / sb_threads(w));
        if (t * 2 > max_threads && t != max_threads) t = max_threads / 2;
    }
    sb_world_free(w);
    return 0;
}
