/* fuzz_load.c: libFuzzer target for the generated JSON loader (schemas tests/json/allkinds.json
 * and tests/fuzz/load_slots.json, slot storage beside sparse pools: every input goes to both).
 * Any input must either load, and then save -> load -> save is byte-identical, or be refused
 * with a message, leaving the world exactly as it was; and the bytes the load held at its
 * peak stay within its budget (ecs_json.h, "The load's memory"). Sanitizers catch the rest. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ak_ecs.h"
#include "fs_ecs.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

/* Counts the bytes held (each block carries its size in front) and their peak; refuses
 * single allocations above 16 MiB, as a small machine would, and any past 512 MiB held in
 * all: a document naming slot 4000000000 must fail cleanly, not take the fuzzer down. */
static size_t held, peak;

static void *capped_realloc(void *ptr, size_t size, void *user) {
    (void)user;
    size_t old = 0;
    char *base = ptr ? (char *)ptr - 16 : NULL;
    if (base) memcpy(&old, base, sizeof old);
    if (size == 0) {
        held -= old;
        free(base);
        return NULL;
    }
    if (size > ((size_t)16 << 20) || held - old + size > ((size_t)512 << 20)) return NULL;
    char *grown = realloc(base, size + 16);
    if (!grown) return NULL;
    memcpy(grown, &size, sizeof size);
    held = held - old + size;
    if (held > peak) peak = held;
    return grown + 16;
}

/* The bound a load's peak must keep: its budget, with the room growth by doubling takes
 * (old and new arrays at once) and the loader's own lists (ids and references, in
 * proportion to the text). */
static void expect_bounded(size_t before, size_t size, const char *text) {
    uint64_t bound = 2u * ECS_JSON_MEMORY_OF(size) + 64u * (uint64_t)size + ((uint64_t)1 << 20);
    if ((uint64_t)(peak - before) > bound) {
        fprintf(stderr, "fuzz_load: a load of %zu bytes held %zu bytes at its peak (bound %llu)\n%s\n", size,
                peak - before, (unsigned long long)bound, text);
        abort();
    }
}

static void expect(int ok, const char *what, const char *detail) {
    if (!ok) {
        fprintf(stderr, "fuzz_load: %s\n%s\n", what, detail ? detail : "");
        abort();
    }
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
    static int ready;
    if (!ready) {
        ecs_set_allocator(&(ecs_allocator_t){ capped_realloc, NULL });
        ready = 1;
    }
    char *text = malloc(size + 1);
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = '\0';

    ak_world_t *w = ak_world_new();
    size_t before_load;
    ecs_entity_t a = ak_spawn(w, &(ak_spawn_desc_t){ .ints = &(ak_ints_t){ .h = 7 }, .marked = true });
    ak_spawn(w, &(ak_spawn_desc_t){ .link = &(ak_link_t){ .to = a } });
    ak_destroy(w, a);
    char *before = ak_world_to_json(w);
    ecs_error_t err;
    before_load = peak = held;
    bool loaded = ak_world_from_json(w, text, &err);
    expect_bounded(before_load, size, text);
    if (loaded) {
        char *first = ak_world_to_json(w);
        ak_world_t *again = ak_world_new();
        expect(ak_world_from_json(again, first, &err), "a saved world does not load", err.message);
        char *second = ak_world_to_json(again);
        expect(!strcmp(first, second), "save -> load -> save differs", first);
        expect(ak_world_hash(w) == ak_world_hash(again), "a world and its reload hash differently", first);
        free(first);
        free(second);
        ak_world_free(again);
    } else {
        char *after = ak_world_to_json(w);
        expect(err.message[0] != '\0' && strchr(err.message, ':') != NULL, "refused without a message", text);
        expect(!strcmp(before, after), "a refused document changed the world", err.message);
        free(after);
    }
    free(before);
    ak_world_free(w);

    /* The slot-storage world, holding one entity (slot rows) and a reference. */
    fs_world_t *v = fs_world_new();
    ecs_entity_t b = fs_spawn(v, &(fs_spawn_desc_t){ .pos = &(fs_pos_t){ 1, 2 }, .seen = true });
    fs_spawn(v, &(fs_spawn_desc_t){ .hp = &(fs_hp_t){ 5, b } });
    before = fs_world_to_json(v);
    before_load = peak = held;
    loaded = fs_world_from_json(v, text, &err);
    expect_bounded(before_load, size, text);
    if (loaded) {
        char *first = fs_world_to_json(v);
        fs_world_t *again = fs_world_new();
        expect(fs_world_from_json(again, first, &err), "a saved slot world does not load", err.message);
        char *second = fs_world_to_json(again);
        expect(first && second && !strcmp(first, second), "save -> load -> save differs (slot world)", first);
        expect(fs_world_hash(v) == fs_world_hash(again), "a slot world and its reload hash differently", first);
        free(first);
        free(second);
        fs_world_free(again);
    } else {
        char *after = fs_world_to_json(v);
        expect(err.message[0] != '\0' && strchr(err.message, ':') != NULL, "refused without a message (slot world)", text);
        expect(before && after && !strcmp(before, after), "a refused document changed the slot world", err.message);
        free(after);
    }
    free(before);
    fs_world_free(v);
    free(text);
    return 0;
}
