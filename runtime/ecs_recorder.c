/* ecs_recorder.c: the flight recorder's schema-free half (ecs_recorder.h): the ring of
 * frames, and a recording's deltas, written and read. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecs_alloc.h"
#include "ecs_json_fields.h"
#include "ecs_recorder.h"

/* ---- The ring of frames ---------------------------------------------------------------- */

bool ecs_frames_init(ecs_frames_t *f, uint32_t capacity) {
    memset(f, 0, sizeof *f);
    f->capacity = capacity ? capacity : 1u;
    if (f->capacity > 1u && !(f->back = ecs_calloc(f->capacity - 1u, sizeof *f->back))) return false;
    return true;
}

void ecs_frames_fini(ecs_frames_t *f) {
    ecs_snap_image_fini(&f->head);
    ecs_snap_image_fini(&f->scratch);
    for (uint32_t k = 0; f->back && k + 1u < f->capacity; k++) ecs_snap_delta_fini(&f->back[k]);
    ecs_free(f->back);
    memset(f, 0, sizeof *f);
}

void ecs_frames_clear(ecs_frames_t *f) {
    f->frames = 0;
    f->newest = 0;
    f->epoch = 0;
}

bool ecs_frames_record(ecs_frames_t *f, const ecs_snap_block_t *b, uint32_t n, uint64_t epoch, bool *marked) {
    bool ok, compared = false;
    if (!f->frames || f->capacity == 1u) {
        ok = ecs_snap_image_take(&f->head, b, n);
        f->newest = f->capacity - 1u; /* the next delta goes to back[0] */
    } else {
        uint32_t slot = (f->newest + 1u) % (f->capacity - 1u); /* the oldest, once full */
        compared = f->epoch && f->epoch == epoch;               /* nothing reset the marks since the last frame */
        ok = ecs_snap_record(&f->head, &f->back[slot], b, n, compared);
        f->newest = slot;
    }
    if (marked) *marked = ok && compared;
    if (!ok) {
        f->frames = 0;
        f->epoch = 0;
        return false;
    }
    if (f->frames < f->capacity) f->frames++;
    return true;
}

const ecs_snap_image_t *ecs_frames_image(ecs_frames_t *f, uint32_t back) {
    if (back >= f->frames) return NULL;
    if (!back) return &f->head;
    if (!ecs_snap_image_copy(&f->scratch, &f->head)) return NULL;
    for (uint32_t j = 0; j < back; j++) {
        uint32_t slot = (f->newest + (f->capacity - 1u) - j) % (f->capacity - 1u);
        if (!ecs_snap_apply(&f->scratch, &f->back[slot])) return NULL;
    }
    return &f->scratch;
}

size_t ecs_frames_memory(const ecs_frames_t *f) {
    size_t bytes = ecs_snap_image_memory(&f->head) + ecs_snap_image_memory(&f->scratch);
    for (uint32_t k = 0; f->back && k + 1u < f->capacity; k++) bytes += ecs_snap_delta_memory(&f->back[k]);
    return bytes + (f->capacity > 1u ? (size_t)(f->capacity - 1u) * sizeof *f->back : 0);
}

/* ---- A recording's JSON ----------------------------------------------------------------- */

bool ecs_recording_fail(ecs_error_t *err, const char *path, ecs_error_code_t code, const char *why) {
    if (err) {
        snprintf(err->message, sizeof err->message, "%s", why);
        err->code = code;
        ecs_json_error_in_file(err, path);
    }
    return false;
}

/* Whether objects a and b have the same keys in the same order. */
static bool ecs_recording_same_keys(const cJSON *a, const cJSON *b) {
    for (a = a->child, b = b->child; a && b; a = a->next, b = b->next)
        if (strcmp(a->string, b->string) != 0) return false;
    return !a && !b;
}

