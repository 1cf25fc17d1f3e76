/* ecs_json_migrate.c: renames and drops in a saved world's JSON tree (see the header). */
#include "ecs_json_migrate.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static void note(ecs_load_report_t *r, size_t *counter, const char *path, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static void note(ecs_load_report_t *r, size_t *counter, const char *path, const char *fmt, ...) {
    if (!r) return;
    (*counter)++;
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    int n = snprintf(line, sizeof line, "%s: ", path);
    vsnprintf(line + n, sizeof line - (size_t)n, fmt, ap);
    va_end(ap);
    size_t used = strlen(r->text), len = strlen(line);
    if (r->truncated || used + len + 2 > sizeof r->text - ECS_JSON_REPORT_FOOTER) { /* room kept for the footer */
        r->truncated = true;
        return;
    }
    memcpy(r->text + used, line, len);
    memcpy(r->text + used + len, "\n", 2);
}

/* When lines were left out, a last line says how many and where to see them all. */
static void footer(ecs_load_report_t *r) {
    if (!r->truncated) return;
    size_t shown = 0, used = strlen(r->text);
    for (const char *p = r->text; *p; p++) shown += *p == '\n';
    snprintf(r->text + used, sizeof r->text - used,
             "... and %zu more changes not listed (the report keeps %zu bytes; the counts are complete; "
             "ecsgen-dump check --schema SCHEMA.json FILE lists every one)\n",
             r->renamed + r->dropped - shown, sizeof r->text);
}

static bool listed(const char *key, const char *const *names, size_t n) {
    for (size_t k = 0; k < n; k++)
        if (strcmp(key, names[k]) == 0) return true;
    return false;
}

static const char *renamed(const char *key, const ecs_json_rename_t *renames, size_t n) {
    for (size_t k = 0; k < n; k++)
        if (strcmp(key, renames[k].from) == 0) return renames[k].to;
    return NULL;
}

/* Renames old keys of obj to their new names, in place of the old key. */
static bool rename_keys(ecs_json_ctx_t *c, cJSON *obj, const ecs_json_rename_t *renames, size_t n,
                        ecs_load_report_t *r) {
    for (cJSON *item = obj->child, *next; item; item = next) {
        next = item->next;
        const char *to = item->string ? renamed(item->string, renames, n) : NULL;
        if (!to) continue;
        size_t mark = ecs_json_enter(c, item->string);
        if (cJSON_GetObjectItemCaseSensitive(obj, to))
            return ecs_json_fail(c, "'%s' is the old name of '%s', and both are given (keep one)", item->string, to);
        note(r, &r->renamed, c->path, "renamed to %s", to);
        ecs_json_leave(c, mark);
        cJSON_DetachItemViaPointer(obj, item);
        cJSON_AddItemToObject(obj, to, item);
    }
    return true;
}

/* Drops keys of obj that are removed, or (lax) unknown: not in keep and not `also`. */
static void drop_keys(ecs_json_ctx_t *c, cJSON *obj, const char *const *removed, size_t removed_count,
                      bool lax, const char *also, const ecs_json_migration_t *m, bool singletons,
                      const ecs_json_component_map_t *of, ecs_load_report_t *r) {
    for (cJSON *item = obj->child, *next; item; item = next) {
        next = item->next;
        if (!item->string || (also && strcmp(item->string, also) == 0)) continue;
        bool known;
        if (of) {
            known = listed(item->string, of->fields, of->field_count);
        } else {
            known = false;
            for (size_t k = 0; k < m->component_count && !known; k++)
                known = m->components[k].singleton == singletons && strcmp(m->components[k].name, item->string) == 0;
        }
        if (known) continue;
        bool gone = listed(item->string, removed, removed_count);
        if (!gone && !lax) continue; /* the reader refuses it, naming it */
        size_t mark = ecs_json_enter(c, item->string);
        if (of) note(r, &r->dropped, c->path, "%s field of %s, dropped", gone ? "removed" : "unknown", of->name);
        else note(r, &r->dropped, c->path, "%s %s, dropped", gone ? "removed" : "unknown", singletons ? "singleton" : "component");
        ecs_json_leave(c, mark);
        cJSON_Delete(cJSON_DetachItemViaPointer(obj, item));
    }
}

/* One entity object, or the singletons object: its components, then each one's fields. */
static bool migrate_object(ecs_json_ctx_t *c, cJSON *obj, const ecs_json_migration_t *m, bool lax, bool singletons,
                           ecs_load_report_t *r) {
    if (!rename_keys(c, obj, m->renames, m->rename_count, r)) return false;
    drop_keys(c, obj, m->removed, m->removed_count, lax, singletons ? NULL : "id", m, singletons, NULL, r);
    for (size_t k = 0; k < m->component_count; k++) {
        const ecs_json_component_map_t *cm = &m->components[k];
        if (cm->singleton != singletons || !cm->fields) continue;
        cJSON *value = cJSON_GetObjectItemCaseSensitive(obj, cm->name);
        if (!cJSON_IsObject(value)) continue;
        size_t mark = ecs_json_enter(c, cm->name);
        if (!rename_keys(c, value, cm->renames, cm->rename_count, r)) return false;
        drop_keys(c, value, cm->removed, cm->removed_count, lax, NULL, m, singletons, cm, r);
        ecs_json_leave(c, mark);
    }
    return true;
}

bool ecs_json_migrate(ecs_json_ctx_t *c, cJSON *doc, const ecs_json_migration_t *m, bool lax,
                      ecs_load_report_t *report) {
    ecs_load_report_t scratch;
    ecs_load_report_t *r = report ? report : &scratch;
    memset(r, 0, sizeof *r);
    if (!cJSON_IsObject(doc)) return true;
    cJSON *group = cJSON_GetObjectItemCaseSensitive(doc, "singletons");
    if (cJSON_IsObject(group)) {
        size_t mark = ecs_json_enter(c, "singletons");
        if (!migrate_object(c, group, m, lax, true, r)) return false;
        ecs_json_leave(c, mark);
    }
    group = cJSON_GetObjectItemCaseSensitive(doc, "entities");
    if (cJSON_IsArray(group)) {
        size_t mark = ecs_json_enter(c, "entities"), k = 0;
        for (cJSON *o = group->child; o; o = o->next, k++) {
            size_t at = ecs_json_enter_index(c, k);
            if (cJSON_IsObject(o) && !migrate_object(c, o, m, lax, false, r)) return false;
            ecs_json_leave(c, at);
        }
        ecs_json_leave(c, mark);
    }
    footer(r);
    return true;
}
