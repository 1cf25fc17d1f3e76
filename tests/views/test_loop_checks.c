/* test_loop_checks.c: the debug checks of docs/iteration.md (VIEWS_CHECKS, on unless NDEBUG;
 * this test's build forces them on, or off with -DVIEWS_CHECKS=0). Each case runs in a child
 * process: misuse must abort with a message naming the call; legal use must not abort. With
 * the checks off, the same misuse runs on unnoticed (they cost nothing there). */
#define _POSIX_C_SOURCE 200809L

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "check_abort.h"
#include "views_ecs.h"

static views_world_t *make_world(void) {
    views_world_t *w = views_world_new();
    for (int k = 0; w && k < 8; k++) {
        views_spawn(w, &(views_spawn_desc_t){ .position = &(views_position_t){ (float)k, 0 },
                                              .velocity = &(views_velocity_t){ 1, 1 },
                                              .sprite = &(views_sprite_t){ .name = "s" } });
    }
    return w;
}

static ecs_entity_t other_than(views_world_t *w, ecs_entity_t e) {
    VIEWS_EACH(w, it, position) {
        if (it.id != e) return it.id;
    }
    return ECS_NULL;
}

/* An allocator that refuses to grow while `refusing` (frees and shrinks go through). */
static bool refusing;
static void *refusing_realloc(void *ptr, size_t size, void *user) {
    (void)user;
    if (size == 0) {
        free(ptr);
        return NULL;
    }
    return refusing ? NULL : realloc(ptr, size);
}