static const ecs_entities_t *ecs_recording_table(const ecs_meta_schema_t *meta, const void *world) {
    return (const ecs_entities_t *)(const void *)((const char *)world + meta->entities_offset);
}

cJSON *ecs_recording_delta(const ecs_meta_schema_t *meta, const void *a, const void *b,
                           const ecs_recording_writer_t *writer, void *scratch) {
    const ecs_entities_t *ta = ecs_recording_table(meta, a), *tb = ecs_recording_table(meta, b);
    cJSON *delta = cJSON_CreateObject(), *singletons = cJSON_CreateObject(), *removed = cJSON_CreateArray(),
          *set = cJSON_CreateArray(), *changed = cJSON_CreateArray();
    if (!ecs_json_put(delta, "singletons", singletons) || !ecs_json_put(delta, "removed", removed) ||
        !ecs_json_put(delta, "entities", set) || !ecs_json_put(delta, "changed", changed))
        goto fail;
    for (uint32_t k = 0; k < meta->component_count; k++) {
        const ecs_meta_component_t *m = &meta->components[k];
        if (m->kind != ECS_META_SINGLETON) continue;
        if (memcmp((const char *)a + m->singleton_offset, (const char *)b + m->singleton_offset, m->size) == 0) continue;
        if (!ecs_json_put(singletons, m->name, ecs_json_make_value(m, tb, (const char *)b + m->singleton_offset)))
            goto fail;
    }
    uint32_t used = ta->used > tb->used ? ta->used : tb->used;
    for (uint32_t i = 0; i < used; i++) {
        ecs_entity_t ea = ecs_entities_at(ta, i), eb = ecs_entities_at(tb, i);
        if (eb == ECS_NULL) {
            if (ea != ECS_NULL && !ecs_json_append(removed, ecs_json_make_entity(ea))) goto fail;
            continue;
        }
        cJSON *ob = writer->entity(b, eb, scratch), *oa = NULL, *patch = NULL;
        if (!ob) goto fail;
        if (ea == eb) {
            if (!(oa = writer->entity(a, ea, scratch))) {
                cJSON_Delete(ob);
                goto fail;
            }
            if (ecs_recording_same_keys(oa, ob)) { /* the same components: the changed values */
                patch = cJSON_CreateObject();
                for (cJSON *x = oa->child, *y = ob->child; patch && x; x = x->next, y = y->next) {
                    if (x != oa->child && cJSON_Compare(x, y, true)) continue;
                    cJSON *copy = cJSON_Duplicate(y, true);
                    if (!ecs_json_put(patch, y->string, copy)) cJSON_Delete(patch), patch = NULL;
                }
                cJSON_Delete(ob);
                ob = NULL;
                if (!patch) {
                    cJSON_Delete(oa);
                    goto fail;
                }
            }
            cJSON_Delete(oa);
        }
        if (patch) {
            if (patch->child && patch->child->next ? !ecs_json_append(changed, patch) : (cJSON_Delete(patch), false))
                goto fail;
        } else if (!ecs_json_append(set, ob)) {
            goto fail;
        }
    }
    return delta;
fail:
    cJSON_Delete(delta);
    return NULL;
}

