/* fuzz_api.c: libFuzzer target for the generated API (schemas tests/fuzz/api.json, growable,
 * and tests/fuzz/api_fixed.json, max_entities 24; both include api_parts.json). The input is
 * an op sequence: spawns (desc, NULL, prefabs), destroys and component calls aimed at live,
 * stale, never-issued and made-up ids, singletons, macro loops and view loops with the
 * changes docs/iteration.md allows inside them, the command buffer, JSON round trips, and
 * allocation failures armed by the input. A shadow model checks every call's result and,
 * after every op, liveness, has/get/ref of every component, the count and the buffer;
 * loops must visit each entity that matched throughout exactly once, views must list the
 * matches once each with their values. Any divergence aborts. See docs/reliability.md. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_ecs.h"
#include "apf_ecs.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

#define EXPECT(cond, what)                                                      \
    do {                                                                        \
        if (!(cond)) {                                                          \
            fprintf(stderr, "fuzz_api:%d: %s (%s)\n", __LINE__, what, #cond);   \
            abort();                                                            \
        }                                                                       \
    } while (0)

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)

enum { MAX_LIVE = 48, FIXED_LIMIT = 24, N_STALE = 16, MAX_CMDS = 256, TALLY = 1024 };
enum { HAS_POS = 1, HAS_VEL = 2, HAS_KINDS = 4, HAS_MARKED = 8 };
enum { OP_DESTROY, OP_ADD, OP_SET, OP_REMOVE };
/* The loops: EACH(pos), EACH_MOVE, EACH_FAST, EACH_TAGGED, EACH_WITHOUT((vel), pos, kinds), EACH(marked),
 * EACH_BUILT (an owned query: its group's rows). */
enum { Q_POS, Q_MOVE, Q_FAST, Q_TAGGED, Q_KINDS_NO_VEL, Q_MARKED, Q_BUILT, Q_KINDS };

/* ---- The input ------------------------------------------------------------------------ */

typedef struct {
    const unsigned char *p;
    size_t n, at;
} rd_t;

static bool rd_done(const rd_t *r) {
    return r->at >= r->n;
}

static uint8_t rd_u8(rd_t *r) {
    return r->at < r->n ? r->p[r->at++] : 0;
}

static uint16_t rd_u16(rd_t *r) {
    uint16_t lo = rd_u8(r); /* one read per statement: the order is the input's */
    return (uint16_t)(lo | rd_u8(r) << 8);
}

static uint32_t rd_u32(rd_t *r) {
    uint32_t lo = rd_u16(r);
    return lo | (uint32_t)rd_u16(r) << 16;
}

static uint64_t rd_u64(rd_t *r) {
    uint64_t lo = rd_u32(r);
    return lo | (uint64_t)rd_u32(r) << 32;
}

/* Floats: a small integer most of the time, else raw bits (NaNs, infinities, denormals). */
static float rd_f32(rd_t *r) {
    uint8_t b = rd_u8(r);
    if (b < 0xc0) return (float)(int8_t)b * 0.5f;
    uint32_t bits = rd_u32(r);
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

static double rd_f64(rd_t *r) {
    uint8_t b = rd_u8(r);
    if (b < 0xc0) return (double)(int8_t)b * 0.25;
    uint64_t bits = rd_u64(r);
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}

/* A NUL-terminated string of up to size-1 characters, zero-filled after: quotes,
 * backslashes, control characters and UTF-8 included. */
static void rd_text(rd_t *r, char *buf, size_t size) {
    static const char alphabet[] = "ab\"\\/\n\t\x01\x7f" "\xc3 zZ09{}";
    size_t len = rd_u8(r) % size;
    memset(buf, 0, size);
    for (size_t k = 0; k < len; k++) {
        char ch = alphabet[rd_u8(r) % (sizeof alphabet - 1)];
        if ((unsigned char)ch != 0xc3) buf[k] = ch;
        else if (k + 1 < len) buf[k] = ch, buf[++k] = (char)0xa9; /* whole UTF-8 only */
        else buf[k] = 'c';
    }
}

/* Same value: bit for bit, except that NaNs of one sign are alike (JSON keeps no payload). */
static bool same_f32(float a, float b) {
    if (isnan(a) && isnan(b)) return !signbit(a) == !signbit(b);
    return !memcmp(&a, &b, sizeof a);
}

static bool same_f64(double a, double b) {
    if (isnan(a) && isnan(b)) return !signbit(a) == !signbit(b);
    return !memcmp(&a, &b, sizeof a);
}

/* ---- Allocation faults ---------------------------------------------------------------- */

/* Counts allocations; when armed, fails the countdown-th from then on, once or onwards. */
static struct {
    unsigned long calls, injected, mark;
    unsigned countdown;
    bool onwards, failing;
} hook;

static void *hook_realloc(void *ptr, size_t size, void *user) {
    (void)user;
    if (size == 0) {
        free(ptr);
        return NULL;
    }
    hook.calls++;
    if (size > ((size_t)16 << 20)) return NULL;
    if (hook.failing || (hook.countdown && --hook.countdown == 0)) {
        hook.failing = hook.onwards;
        hook.injected++;
        return NULL;
    }
    return realloc(ptr, size);
}

static void fault_arm(uint8_t countdown, uint8_t mode) {
    hook.countdown = countdown % 64u;
    hook.onwards = mode & 1;
    hook.failing = false;
}

static void fault_mark(void) {
    hook.mark = hook.injected;
}

static bool fault_hit(void) {
    return hook.injected != hook.mark;
}

/* ---- The two variants ----------------------------------------------------------------- */

#define P api_
#define PU API_
#define FIXED 0
#include "fuzz_api_body.h"
#undef P
#undef PU
#undef FIXED

#define P apf_
#define PU APF_
#define FIXED 1
#include "fuzz_api_body.h"
#undef P
#undef PU
#undef FIXED

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
    static bool ready;
    if (!ready) {
        ecs_set_allocator(&(ecs_allocator_t){ hook_realloc, NULL });
        ready = true;
    }
    if (size == 0) return 0;
    rd_t r = { data + 1, size - 1, 0 };
    hook.countdown = 0;
    hook.failing = false;
    if (data[0] & 1) apf_run(&r);
    else api_run(&r);
    return 0;
}
