/* test_api_assert.c: in a debug build (no NDEBUG), get on a stale id or a missing component
 * asserts. Each call runs in a child process, which must die of SIGABRT; the parent checks.
 * Built without NDEBUG only (meson skips it otherwise; see test_api_ndebug.c for that side). */
#define _POSIX_C_SOURCE 200809L

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "kit_ecs.h"

#ifdef NDEBUG
int main(void) {
    puts("test_api_assert: NDEBUG build, asserts are off: skipped");
    return 77; /* meson: skipped */
}
#else

enum { STALE, ABSENT, NULL_ID, LIVE };

/* Runs one get in a child; true when the child was killed by SIGABRT. */
static bool get_aborts(int what) {
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) return false;
    if (pid == 0) {
        if (!freopen("/dev/null", "w", stderr)) _exit(3); /* the expected assert message */
        kit_world_t *w = kit_world_new();
        ecs_entity_t e = kit_spawn(w, &(kit_spawn_desc_t){ .pos = &KIT_POS_DEFAULT });
        if (what == STALE) kit_destroy(w, e);
        ecs_entity_t id = what == NULL_ID ? ECS_NULL : e;
        volatile double x = what == ABSENT ? kit_get_vel(w, id).dx : kit_get_pos(w, id).y;
        (void)x;
        kit_world_free(w);
        _exit(0);
    }
    int status;
    if (waitpid(pid, &status, 0) != pid) return false;
    return WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT;
}

int main(void) {
    CHECK(get_aborts(STALE));
    CHECK(get_aborts(ABSENT));
    CHECK(get_aborts(NULL_ID));
    CHECK(!get_aborts(LIVE)); /* and a valid get does not */
    return check_finish("test_api_assert");
}
#endif