bool ecs_recording_write(const char *path, const ecs_meta_schema_t *meta, uint32_t frames,
                         const ecs_recording_writer_t *writer, ecs_error_t *err) {
    if (!frames) return ecs_recording_fail(err, path, ECS_ERR_ARGUMENT, "the recorder holds no frames");
    cJSON *doc = cJSON_CreateObject(), *info = cJSON_CreateObject(), *deltas = cJSON_CreateArray();
    void *prev = NULL, *cur = NULL;
    void *scratch = ecs_realloc_array(NULL, 1, writer->scratch_bytes ? writer->scratch_bytes : 1u);
    bool ok = scratch && ecs_json_put(doc, "recording", info) && ecs_json_put(info, "format", ecs_json_make_uint(1)) &&
              ecs_json_put(info, "frames", ecs_json_make_uint(frames)) &&
              ecs_json_put(doc, "schema", cJSON_CreateString(meta->name)) &&
              ecs_json_put(doc, "version", ecs_json_make_uint(meta->version)) &&
              (prev = writer->frame(writer->user, frames - 1u)) != NULL &&
              ecs_json_put(doc, "first", writer->world_json(prev)) && ecs_json_put(doc, "deltas", deltas);
    for (uint32_t back = frames - 1u; ok && back-- > 0;) {
        ok = (cur = writer->frame(writer->user, back)) != NULL &&
             ecs_json_append(deltas, ecs_recording_delta(meta, prev, cur, writer, scratch));
        if (prev) writer->free_world(prev);
        prev = cur;
        cur = NULL;
    }
    if (prev) writer->free_world(prev);
    ecs_free(scratch);
    char *text = ok ? cJSON_Print(doc) : NULL;
    cJSON_Delete(doc);
    if (!text) return ecs_recording_fail(err, path, ECS_ERR_OUT_OF_MEMORY, "out of memory");
    ecs_error_t ignored;
    ok = ecs_json_write_file(path, text, err ? err : &ignored);
    free(text);
    return ok;
}

/* The id of entity object o of a frame that loaded already (ECS_NULL if it has none). */
static ecs_entity_t ecs_recording_id_of(const cJSON *o) {
    ecs_entity_t id = ECS_NULL;
    ecs_error_t ignored;
    ecs_json_ctx_t quiet;
    ecs_json_ctx_init(&quiet, &ignored);
    ecs_json_read_id(&quiet, o, &id);
    ecs_json_ctx_fini(&quiet);
    return id;
}

/* One entity of a frame being rebuilt: its slot and its object. */
typedef struct {
    uint32_t slot;
    cJSON *item;
} ecs_recording_slot_t;

static int ecs_recording_by_slot(const void *a, const void *b) {
    uint32_t x = ((const ecs_recording_slot_t *)a)->slot, y = ((const ecs_recording_slot_t *)b)->slot;
    return x < y ? -1 : x > y;
}

/* The entry of slot in at[0..n) (sorted), or NULL. */
static ecs_recording_slot_t *ecs_recording_find(ecs_recording_slot_t *at, size_t n, uint32_t slot) {
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2u;
        if (at[mid].slot < slot) lo = mid + 1u;
        else hi = mid;
    }
    return lo < n && at[lo].slot == slot ? &at[lo] : NULL;
}

