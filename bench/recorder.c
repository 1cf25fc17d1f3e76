/* recorder.c: snapshots and the flight recorder against a plain memcpy of the same live
 * bytes (docs/performance.md, "Flight recorder").
 *
 * A bench32 world of N entities, each with position, velocity and 8 more components (data,
 * extra, filler0..5). The baseline copies the live bytes a snapshot holds (the entity
 * table's generations, live bits and marks, each pool's members and columns) out of the
 * world's own arrays into one buffer, and back. Each time is the median of R runs; every
 * run of a snapshot call is paired with a run of its baseline.
 *
 *     recorder [--quick] [--runs R] [--n N]
 *
 * --quick is --n 10000 --runs 1 (every row, once: the meson test `recorder bench --quick`
 * shows the program runs; its times are not measurements). Any take, restore or record that
 * fails makes the exit status 1.
 *
 * Rows: full take / memcpy; restore / memcpy back (a restore that writes everything back: another
 * snapshot was taken since); at 0 %, 1 %, 10 % and 100 % of entities changed per frame
 * (position written through a ref, as a system would), the recorder's record (compare with
 * the frame before, keep what changed) and an incremental take (take_since a full snapshot)
 * as a fraction of a full take, a restore of the last snapshot taken (it writes back only
 * what was marked since) as a fraction of the memcpy back, and the memory of 120 recorded
 * frames at that change as a multiple of one full copy. */
#define _POSIX_C_SOURCE 200112L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench32_ecs.h"
#include "timing.h"

static uint64_t rng = 88172645463325252u;
static uint64_t next_random(void) {
    rng ^= rng >> 12, rng ^= rng << 25, rng ^= rng >> 27;
    return rng * 2685821657736338717u;
}

/* The live arrays of w, as a snapshot copies them. */
typedef struct {
    void *at[64];
    size_t size[64];
    int n;
    size_t bytes;
} spans_t;

static void span(spans_t *s, void *at, size_t size) {
    if (!size) return;
    s->at[s->n] = at, s->size[s->n++] = size;
    s->bytes += size;
}

static spans_t live_spans(bench32_world_t *w) {
    spans_t s = { 0 };
    uint32_t used = w->entities.used;
    span(&s, w->entities.generation, used * sizeof(uint32_t));
    span(&s, w->entities.live, (used + 63u) / 64u * sizeof(uint64_t));
    span(&s, w->entities.mark, used);
    span(&s, w->entities.free, w->entities.free_count * sizeof(uint32_t));
    for (uint32_t k = 0; k < bench32_meta.pooled_count; k++) {
        const ecs_meta_component_t *c = &bench32_meta.components[bench32_meta.pooled[k]];
        ecs_sparse_t *set = (ecs_sparse_t *)(void *)((char *)w + c->sparse_offset);
        if (!set->count) continue;
        span(&s, set->keeps_ids ? (void *)set->id : (void *)set->index, set->count * (set->keeps_ids ? 8u : 4u));
        for (uint32_t f = 0; f < c->field_count; f++) {
            void *column;
            memcpy(&column, (char *)w + c->fields[f].column_offset, sizeof column);
            span(&s, column, set->count * c->fields[f].size);
        }
    }
    return s;
}

static bench32_world_t *populate(size_t n, ecs_entity_t *ids) {
    bench32_world_t *w = bench32_world_new();
    bench32_position_t p = { 1, 2 };
    bench32_velocity_t v = { 3, 4 };
    bench32_data_t d = { 5 };
    bench32_extra_t x = { 6 };
    bench32_filler0_t f = { 7 };
    for (size_t i = 0; i < n; i++) {
        ids[i] = bench32_spawn(w, &(bench32_spawn_desc_t){ .position = &p, .velocity = &v, .data = &d, .extra = &x,
                                                           .filler0 = &f, .filler1 = &(bench32_filler1_t){ 1 },
                                                           .filler2 = &(bench32_filler2_t){ 2 },
                                                           .filler3 = &(bench32_filler3_t){ 3 },
                                                           .filler4 = &(bench32_filler4_t){ 4 },
                                                           .filler5 = &(bench32_filler5_t){ 5 } });
        p.x += 1.0f;
    }
    return w;
}

/* A frame: `changed` entities (at random) move by their velocity. */
static void frame(bench32_world_t *w, const ecs_entity_t *ids, size_t n, size_t changed) {
    for (size_t k = 0; k < changed; k++) {
        ecs_entity_t e = ids[changed == n ? k : next_random() % n];
        bench32_position_ref_t p = bench32_ref_position(w, e);
        *p.x += 0.5f, *p.y -= 0.25f;
    }
}

