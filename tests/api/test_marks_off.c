/* test_marks_off.c: generated code built with ECS_NO_CHANGE_MARKS over a runtime built
 * without it (the library as installed). Such writes set no change mark, so the takes of
 * that code must trust none: the generated reset (ecs_marks.h) covers no row whatever the
 * runtime was built with, and every take, record and restore compares or copies the whole
 * world. Before, the runtime's reset covered the rows: an incremental snapshot missed the
 * writes since its base, and a restore of the last take wrote none of them back.
 *
 * Slot and sparse components of the sw schema: sets, a ref's write, adds, removes,
 * destroys and spawns between takes; each restore must give back the hash taken. */
#ifndef ECS_NO_CHANGE_MARKS
#error "test_marks_off.c must be compiled with -DECS_NO_CHANGE_MARKS"
#endif

#include "check.h"
#include "sw_ecs.h"

enum { N = 300 };

static ecs_entity_t ids[N];

/* Writes a marked build would mark: values in place, components in and out, ids. */
static void change(sw_world_t *w, int round) {
    for (int k = round % 5; k < N; k += 5) {
        if (!sw_alive(w, ids[k])) continue;
        if (sw_has_early(w, ids[k])) sw_set_early(w, ids[k], (sw_early_t){ 1000 * round + k });
        sw_set_s0(w, ids[k], (sw_s0_t){ -1000 * round - k });
        if (k % 3 == 0) {
            sw_early_ref_t r = sw_ref_early(w, ids[k]);
            if (r.v) *r.v += 7;
        }
        if (k % 4 == 0 && sw_has_s1(w, ids[k])) {
            sw_remove_s1(w, ids[k]);
        } else if (k % 4 == 0) {
            sw_add_s1(w, ids[k], (sw_s1_t){ round });
        }
    }
    sw_destroy(w, ids[(round * 37) % N]);
    ids[(round * 37) % N] = sw_spawn(w, &(sw_spawn_desc_t){ .s0 = &(sw_s0_t){ round } });
}

int main(void) {
    sw_world_t *w = sw_world_new();
    CHECK(w != NULL);
    for (int k = 0; k < N; k++) {
        ids[k] = sw_spawn(w, &(sw_spawn_desc_t){ .early = k % 2 ? &(sw_early_t){ k } : NULL, .s0 = &(sw_s0_t){ k },
                                                 .s69 = k % 3 ? &(sw_s69_t){ k } : NULL });
        CHECK(ids[k] != ECS_NULL);
    }
    CHECK_EQ(w->entities.marks.rows, 0u); /* never taken */

    /* Full and incremental snapshots. */
    sw_snapshot_t *base = sw_snapshot_new(), *inc = sw_snapshot_new();
    CHECK(base && inc && sw_snapshot_take(w, base));
    uint64_t at_base = sw_world_hash(w);
    CHECK_EQ(w->entities.marks.rows, 0u); /* the take covers no row: no write here marks */
    CHECK_EQ(w->components.early.set.marks.rows, 0u);
    change(w, 1);
    CHECK(sw_snapshot_take_since(w, inc, base));
    uint64_t at_inc = sw_world_hash(w);
    CHECK(at_inc != at_base);
    change(w, 2);
    CHECK(sw_snapshot_restore(w, inc));
    CHECK_EQ(sw_world_hash(w), at_inc);
    change(w, 3);
    CHECK(sw_snapshot_restore(w, base));
    CHECK_EQ(sw_world_hash(w), at_base);
    change(w, 4); /* base is the last restored: its restore would write back only marked rows */
    CHECK(sw_snapshot_restore(w, base));
    CHECK_EQ(sw_world_hash(w), at_base);

    /* The recorder: each frame compared with the one before. */
    sw_recorder_t *rec = sw_recorder_new(4);
    CHECK(rec != NULL);
    uint64_t frame[4];
    for (int f = 0; f < 4; f++) {
        change(w, 5 + f);
        CHECK(sw_recorder_record(rec, w));
        frame[f] = sw_world_hash(w);
    }
    change(w, 9);
    for (uint32_t back = 0; back < 4; back++) {
        CHECK(sw_recorder_restore(rec, w, back));
        CHECK_EQ(sw_world_hash(w), frame[3u - back]);
    }

    sw_recorder_free(rec);
    sw_snapshot_free(inc);
    sw_snapshot_free(base);
    sw_world_free(w);
    return check_finish("api marks off");
}