bool ecs_recording_apply(ecs_json_ctx_t *ctx, cJSON *frame, const cJSON *d) {
    static const char *const keys[] = { "singletons", "removed", "entities", "changed" };
    if (!ecs_json_check_keys(ctx, d, keys, 4, "key of a delta")) return false;
    cJSON *singletons = cJSON_GetObjectItemCaseSensitive(frame, "singletons");
    cJSON *list = cJSON_GetObjectItemCaseSensitive(frame, "entities");
    const cJSON *ds = cJSON_GetObjectItemCaseSensitive(d, "singletons");
    const cJSON *removed = cJSON_GetObjectItemCaseSensitive(d, "removed"), *set = cJSON_GetObjectItemCaseSensitive(d, "entities");
    const cJSON *changed = cJSON_GetObjectItemCaseSensitive(d, "changed");
    size_t mark = ctx->len;
    if (ds && !cJSON_IsObject(ds)) return ecs_json_enter(ctx, "singletons"), ecs_json_fail(ctx, "expected an object");
    if (removed && !cJSON_IsArray(removed)) return ecs_json_enter(ctx, "removed"), ecs_json_fail(ctx, "expected an array");
    if (set && !cJSON_IsArray(set)) return ecs_json_enter(ctx, "entities"), ecs_json_fail(ctx, "expected an array");
    if (changed && !cJSON_IsArray(changed)) return ecs_json_enter(ctx, "changed"), ecs_json_fail(ctx, "expected an array");
    const cJSON *item;
    cJSON_ArrayForEach(item, ds) {
        cJSON *copy = cJSON_Duplicate(item, true);
        if (!copy) return ecs_json_oom(ctx);
        if (cJSON_GetObjectItemCaseSensitive(singletons, item->string)) cJSON_ReplaceItemInObjectCaseSensitive(singletons, item->string, copy);
        else if (!ecs_json_put(singletons, item->string, copy)) return ecs_json_oom(ctx);
    }
    size_t n = (size_t)cJSON_GetArraySize(list), extra = set ? (size_t)cJSON_GetArraySize(set) : 0, added = 0;
    ecs_recording_slot_t *at = ecs_realloc_array(NULL, n + extra + 1u, sizeof *at);
    if (!at) return ecs_json_oom(ctx);
    size_t k = 0;
    while (list->child) { /* detach every entity (the frame's ids loaded already) */
        cJSON *e = cJSON_DetachItemViaPointer(list, list->child);
        at[k++] = (ecs_recording_slot_t){ ecs_entity_index(ecs_recording_id_of(e)), e };
    }
    bool ok = true;
    size_t i = 0;
    cJSON_ArrayForEach(item, removed) {
        ecs_json_enter(ctx, "removed");
        ecs_json_enter_index(ctx, i++);
        ecs_entity_t e;
        ecs_recording_slot_t *old;
        if (!(ok = ecs_json_read_entity(ctx, item, &e))) break;
        if (e == ECS_NULL || !(old = ecs_recording_find(at, n, ecs_entity_index(e))) || !old->item) {
            ok = ecs_json_fail(ctx, "no entity in this slot in the frame before");
            break;
        }
        cJSON_Delete(old->item);
        old->item = NULL;
        ecs_json_leave(ctx, mark);
    }
    i = 0;
    if (!ok) set = NULL;
    cJSON_ArrayForEach(item, set) {
        ecs_json_enter(ctx, "entities");
        ecs_json_enter_index(ctx, i++);
        ecs_entity_t e;
        if (!(ok = ecs_json_read_id(ctx, item, &e))) break;
        cJSON *copy = cJSON_Duplicate(item, true);
        if (!copy) {
            ok = ecs_json_oom(ctx);
            break;
        }
        ecs_recording_slot_t *old = ecs_recording_find(at, n, ecs_entity_index(e));
        if (old) {
            cJSON_Delete(old->item);
            old->item = copy;
        } else {
            at[n + added++] = (ecs_recording_slot_t){ ecs_entity_index(e), copy };
        }
        ecs_json_leave(ctx, mark);
    }
    i = 0;
    if (!ok) changed = NULL;
    cJSON_ArrayForEach(item, changed) { /* values replaced in place: the same id, the same components */
        ecs_json_enter(ctx, "changed");
        ecs_json_enter_index(ctx, i++);
        ecs_entity_t e;
        if (!(ok = ecs_json_read_id(ctx, item, &e))) break;
        ecs_recording_slot_t *old = ecs_recording_find(at, n, ecs_entity_index(e));
        if (!old || !old->item || ecs_recording_id_of(old->item) != e) {
            ecs_json_enter(ctx, "id");
            ok = ecs_json_fail(ctx, "no entity with this id in the frame before");
            break;
        }
        for (const cJSON *v = item->child; ok && v; v = v->next) {
            if (!strcmp(v->string, "id")) continue;
            cJSON *copy = cJSON_Duplicate(v, true);
            if (!copy) ok = ecs_json_oom(ctx);
            else if (!cJSON_GetObjectItemCaseSensitive(old->item, v->string)) {
                cJSON_Delete(copy);
                ecs_json_enter(ctx, v->string);
                ok = ecs_json_fail(ctx, "not a component of the entity in the frame before (a new component goes in \"entities\")");
            } else {
                cJSON_ReplaceItemInObjectCaseSensitive(old->item, v->string, copy);
            }
        }
        if (!ok) break;
        ecs_json_leave(ctx, mark);
    }
    qsort(at, n + added, sizeof *at, ecs_recording_by_slot);
    for (k = 0; k < n + added; k++) {
        if (!at[k].item) continue;
        if (k + 1u < n + added && at[k + 1u].slot == at[k].slot && ok) ok = ecs_json_fail(ctx, "two entities in one slot");
        cJSON_AddItemToArray(list, at[k].item);
    }
    ecs_free(at);
    return ok;
}