/* The cases: misuse first (each must abort), then legal use (each must not). */
static void run_case(int which) {
    views_world_t *w = make_world();
    switch (which) {
    case 0: /* destroy another entity inside a macro loop */
        VIEWS_EACH(w, it, position, velocity) views_destroy(w, other_than(w, it.id));
        break;
    case 1: /* remove another entity's component inside a declared query's loop */
        VIEWS_EACH_MOVE(w, it) views_remove_velocity(w, other_than(w, it.id));
        break;
    case 2: { /* spawn with components inside a view loop (owned query) */
        views_move_view_t v = views_query_move(w);
        for (size_t i = 0; i < v.count; i++) {
            VIEWS_MOVE_FIELD(v, position, x, i) += 1;
            views_spawn(w, &(views_spawn_desc_t){ .position = &(views_position_t){ 0, 0 } });
        }
        break;
    }
    case 3: { /* destroy inside a view loop (non-owned query) */
        views_draw_view_t v = views_query_draw(w);
        for (size_t i = 0; i < v.count; i++) {
            VIEWS_DRAW_FIELD(v, sprite, frames, i)[0] = 1;
            views_destroy(w, v.entity[i]);
        }
        break;
    }
    case 4: /* apply_deferred inside a macro loop */
        VIEWS_EACH(w, it, position) views_apply_deferred(w);
        break;
    case 5: /* an inner loop left by break, then the outer loop destroys another entity */
        VIEWS_EACH(w, it, position) {
            VIEWS_EACH(w, inner, velocity) break;
            views_destroy(w, other_than(w, it.id));
        }
        break;
    case 6: /* a deferred change never applied, then world_free */
        views_defer_destroy(w, other_than(w, ECS_NULL));
        break;
    case 7: /* a deferred change never applied, then a save to a string */
        views_defer_remove_velocity(w, other_than(w, ECS_NULL));
        free(views_world_to_json(w));
        break;
    case 8: { /* a deferred change never applied, then a save to a file */
        char path[] = "/tmp/test_loop_checks_XXXXXX";
        int fd = mkstemp(path);
        if (fd >= 0) close(fd), unlink(path);
        views_defer_add_mass(w, other_than(w, ECS_NULL), (views_mass_t){ 2 });
        views_defer_spawn(w, &(views_spawn_desc_t){ .mass = &(views_mass_t){ 1 } });
        views_world_save(w, path, NULL);
        unlink(path);
        break;
    }
    /* Legal: */
    case 10: /* destroy it.id, change its components, spawn, add to others, in a macro loop */
        VIEWS_EACH(w, it, position, velocity) {
            views_add_mass(w, other_than(w, it.id), (views_mass_t){ 1 });
            views_remove_sprite(w, it.id);
            views_spawn(w, &(views_spawn_desc_t){ .position = &(views_position_t){ 0, 0 } });
            views_destroy(w, it.id);
        }
        break;
    case 11: /* nested loops, the inner left by break or return, then changes to the outer's it.id */
        VIEWS_EACH(w, it, position) {
            VIEWS_EACH(w, inner, velocity) break;
            (void)other_than(w, it.id); /* a loop left by return */
            views_remove_velocity(w, it.id);
            views_destroy(w, it.id);
        }
        break;
    case 12: { /* value changes and component-less spawns in a view loop, then defer */
        views_move_view_t v = views_query_move(w);
        for (size_t i = 0; i < v.count; i++) {
            VIEWS_MOVE_FIELD(v, velocity, y, i) = 2;
            views_spawn(w, NULL);
            views_defer_destroy(w, v.entity[i]);
        }
        views_apply_deferred(w);
        VIEWS_EACH(w, it, position) views_defer_destroy(w, it.id);
        views_apply_deferred(w);
        break;
    }
    case 14: /* an inner loop destroys the outer loop's entity, then leaves (as the demo does) */
        VIEWS_EACH(w, it, position) {
            VIEWS_EACH(w, inner, velocity) {
                views_destroy(w, it.id);
                break;
            }
        }
        break;
    case 15: { /* deferred changes applied before a save and world_free; a load drops them */
        views_defer_destroy(w, other_than(w, ECS_NULL));
        CHECK(views_deferred_count(w) == 1 && views_apply_deferred(w) && views_deferred_count(w) == 0);
        char *json = views_world_to_json(w);
        views_defer_destroy(w, other_than(w, ECS_NULL));
        ecs_error_t err;
        CHECK(views_world_from_json(w, json, &err) && views_deferred_count(w) == 0);
        free(json);
        break;
    }
    case 16: { /* a spawn in a macro loop that runs out of memory after its entity was made:
                * spawn takes the entity back (its position already added) and returns ECS_NULL */
        ecs_set_allocator(&(ecs_allocator_t){ refusing_realloc, NULL });
        size_t before = views_count(w), failed = 0;
        VIEWS_EACH(w, it, position) {
            refusing = true; /* mass has no pool yet: its first insert must allocate */
            failed += views_spawn(w, &(views_spawn_desc_t){ .position = &(views_position_t){ 0, 0 },
                                                            .mass = &(views_mass_t){ 1 } }) == ECS_NULL;
            refusing = false;
        }
        if (failed != before || views_count(w) != before) { /* the child's CHECKs do not reach the parent */
            fprintf(stderr, "case 16: %zu of %zu spawns failed, %zu entities\n", failed, before, views_count(w));
            abort();
        }
        views_world_free(w);
        ecs_set_allocator(NULL);
        return;
    }
    case 9: { /* write through a ref taken before a record: unmarked, the next record sees it */
        views_recorder_t *rec = views_recorder_new(4);
        for (int k = 0; k < 40; k++) /* marks cover whole chunks of 16 rows: more than 8 entities */
            views_spawn(w, &(views_spawn_desc_t){ .position = &(views_position_t){ 0, 0 } });
        ecs_entity_t e = other_than(w, ECS_NULL);
        views_position_ref_t p = views_ref_position(w, e);
        *p.x += 1;
        views_recorder_record(rec, w);
        *p.x += 1; /* the ref is from before the record */
        views_recorder_record(rec, w);
        views_recorder_free(rec);
        break;
    }
    case 17: /* record inside a macro loop (the loop marked its pools before the record cleared them) */
        VIEWS_EACH(w, it, position) {
            views_recorder_t *rec = views_recorder_new(4);
            views_recorder_record(rec, w);
            views_recorder_free(rec);
        }
        break;
    case 18: { /* legal: a ref taken again after each record, and a loop's writes */
        views_recorder_t *rec = views_recorder_new(4);
        ecs_entity_t e = other_than(w, ECS_NULL);
        for (int frame = 0; frame < 3; frame++) {
            *views_ref_position(w, e).y += 1;
            VIEWS_EACH(w, it, position, velocity) VIEWS_FIELD(it, position, x) += VIEWS_FIELD(it, velocity, x);
            views_recorder_record(rec, w);
        }
        if (!views_recorder_restore(rec, w, 2) || views_get_position(w, e).y != 1) abort();
        views_recorder_free(rec);
        break;
    }
    case 19: { /* write through a ref taken before a take, then a restore that trusts the marks */
        views_snapshot_t *s = views_snapshot_new();
        for (int k = 0; k < 40; k++)
            views_spawn(w, &(views_spawn_desc_t){ .position = &(views_position_t){ 0, 0 } });
        views_position_ref_t p = views_ref_position(w, other_than(w, ECS_NULL));
        views_snapshot_take(w, s);
        *p.x += 1; /* the ref is from before the take: unmarked, the restore writes back only marked rows */
        views_snapshot_restore(w, s);
        views_snapshot_free(s);
        break;
    }
    case 20: { /* legal: restores of the last snapshot taken write back only what was marked since */
        views_snapshot_t *s = views_snapshot_new();
        ecs_entity_t e = other_than(w, ECS_NULL);
        views_position_t p0 = views_get_position(w, e);
        size_t count = views_count(w);
        views_snapshot_take(w, s);
        for (int round = 0; round < 3; round++) { /* the first restore trusts the take's marks, the others its own */
            *views_ref_position(w, e).x += 5;
            VIEWS_EACH(w, it, position, velocity) VIEWS_FIELD(it, position, y) += 1;
            views_destroy(w, other_than(w, e));
            views_spawn(w, &(views_spawn_desc_t){ .position = &(views_position_t){ 9, 9 } });
            if (!views_snapshot_restore(w, s) || views_count(w) != count || views_get_position(w, e).x != p0.x ||
                views_get_position(w, e).y != p0.y)
                abort();
        }
        views_snapshot_free(s);
        break;
    }
    case 13: { /* a new view after structural changes outside any loop */
        views_move_view_t v = views_query_move(w);
        views_destroy(w, v.entity[0]);
        v = views_query_move(w);
        for (size_t i = 0; i < v.count; i++) VIEWS_MOVE_FIELD(v, position, y, i) = 1;
        break;
    }
    }
    views_world_free(w);
}

