/* test_system_checks.c: the systems' debug checks (docs/systems.md; CHK_CHECKS, on unless
 * NDEBUG; this test's build forces them on, or off with -DCHK_CHECKS=0). Each case runs one
 * step in a child process: a body that makes a structural change directly, writes through
 * the world to a component its system does not write, or records a change its system did not
 * declare must abort with a message naming the system and the call; legal bodies must not.
 * With the checks off the same misuse runs on unnoticed. */
#define _POSIX_C_SOURCE 200809L

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "check_abort.h"
#include "chk_ecs.h"

static int misuse; /* which misuse the bodies commit (0: none) */

void chk_system_mover(chk_mover_t *s) {
    for (size_t i = 0; i < s->count; i++)
        CHK_MOVER_FIELD(s, position, x, i) += CHK_MOVER_FIELD(s, velocity, x, i) * (float)CHK_MOVER_FIELD(s, clock, frame, 0);
    if (!s->count) return;
    switch (misuse) {
    case 4: chk_destroy(s->world, s->entity[0]); break;
    case 5: chk_add_frozen(s->world, s->entity[0]); break;
    case 6: chk_defer_destroy(s->world, s->entity[0]); break;
    case 7: chk_defer_add_frozen(s->world, s->entity[0]); break;
    case 8: chk_defer_spawn(s->world, NULL); break;
    default: break;
    }
}

void chk_system_reader(chk_reader_t *s) {
    float sum = 0;
    for (size_t i = 0; i < s->count; i++) {
        sum += CHK_READER_FIELD(s, position, x, i);
        sum += chk_get_position(s->world, s->entity[i]).y; /* reading through the world: fine */
        if (misuse == 9 && i == s->count / 2u) chk_set_position(s->world, s->entity[i], (chk_position_t){ 0, 0 });
    }
    (void)sum;
    if (!s->count) return;
    switch (misuse) {
    case 1: chk_set_position(s->world, s->entity[0], (chk_position_t){ 1, 2 }); break;
    case 2: *chk_ref_position(s->world, s->entity[0]).x = 3; break;
    case 3: chk_singleton_clock(s->world)->frame++; break;
    case 10: chk_defer_destroy(s->world, s->entity[0]); break; /* declared: fine */
    default: break;
    }
}

static void run_case(int which) {
    misuse = which;
    chk_world_t *w = chk_world_new();
    unsigned n = which == 9 ? 20000u : 8u;
    for (unsigned k = 0; k < n; k++)
        chk_spawn(w, &(chk_spawn_desc_t){ .position = &(chk_position_t){ (float)k, 0 },
                                          .velocity = &(chk_velocity_t){ 1, 1 } });
    if (which == 9) chk_set_threads(w, 4); /* the misuse happens on a pool thread */
    chk_step(w, 0.1f);
    chk_world_free(w);
}

static void expect_abort(int which, const char *message) {
    char err[2048];
    bool died = check_aborts(run_case, which, err, sizeof err);
    CHECK(died == CHK_CHECKS);
    if (CHK_CHECKS && !strstr(err, message)) {
        fprintf(stderr, "case %d: expected \"%s\" in:\n%s\n", which, message, err);
        CHECK(false);
    }
}

int main(void) {
    expect_abort(1, "ecsgen check failed: system reader: chk_set_position writes a component the system does not "
                    "list in \"writes\" (read values with FIELD or get) (docs/systems.md)\n");
    expect_abort(2, "system reader: chk_ref_position writes a component the system does not list in \"writes\"");
    expect_abort(3, "system reader: chk_singleton_clock writes a component the system does not list in \"writes\"");
    expect_abort(4, "ecsgen check failed: system mover: remove position made directly in a system body: record it "
                    "with the chk_defer_ calls on s->world (docs/systems.md)\n");
    expect_abort(5, "system mover: add frozen made directly in a system body");
    expect_abort(6, "system mover: chk_defer_destroy destroys, and the system does not say \"destroys\": true");
    expect_abort(7, "system mover: frozen added or set (deferred), and the system does not list it in \"adds\"");
    expect_abort(8, "system mover: chk_defer_spawn spawns, and the system does not say \"spawns\": true");
    expect_abort(9, "system reader: chk_set_position writes a component the system does not list in \"writes\"");
    char err[2048];
    for (int which = 10; which <= 11; which++) {
        bool died = check_aborts(run_case, which, err, sizeof err);
        CHECK(!died);
        if (died) fprintf(stderr, "case %d aborted:\n%s\n", which, err);
    }
    return check_finish(CHK_CHECKS ? "test_system_checks" : "test_system_checks (checks off)");
}