bool ecs_recording_read(const char *path, const ecs_meta_schema_t *meta, uint32_t keep,
                        const ecs_recording_reader_t *reader, ecs_error_t *err) {
    ecs_error_t ignored;
    if (!err) err = &ignored;
    char *text = ecs_json_read_file(path, 0, err);
    if (!text) return false;
    cJSON *doc = ecs_json_parse(text, err);
    free(text);
    if (!doc) {
        ecs_json_error_in_file(err, path);
        return false;
    }
    static const char *const keys[] = { "recording", "schema", "version", "first", "deltas" };
    ecs_json_ctx_t ctx;
    ecs_json_ctx_init(&ctx, err);
    cJSON *frame = NULL;
    const cJSON *deltas = cJSON_GetObjectItemCaseSensitive(doc, "deltas");
    bool ok = ecs_json_check_keys(&ctx, doc, keys, 5, "key of a recording") && ecs_json_check_header(&ctx, doc, meta->name, meta->version);
    if (ok && !cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(doc, "recording"))) ok = ecs_json_fail(&ctx, "recording: expected an object");
    if (ok && !cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(doc, "first"))) ok = ecs_json_fail(&ctx, "first: expected a saved world");
    if (ok && !cJSON_IsArray(deltas)) ok = ecs_json_fail(&ctx, "deltas: expected an array");
    int total = ok ? cJSON_GetArraySize(deltas) + 1 : 0;
    if (ok) frame = cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(doc, "first"), true);
    if (ok && !frame) ok = ecs_json_oom(&ctx);
    const cJSON *d = ok ? deltas->child : NULL;
    for (int k = 0; ok && k < total; k++) {
        if (k > 0) {
            size_t mark = ecs_json_enter(&ctx, "deltas");
            ecs_json_enter_index(&ctx, (size_t)k - 1u);
            ok = ecs_recording_apply(&ctx, frame, d);
            ecs_json_leave(&ctx, mark);
            d = d->next;
            if (!ok) break;
        }
        /* frames before the newest `keep` are checked, not kept */
        char *frame_text = cJSON_PrintUnformatted(frame);
        if (!frame_text) {
            ok = ecs_json_oom(&ctx);
            break;
        }
        ecs_error_t why;
        ok = reader->load(reader->user, frame_text, &why);
        free(frame_text);
        if (!ok) { /* "frame K (deltas[K-1]): path: reason" */
            char prefix[48];
            snprintf(prefix, sizeof prefix, k ? "frame %d (deltas[%d]): " : "frame %d (first): ", k, k - 1);
            size_t pl = strlen(prefix), dl = strlen(why.message);
            if (dl > sizeof err->message - 1u - pl) dl = sizeof err->message - 1u - pl;
            memcpy(err->message, prefix, pl);
            memcpy(err->message + pl, why.message, dl);
            err->message[pl + dl] = '\0';
            err->code = why.code;
            break;
        }
        if (total - k <= (int)keep && !reader->keep(reader->user)) ok = ecs_json_oom(&ctx);
    }
    cJSON_Delete(frame);
    cJSON_Delete(doc);
    ecs_json_ctx_fini(&ctx);
    if (!ok) ecs_json_error_in_file(err, path);
    return ok;
}