static void expect_abort(int which, const char *message) {
    char err[1024];
    bool died = check_aborts(run_case, which, err, sizeof err);
    CHECK(died == (VIEWS_CHECKS && VIEWS__LOOP_CHECKS));
    if (VIEWS_CHECKS && VIEWS__LOOP_CHECKS && !strstr(err, message)) {
        fprintf(stderr, "case %d: expected \"%s\" in:\n%s\n", which, message, err);
        CHECK(false);
    }
}

int main(void) {
    if (getenv("LOOP_CHECKS_CASE")) { run_case(atoi(getenv("LOOP_CHECKS_CASE"))); return 0; } /* one case, in this process (a debugger) */
    expect_abort(0, "ecsgen check failed: views_destroy of an entity other than it.id inside a macro loop "
                    "(VIEWS_EACH...): record it with views_defer_destroy and call views_apply_deferred after the "
                    "loop (docs/iteration.md)\n");
    expect_abort(1, "ecsgen check failed: views_remove_velocity of an entity other than it.id inside a macro loop "
                    "(VIEWS_EACH...): record it with views_defer_remove_velocity and call views_apply_deferred after "
                    "the loop (docs/iteration.md)\n");
    expect_abort(2, "ecsgen check failed: views_query_move(): its view was used after a structural change; inside a "
                    "view loop record spawns with components, destroys, adds and removes with the views_defer_ "
                    "calls and apply them after the loop (docs/iteration.md). The change: add position\n");
    expect_abort(3, "views_query_draw(): its view was used after a structural change; inside a view loop record "
                    "spawns with components, destroys, adds and removes with the views_defer_ calls and apply them "
                    "after the loop (docs/iteration.md). The change: destroy\n");
    expect_abort(4, "views_apply_deferred() inside a macro loop (VIEWS_EACH...): call it after the loop");
    expect_abort(5, "views_destroy of an entity other than it.id inside a macro loop");
    expect_abort(6, "ecsgen check failed: views_world_free(): 1 deferred change (recorded with the views_defer_ "
                    "calls) was never applied and would be lost: call views_apply_deferred(w) after the loop that "
                    "records it (docs/iteration.md)\n");
    expect_abort(7, "ecsgen check failed: views_world_to_json(): 1 deferred change (recorded with the views_defer_ "
                    "calls) was never applied and would be missing from the document: call views_apply_deferred(w) "
                    "before saving (docs/iteration.md)\n");
    expect_abort(8, "ecsgen check failed: views_world_save(): 2 deferred changes (recorded with the views_defer_ "
                    "calls) were never applied and would be missing from the document: call views_apply_deferred(w) "
                    "before saving (docs/iteration.md)\n");
    expect_abort(9, "ecsgen check failed: views_recorder_record: position.x changed at byte ");
    expect_abort(17, "ecsgen check failed: views_recorder_record() inside a macro loop (VIEWS_EACH...): call it after "
                     "the loop (docs/iteration.md)\n");
    expect_abort(19, "ecsgen check failed: views_snapshot_restore: position.x changed at byte ");
    char err[1024];
    for (int which = 10; which <= 20; which++) {
        if (which == 17 || which == 19) continue; /* above */
        bool died = check_aborts(run_case, which, err, sizeof err);
        CHECK(!died);
        if (died) fprintf(stderr, "case %d aborted:\n%s\n", which, err);
    }
    return check_finish(VIEWS_CHECKS ? "test_loop_checks" : "test_loop_checks (checks off)");
}
