/* test_load_bytes.c: a load's memory is bounded in bytes, for every storage kind (ecs_json.h,
 * "The load's memory"). Schema sl: pos (slot, 2 x f32), blob (slot, u8[4096]) and 64 sparse
 * tags. An allocator installed with ecs_set_allocator counts the bytes the runtime and the
 * generated code hold, and their peak: documents that would make the load allocate far more
 * than they are long are refused before anything big is allocated, with a message naming the
 * entity and the cause; ordinary documents load within their budget. A recording
 * (sl_recorder_load) holds each of its frames to the same bound and its file to the same
 * size cap. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "sl_ecs.h"

/* Each block carries its size in front. Blocks above 1 GiB are refused, so that a loader
 * without the bound fails the checks below instead of taking the machine's memory. */
static size_t held, peak;

static void *counting_realloc(void *ptr, size_t size, void *user) {
    (void)user;
    size_t old = 0;
    char *base = ptr ? (char *)ptr - 16 : NULL;
    if (base) memcpy(&old, base, sizeof old);
    if (size == 0) {
        held -= old;
        free(base);
        return NULL;
    }
    if (size > ((size_t)1 << 30) || held - old + size > ((size_t)2 << 30)) return NULL;
    char *grown = realloc(base, size + 16);
    if (!grown) return NULL;
    memcpy(grown, &size, sizeof size);
    held = held - old + size;
    if (held > peak) peak = held;
    return grown + 16;
}

/* Loads text into a fresh world with options; returns whether it loaded, the peak rise in *rise. */
static bool load(const char *text, const sl_load_options_t *opts, ecs_error_t *err, size_t *rise) {
    sl_world_t *w = sl_world_new();
    CHECK(w != NULL);
    size_t before = held;
    peak = held;
    bool ok = sl_world_from_json_opts(w, text, opts, err);
    *rise = peak - before;
    sl_world_free(w);
    return ok;
}

/* A document of n entities, entity k at slot k * step with what `parts` writes. */
static char *document(int n, int step, const char *parts) {
    size_t cap = 128 + (size_t)n * (64 + strlen(parts)), len = 0;
    char *doc = malloc(cap);
    if (doc == NULL) { /* nothing to test without it */
        fprintf(stderr, "document: out of memory\n");
        exit(1);
    }
    len += (size_t)snprintf(doc + len, cap - len, "{\"schema\":\"sl\",\"version\":1,\"entities\":[");
    for (int k = 0; k < n; k++)
        len += (size_t)snprintf(doc + len, cap - len, "%s{\"id\":\"%dv0\"%s}", k ? "," : "", k * step, parts);
    snprintf(doc + len, cap - len, "]}");
    return doc;
}

/* The whole of a small file (a recording this test saved). */
static char *read_text(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = size >= 0 ? malloc((size_t)size + 1) : NULL;
    if (text && fread(text, 1, (size_t)size, f) == (size_t)size) text[size] = '\0';
    else free(text), text = NULL;
    fclose(f);
    return text;
}