int main(int argc, char **argv) {
    int runs = 7, ok = 1;
    size_t sizes[] = { 10000, 100000, 1000000 }, nsizes = 3;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick")) sizes[0] = 10000, nsizes = 1, runs = 1;
        else if (!strcmp(argv[i], "--runs") && i + 1 < argc) runs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--n") && i + 1 < argc) sizes[0] = (size_t)atol(argv[++i]), nsizes = 1;
        else {
            fprintf(stderr, "usage: recorder [--quick] [--runs R] [--n N]\n");
            return 2;
        }
    }
    if (runs < 1 || runs > 31) runs = 7;
    printf("%-44s %8s %10s %10s %8s\n", "row", "N", "ecsgen", "baseline", "ratio");
    for (size_t s = 0; s < nsizes; s++) {
        size_t n = sizes[s];
        ecs_entity_t *ids = malloc(n * sizeof *ids);
        bench32_world_t *w = populate(n, ids);
        spans_t live = live_spans(w);
        unsigned char *copy = malloc(live.bytes);
        bench32_snapshot_t *full = bench32_snapshot_new(), *inc = bench32_snapshot_new();
        double take[31], base[31], ratio[31];
        ok &= bench32_snapshot_take(w, full); /* warm: buffers allocated and faulted in */
        memset(copy, 1, live.bytes);
        for (int r = 0; r < runs; r++) {
            double t0 = now_ns();
            ok &= bench32_snapshot_take(w, full);
            double t1 = now_ns();
            size_t at = 0;
            for (int k = 0; k < live.n; k++) memcpy(copy + at, live.at[k], live.size[k]), at += live.size[k];
            double t2 = now_ns();
            take[r] = (t1 - t0) / 1e6, base[r] = (t2 - t1) / 1e6, ratio[r] = take[r] / base[r];
        }
        double full_take = median(take, runs);
        printf("%-44s %8zu %9.3fms %9.3fms %7.2fx\n", "full take / memcpy of the live bytes", n, full_take,
               median(base, runs), median(ratio, runs));
        for (int r = 0; r < runs; r++) {
            ok &= bench32_snapshot_take(w, inc); /* resets the marks: restoring full writes it all back */
            double t0 = now_ns();
            ok &= bench32_snapshot_restore(w, full);
            double t1 = now_ns();
            size_t at = 0;
            for (int k = 0; k < live.n; k++) memcpy(live.at[k], copy + at, live.size[k]), at += live.size[k];
            double t2 = now_ns();
            take[r] = (t1 - t0) / 1e6, base[r] = (t2 - t1) / 1e6, ratio[r] = take[r] / base[r];
        }
        double copy_back = median(base, runs);
        printf("%-44s %8zu %9.3fms %9.3fms %7.2fx\n", "restore / memcpy back", n, median(take, runs), copy_back,
               median(ratio, runs));
        size_t full_bytes = bench32_snapshot_memory(full);
        static const int percents[] = { 0, 1, 10, 100 };
        for (int p = 0; p < 4; p++) {
            size_t changed = n * (size_t)percents[p] / 100u;
            bench32_recorder_t *rec = bench32_recorder_new(120);
            if (!rec) return fprintf(stderr, "recorder: out of memory\n"), 1;
            ok &= bench32_recorder_record(rec, w);
            double rt[31], it[31];
            /* Apart: a take resets the world's change marks, after which the recorder's next
             * frame compares everything (the marks belong to the last to reset them). The
             * ring is filled first: a recorder's first lap allocates each frame's buffer, a
             * program's every later frame reuses one. */
            for (int f = 0; f < 120; f++) {
                frame(w, ids, n, changed);
                ok &= bench32_recorder_record(rec, w);
            }
            for (int r = 0; r < runs; r++) {
                frame(w, ids, n, changed);
                double t0 = now_ns();
                ok &= bench32_recorder_record(rec, w);
                double t1 = now_ns();
                rt[r] = (t1 - t0) / 1e6;
            }
            for (int r = 0; r < runs; r++) {
                ok &= bench32_snapshot_take(w, full);
                frame(w, ids, n, changed);
                double t2 = now_ns();
                ok &= bench32_snapshot_take_since(w, inc, full);
                double t3 = now_ns();
                it[r] = (t3 - t2) / 1e6;
            }
            double st[31];
            for (int r = 0; r < runs; r++) {
                ok &= bench32_snapshot_take(w, full);
                frame(w, ids, n, changed);
                double t4 = now_ns();
                ok &= bench32_snapshot_restore(w, full);
                double t5 = now_ns();
                st[r] = (t5 - t4) / 1e6;
            }
            char row[64];
            snprintf(row, sizeof row, "record a frame, %d %% changed / full take", percents[p]);
            printf("%-44s %8zu %9.3fms %9.3fms %7.3fx\n", row, n, median(rt, runs), full_take, median(rt, runs) / full_take);
            snprintf(row, sizeof row, "take_since, %d %% changed / full take", percents[p]);
            printf("%-44s %8zu %9.3fms %9.3fms %7.3fx\n", row, n, median(it, runs), full_take, median(it, runs) / full_take);
            snprintf(row, sizeof row, "restore, %d %% changed / memcpy back", percents[p]);
            printf("%-44s %8zu %9.3fms %9.3fms %7.3fx\n", row, n, median(st, runs), copy_back, median(st, runs) / copy_back);
            bench32_recorder_free(rec);
            rec = bench32_recorder_new(120); /* fresh: no buffers left from the timed frames */
            if (!rec) return fprintf(stderr, "recorder: out of memory\n"), 1;
            for (int f = 0; f < 120; f++) {
                frame(w, ids, n, changed);
                ok &= bench32_recorder_record(rec, w);
            }
            snprintf(row, sizeof row, "memory of 120 frames, %d %% changed / 1 copy", percents[p]);
            printf("%-44s %8zu %8.1fMB %8.1fMB %7.2fx\n", row, n, bench32_recorder_memory(rec) / 1e6, full_bytes / 1e6,
                   (double)bench32_recorder_memory(rec) / (double)full_bytes);
            bench32_recorder_free(rec);
        }
        bench32_snapshot_free(full);
        bench32_snapshot_free(inc);
        free(copy);
        bench32_world_free(w);
        free(ids);
        fflush(stdout);
    }
    if (!ok) fprintf(stderr, "recorder: a take, restore or record failed (out of memory?)\n");
    return ok ? 0 : 1;
}
