/* test_json_files.c: save and load with files: atomic replace, no temporary left behind,
 * and errors that name the path. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp, opendir */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ak_ecs.h"
#include "check.h"

static size_t files_in(const char *dir) {
    DIR *d = opendir(dir);
    size_t n = 0;
    for (struct dirent *e; d && (e = readdir(d));) n += strcmp(e->d_name, ".") && strcmp(e->d_name, ".."); /* temporaries start with '.' */
    if (d) closedir(d);
    return n;
}

int main(void) {
    char dir[] = "/tmp/ecs-json-files-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char path[128], missing[128], nodir[128];
    snprintf(path, sizeof path, "%s/world.json", dir);
    snprintf(missing, sizeof missing, "%s/missing.json", dir);
    snprintf(nodir, sizeof nodir, "%s/no/such/dir/world.json", dir);

    ak_world_t *w = ak_world_new();
    ecs_entity_t e = ak_spawn(w, &(ak_spawn_desc_t){ .text = &(ak_text_t){ "ab", "saved" }, .marked = true });
    ecs_error_t err;
    CHECK(ak_world_save(w, path, &err));
    CHECK(ak_world_save(w, path, &err)); /* replacing an existing file */
    CHECK_EQ(files_in(dir), 1);           /* no temporary file left beside it */

    ak_world_t *back = ak_world_new();
    CHECK(ak_world_load(back, path, &err));
    CHECK(ak_alive(back, e) && ak_has_marked(back, e) && !strcmp(ak_get_text(back, e).wide, "saved"));

    /* A missing file, a bad directory: errors naming the path; the world unchanged. */
    CHECK(!ak_world_load(back, missing, &err));
    CHECK(!strncmp(err.message, missing, strlen(missing)) && strstr(err.message, "cannot open") != NULL);
    CHECK(ak_alive(back, e));
    CHECK(!ak_world_save(w, nodir, &err));
    CHECK(!strncmp(err.message, nodir, strlen(nodir)));

    /* A bad document in a file: the path, then the JSON path. */
    FILE *f = fopen(missing, "w");
    fputs("{\"schema\": \"ak\", \"version\": 3, \"entities\": [{\"id\": \"0v0\", \"hidden\": 2}]}", f);
    fclose(f);
    char expected[256];
    snprintf(expected, sizeof expected, "%s: entities[0].hidden: a tag's value is true, got 2", missing);
    CHECK(!ak_world_load(back, missing, &err));
    CHECK(!strcmp(err.message, expected));
    CHECK(ak_alive(back, e));
    CHECK(ak_world_load(back, path, NULL)); /* err may be NULL */

    /* No path: a clear error, no crash, nothing changed. */
    CHECK(!ak_world_save(w, NULL, &err));
    CHECK(!strcmp(err.message, "save: no file path given (NULL or empty)"));
    CHECK(!ak_world_load(back, NULL, &err));
    CHECK(!strcmp(err.message, "load: no file path given (NULL or empty)"));
    CHECK(!ak_world_save(w, "", &err));
    CHECK(ak_alive(back, e));

    unlink(path);
    unlink(missing);
    rmdir(dir);
    ak_world_free(back);
    ak_world_free(w);
    return check_finish("test_json_files");
}
