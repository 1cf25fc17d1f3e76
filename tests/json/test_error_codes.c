/* test_error_codes.c: err.code names the kind of failure (ecs_error_code_t) for a few bad
 * inputs of each kind, beside the message; a load that succeeds leaves ECS_ERR_NONE. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ak_ecs.h"
#include "check.h"

/* Loads text into a fresh world (opts may be NULL) and returns the error's code. */
static ecs_error_code_t load_code(const char *text, const ak_load_options_t *opts, ecs_error_t *err) {
    ak_world_t *w = ak_world_new();
    err->code = (ecs_error_code_t)-1; /* must be overwritten */
    bool ok = ak_world_from_json_opts(w, text, opts, err);
    ak_world_free(w);
    CHECK(ok == (err->code == ECS_ERR_NONE));
    return err->code;
}

int main(void) {
    ecs_error_t err;

    /* a good document: no error, an empty message */
    CHECK_EQ(load_code("{\"schema\": \"ak\", \"version\": 3, \"entities\": [{\"id\": \"0v0\"}]}", NULL, &err), ECS_ERR_NONE);
    CHECK(err.message[0] == '\0');

    /* not JSON */
    CHECK_EQ(load_code("{\"schema\": \"ak\",,}", NULL, &err), ECS_ERR_PARSE);
    CHECK(strstr(err.message, "malformed JSON") != NULL);
    CHECK_EQ(load_code("[03]", NULL, &err), ECS_ERR_PARSE); /* cJSON takes it; RFC 8259 does not */
    CHECK_EQ(load_code(NULL, NULL, &err), ECS_ERR_ARGUMENT);

    /* a document of another schema, of a newer version, without its header */
    CHECK_EQ(load_code("{\"schema\": \"game\", \"version\": 1}", NULL, &err), ECS_ERR_SCHEMA_MISMATCH);
    CHECK(strcmp(err.message, "schema: this document is for schema \"game\", not ak") == 0);
    CHECK_EQ(load_code("{\"schema\": \"ak\", \"version\": 4}", NULL, &err), ECS_ERR_SCHEMA_MISMATCH);
    CHECK_EQ(load_code("{\"entities\": []}", NULL, &err), ECS_ERR_SCHEMA_MISMATCH);

    /* this schema's document, breaking its rules */
    CHECK_EQ(load_code("{\"schema\": \"ak\", \"version\": 3, \"entities\": [{\"id\": \"0v0\", \"ints\": {\"c\": \"abc\"}}]}",
                       NULL, &err), ECS_ERR_INVALID);
    CHECK_EQ(load_code("{\"schema\": \"ak\", \"version\": 3, \"entities\": [{\"id\": \"0v0\", \"bogus\": {}}]}", NULL, &err),
             ECS_ERR_INVALID);
    CHECK_EQ(load_code("{\"schema\": \"ak\", \"version\": 3, \"entities\": [{\"id\": \"0v0\"}, {\"id\": \"0v1\"}]}", NULL, &err),
             ECS_ERR_INVALID); /* two ids of one slot */

    /* limits: the slots and the memory a load may use */
    const ak_load_options_t few_slots = { .max_slots = 4 };
    CHECK_EQ(load_code("{\"schema\": \"ak\", \"version\": 3, \"entities\": [{\"id\": \"9v0\"}]}", &few_slots, &err), ECS_ERR_LIMIT);
    CHECK(strstr(err.message, "slots this load restores") != NULL);
    const ak_load_options_t little_memory = { .max_memory = 1 };
    CHECK_EQ(load_code("{\"schema\": \"ak\", \"version\": 3, \"entities\": [{\"id\": \"0v0\"}]}", &little_memory, &err),
             ECS_ERR_LIMIT);

    /* files: none there, a directory, one larger than max_bytes, a NUL byte; a save into a
     * directory that is not there */
    char dir[] = "/tmp/ecs-error-codes-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char path[64];
    ak_world_t *w = ak_world_new();
    snprintf(path, sizeof path, "%s/none.json", dir);
    CHECK(!ak_world_load(w, path, &err));
    CHECK_EQ(err.code, ECS_ERR_IO);
    CHECK(strstr(err.message, "cannot open") != NULL);
    CHECK(!ak_world_load(w, dir, &err));
    CHECK_EQ(err.code, ECS_ERR_IO);
    CHECK(!ak_world_load(w, "", &err));
    CHECK_EQ(err.code, ECS_ERR_ARGUMENT);
    snprintf(path, sizeof path, "%s/big.json", dir);
    check_write_text(path, "{\"schema\": \"ak\", \"version\": 3, \"entities\": []}");
    CHECK(!ak_world_load_opts(w, path, &(ak_load_options_t){ .max_bytes = 8 }, &err));
    CHECK_EQ(err.code, ECS_ERR_LIMIT);
    CHECK(ak_world_load(w, path, &err)); /* the same file, within the default limit */
    CHECK_EQ(err.code, ECS_ERR_NONE);
    snprintf(path, sizeof path, "%s/other.json", dir);
    check_write_text(path, "{\"schema\": \"game\", \"version\": 1}");
    CHECK(!ak_world_load(w, path, &err));
    CHECK_EQ(err.code, ECS_ERR_SCHEMA_MISMATCH); /* kept when the file's name is put in front */
    CHECK(strncmp(err.message, path, strlen(path)) == 0);
    remove(path);
    snprintf(path, sizeof path, "%s/big.json", dir);
    remove(path);
    snprintf(path, sizeof path, "%s/missing/w.json", dir);
    CHECK(!ak_world_save(w, path, &err));
    CHECK_EQ(err.code, ECS_ERR_IO);
    ak_world_free(w);
    CHECK(rmdir(dir) == 0);
    return check_finish("test_error_codes");
}
