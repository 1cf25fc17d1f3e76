/* test_ecs_recorder.c: the flight recorder's schema-free half. The ring of frames keeps the
 * last `capacity` worlds (here a world is one array block) and rebuilds each from the latest
 * and the deltas; a recording's delta applies to a frame's document, and a bad one is refused
 * with its path. (The generated recorders, save_all and load: tests/api/test_snapshot.c.) */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ecs_recorder.h"

static void test_ring(void) {
    ecs_frames_t f;
    int32_t world[64];
    CHECK(ecs_frames_init(&f, 3));
    CHECK(f.capacity == 3u && f.frames == 0u && ecs_frames_image(&f, 0) == NULL);
    for (int frame = 0; frame < 5; frame++) { /* frame k: every value k, and one more element */
        for (int i = 0; i < 64; i++) world[i] = frame;
        ecs_snap_block_t b = ECS_SNAP_WHOLE(world, 60 + frame);
        bool marked = true;
        CHECK(ecs_frames_record(&f, &b, 1, 0, &marked));
        CHECK(!marked); /* no epoch: every block compared */
    }
    CHECK_EQ(f.frames, 3u);
    for (uint32_t back = 0; back < 3; back++) { /* frames 4, 3, 2 */
        const ecs_snap_image_t *img = ecs_frames_image(&f, back);
        CHECK(img != NULL && img->count == 1u);
        if (!img) continue;
        int32_t want = 4 - (int32_t)back;
        CHECK_EQ(img->blocks[0].size, (60u + (uint32_t)want) * sizeof(int32_t));
        const int32_t *v = (const int32_t *)(const void *)img->blocks[0].data;
        uint32_t wrong = 0;
        for (int i = 0; i < 60 + want; i++) wrong += v[i] != want;
        CHECK_EQ(wrong, 0u);
    }
    CHECK(ecs_frames_image(&f, 3) == NULL);
    CHECK(ecs_frames_memory(&f) >= 3u * 60u * sizeof(int32_t));
    ecs_frames_clear(&f);
    CHECK(f.frames == 0u && ecs_frames_image(&f, 0) == NULL);
    ecs_frames_fini(&f);
    CHECK(f.back == NULL && f.capacity == 0u);
    CHECK(ecs_frames_init(&f, 0) && f.capacity == 1u); /* 0 counts as 1: the head only */
    ecs_snap_block_t b = ECS_SNAP_WHOLE(world, 4);
    CHECK(ecs_frames_record(&f, &b, 1, 0, NULL) && ecs_frames_record(&f, &b, 1, 0, NULL) && f.frames == 1u);
    ecs_frames_fini(&f);
}

/* An entity object { "id": e, key: value }. */
static cJSON *entity(ecs_entity_t e, const char *key, double value) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddItemToObject(o, "id", ecs_json_make_entity(e));
    if (key) cJSON_AddNumberToObject(o, key, value);
    return o;
}

static char *applied(const char *frame_text, const char *delta_text, char message[600]) {
    cJSON *frame = cJSON_Parse(frame_text), *delta = cJSON_Parse(delta_text);
    ecs_error_t err = { 0 };
    ecs_json_ctx_t ctx;
    ecs_json_ctx_init(&ctx, &err);
    bool ok = frame && delta && ecs_recording_apply(&ctx, frame, delta);
    ecs_json_ctx_fini(&ctx);
    memcpy(message, err.message, sizeof err.message);
    char *text = ok ? cJSON_PrintUnformatted(frame) : NULL;
    cJSON_Delete(frame);
    cJSON_Delete(delta);
    return text;
}

static void test_apply(void) {
    ecs_entity_t a = ecs_entity_make(0, 0), b = ecs_entity_make(1, 2), c = ecs_entity_make(2, 0);
    cJSON *doc = cJSON_CreateObject(), *list = cJSON_CreateArray();
    cJSON_AddItemToObject(doc, "singletons", cJSON_CreateObject());
    cJSON_AddItemToObject(doc, "entities", list);
    cJSON_AddItemToArray(list, entity(a, "hp", 1));
    cJSON_AddItemToArray(list, entity(c, "hp", 3));
    char *frame = cJSON_PrintUnformatted(doc);
    cJSON_Delete(doc);
    /* b new in slot 1 (between a and c), a removed, c's hp changed, a singleton set */
    cJSON *d = cJSON_CreateObject(), *removed = cJSON_CreateArray(), *set = cJSON_CreateArray(), *changed = cJSON_CreateArray();
    cJSON *singletons = cJSON_CreateObject();
    cJSON_AddNumberToObject(singletons, "clock", 9);
    cJSON_AddItemToObject(d, "singletons", singletons);
    cJSON_AddItemToArray(removed, ecs_json_make_entity(a));
    cJSON_AddItemToObject(d, "removed", removed);
    cJSON_AddItemToArray(set, entity(b, "hp", 2));
    cJSON_AddItemToObject(d, "entities", set);
    cJSON_AddItemToArray(changed, entity(c, "hp", 30));
    cJSON_AddItemToObject(d, "changed", changed);
    char *delta = cJSON_PrintUnformatted(d);
    cJSON_Delete(d);
    char message[600];
    char *out = applied(frame, delta, message);
    CHECK(out != NULL);
    if (out) { /* slot order: b (slot 1), then c (slot 2); a gone */
        cJSON *o = cJSON_Parse(out);
        const cJSON *l = cJSON_GetObjectItemCaseSensitive(o, "entities");
        CHECK_EQ(cJSON_GetArraySize(l), 2);
        CHECK(cJSON_GetObjectItemCaseSensitive(l->child, "hp")->valuedouble == 2);
        CHECK(cJSON_GetObjectItemCaseSensitive(l->child->next, "hp")->valuedouble == 30);
        CHECK(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(o, "singletons"), "clock")->valuedouble == 9);
        cJSON_Delete(o);
    }
    free(out);
    /* Bad deltas: refused with where. */
    CHECK(applied(frame, "{\"removed\": 3}", message) == NULL && strstr(message, "removed") && strstr(message, "expected an array"));
    CHECK(applied(frame, "{\"colour\": []}", message) == NULL && strstr(message, "colour"));
    char bad[200];
    char id[24];
    ecs_json_format_id(b, id);
    snprintf(bad, sizeof bad, "{\"changed\": [{\"id\": \"%s\", \"hp\": 1}]}", id); /* b is not in the frame */
    CHECK(applied(frame, bad, message) == NULL && strstr(message, "changed[0].id") && strstr(message, "no entity with this id"));
    ecs_json_format_id(a, id);
    snprintf(bad, sizeof bad, "{\"changed\": [{\"id\": \"%s\", \"mana\": 1}]}", id); /* a has no mana */
    CHECK(applied(frame, bad, message) == NULL && strstr(message, "changed[0].mana"));
    free(frame);
    free(delta);
}

int main(void) {
    test_ring();
    test_apply();
    return check_finish("test_ecs_recorder");
}
