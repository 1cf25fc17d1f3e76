/* fuzz_load.c: libFuzzer target for the generated JSON loader (schema tests/json/allkinds.json).
 * Any input must either load, and then save -> load -> save is byte-identical, or be refused
 * with a message, leaving the world exactly as it was. Sanitizers catch the rest. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ak_ecs.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

/* Refuses single allocations above 16 MiB, as a small machine would: a document naming
 * slot 4000000000 must fail cleanly (out of memory), not take the fuzzer down. */
static void *capped_realloc(void *ptr, size_t size, void *user) {
    (void)user;
    if (size == 0) {
        free(ptr);
        return NULL;
    }
    return size > ((size_t)16 << 20) ? NULL : realloc(ptr, size);
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
    ecs_entity_t a = ak_spawn(w, &(ak_spawn_desc_t){ .ints = &(ak_ints_t){ .h = 7 }, .marked = true });
    ak_spawn(w, &(ak_spawn_desc_t){ .link = &(ak_link_t){ .to = a } });
    ak_destroy(w, a);
    char *before = ak_world_to_json(w);
    ecs_error_t err;
    if (ak_world_from_json(w, text, &err)) {
        char *first = ak_world_to_json(w);
        ak_world_t *again = ak_world_new();
        expect(ak_world_from_json(again, first, &err), "a saved world does not load", err.message);
        char *second = ak_world_to_json(again);
        expect(!strcmp(first, second), "save -> load -> save differs", first);
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
    free(text);
    return 0;
}