int main(void) {
    ecs_set_allocator(&(ecs_allocator_t){ counting_realloc, NULL });
    ecs_error_t err;
    size_t rise;

    /* 1. 68 bytes, one slot component at slot 2^20 - 1: rows for every slot pool up to it
     * would be 4.3 GB. Refused, naming the entity and the rows. */
    const char *tiny = "{\"schema\":\"sl\",\"version\":1,\"entities\":[{\"id\":\"1048575v0\",\"pos\":{}}]}";
    CHECK_EQ(strlen(tiny), 68);
    CHECK(!load(tiny, NULL, &err, &rise));
    printf("68 bytes, slot 1048575: peak +%zu KiB: %s\n", rise >> 10, err.message);
    CHECK(strstr(err.message, "entities[0]: this load would allocate about 4129 MiB, mostly slot storage rows for "
                              "slots 0..1048575, 4104 bytes each: more than the 64 MiB a load of a 68-byte document may") != NULL);
    CHECK(strstr(err.message, "max_memory") != NULL);
    CHECK(rise < ((size_t)1 << 20));

    /* 2. 256 entities with the 64 tags, 4096 slots apart: a sparse page per tag per entity,
     * 16384 pages of 16 KiB (256 MiB) for a document of 170 KB. Refused. */
    char tags[64 * 12] = "";
    for (int t = 0; t < 64; t++) snprintf(tags + strlen(tags), sizeof tags - strlen(tags), ",\"t%d\":true", t);
    char *doc = document(256, 4096, tags);
    CHECK(!load(doc, NULL, &err, &rise));
    printf("256 x 64 tags 4096 apart (%zu bytes): peak +%zu KiB: %s\n", strlen(doc), rise >> 10, err.message);
    CHECK(strstr(err.message, "sparse pages of 16 KiB (members far apart)") != NULL);
    CHECK(rise < ((size_t)4 << 20));
    free(doc);

    /* 3. The same entities side by side: 64 pages. Loads, in a few MiB. */
    doc = document(256, 1, tags);
    CHECK(load(doc, NULL, &err, &rise));
    printf("256 x 64 tags side by side: peak +%zu KiB\n", rise >> 10);
    CHECK(rise < ((size_t)8 << 20));
    free(doc);

    /* 4. blob rows: 20,000 entities of `"blob":{}` (defaults: 4 KiB each for 27 bytes of
     * text), 530 KB in all, would take 134 MB of rows: refused at the 8193rd. */
    doc = document(20000, 1, ",\"blob\":{}");
    CHECK(!load(doc, NULL, &err, &rise));
    printf("20000 x blob {} (%zu bytes): peak +%zu KiB: %s\n", strlen(doc), rise >> 10, err.message);
    CHECK(strstr(err.message, "mostly slot storage rows for slots 0..8192, 4104 bytes each") != NULL);
    CHECK(rise < ((size_t)4 << 20));
    free(doc);

    /* 5. 3000 of them (17 MB of rows) load by default; max_memory sets the budget: 8 MiB
     * refuses them, 32 MiB loads them, and the load's peak stays within it. */
    doc = document(3000, 1, ",\"blob\":{}");
    CHECK(load(doc, NULL, &err, &rise));
    CHECK(!load(doc, &(sl_load_options_t){ .max_memory = (size_t)8 << 20 }, &err, &rise));
    printf("3000 x blob, max_memory 8 MiB: %s\n", err.message);
    CHECK(strstr(err.message, "more than the 8388608 bytes of the load option max_memory") != NULL);
    CHECK(load(doc, &(sl_load_options_t){ .max_memory = (size_t)32 << 20 }, &err, &rise));
    printf("3000 x blob, max_memory 32 MiB: loaded, peak +%zu KiB\n", rise >> 10);
    CHECK(rise < ((size_t)32 << 20));
    free(doc);

    /* 6. A world's own save loads back (its budget follows its length). */
    sl_world_t *w = sl_world_new();
    for (int k = 0; k < 100; k++) sl_spawn(w, &(sl_spawn_desc_t){ .pos = &(sl_pos_t){ (float)k, 1 }, .t3 = k % 2 });
    char *text = sl_world_to_json(w);
    CHECK(text != NULL && load(text, NULL, &err, &rise));
    free(text);
    sl_world_free(w);

    /* 7. A recording: each frame is loaded as a document and held to its bound. A delta that
     * puts case 1's entity (pos at slot 2^20 - 1) into frame 1 makes a frame of a hundred-odd
     * bytes that would allocate 4.3 GB: refused, naming the file, the frame and the entity,
     * before anything big is allocated; the recorder keeps the frames it had. (Slots beyond
     * max_slots: tests/api/test_snapshot.c, "4000000000v0".) */
    const char *rec_path = "test_load_bytes_rec.json", *bad_path = "test_load_bytes_bad.json";
    w = sl_world_new();
    sl_recorder_t *rec = sl_recorder_new(4), *loaded = sl_recorder_new(4);
    CHECK(w != NULL && rec != NULL && loaded != NULL);
    for (int f = 0; f < 3; f++) {
        sl_spawn(w, &(sl_spawn_desc_t){ .pos = &(sl_pos_t){ (float)f, 2 }, .t5 = true });
        CHECK(sl_recorder_record(rec, w));
    }
    uint64_t hash = sl_world_hash(w);
    CHECK(sl_recorder_save_all(rec, rec_path, &err));
    CHECK(sl_recorder_load(loaded, rec_path, &err) && sl_recorder_frames(loaded) == 3);
    text = read_text(rec_path);
    const char *at = text ? strstr(text, "\"deltas\":\t[") : NULL;
    CHECK(at != NULL);
    if (at) {
        size_t head = (size_t)(at - text) + strlen("\"deltas\":\t[");
        FILE *o = fopen(bad_path, "wb");
        CHECK(o != NULL);
        if (o) {
            fwrite(text, 1, head, o);
            fputs("{\"entities\": [{\"id\": \"1048575v0\", \"pos\": {}}]}, ", o);
            fputs(text + head, o);
            fclose(o);
        }
        size_t before = held;
        peak = held;
        CHECK(!sl_recorder_load(loaded, bad_path, &err));
        rise = peak - before;
        printf("recording, frame 1 with slot 1048575: peak +%zu KiB: %s\n", rise >> 10, err.message);
        CHECK(strstr(err.message, "test_load_bytes_bad.json: frame 1 (deltas[0]): entities[1]: this load would allocate about ") != NULL);
        CHECK(strstr(err.message, " MiB, mostly slot storage rows for slots 0..1048575, 4104 bytes each: more than the 64 MiB") != NULL);
        CHECK(rise < ((size_t)4 << 20));
    }
    free(text);
    /* The recorder as it was: its three frames, the newest the world recorded. */
    CHECK_EQ(sl_recorder_frames(loaded), 3);
    sl_world_t *back = sl_world_new();
    CHECK(back != NULL && sl_recorder_restore(loaded, back, 0));
    CHECK_EQ(sl_world_hash(back), hash);
    CHECK(sl_recorder_restore(loaded, back, 2) && sl_count(back) == 1);
    CHECK_EQ(sl_world_hash(w), hash);

    /* 8. A recording file larger than the size cap (ECS_JSON_MAX_BYTES_DEFAULT, 256 MiB;
     * sparse, no disk): refused by its size, unread; the recorder unchanged. */
    FILE *big = fopen(bad_path, "wb");
    CHECK(big != NULL);
    if (big) {
        CHECK(fseek(big, (long)(ECS_JSON_MAX_BYTES_DEFAULT + 1u), SEEK_SET) == 0 && fputc('}', big) != EOF);
        fclose(big);
        size_t before = held;
        peak = held;
        CHECK(!sl_recorder_load(loaded, bad_path, &err));
        rise = peak - before;
        printf("recording of 256 MiB + 2 bytes: peak +%zu KiB: %s\n", rise >> 10, err.message);
        CHECK(strstr(err.message, "test_load_bytes_bad.json: larger than the 268435456 bytes a load reads") != NULL);
        CHECK(rise < ((size_t)1 << 20));
    }
    CHECK_EQ(sl_recorder_frames(loaded), 3);
    CHECK(sl_recorder_restore(loaded, back, 0) && sl_world_hash(back) == hash);
    remove(bad_path);
    remove(rec_path);
    sl_world_free(back);
    sl_recorder_free(loaded);
    sl_recorder_free(rec);
    sl_world_free(w);

    ecs_set_allocator(NULL);
    return check_finish("load bytes");
}
