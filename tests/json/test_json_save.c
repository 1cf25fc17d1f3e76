/* test_json_save.c: what a save does to the file system (the rules in ecs_json.h, "Files"):
 * the replaced file's mode kept, symbolic links written through, names up to NAME_MAX, the
 * directory flushed after the rename, the temporary file named as documented and never left
 * behind by a failed save, files that are not regular files never replaced. */
#define _GNU_SOURCE /* syscall: the fsync observer below */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ak_ecs.h"
#include "check.h"

/* ---- Observing fsync: this definition takes the C library's place in the test program;
 * it notes what is flushed and flushes it with the system call itself. -------------------- */

typedef struct synced {
    bool dir;
    ino_t ino;
    ino_t target_ino; /* for a directory: the inode the watched target had at that moment */
    char tmp_name[256]; /* for a file: its name in the watched directory, if found there */
} synced_t;
static synced_t synced[16];
static int synced_count;
static const char *watched_target; /* the path a save is expected to replace */
static const char *watched_dir;

static void name_of(ino_t ino, char out[256]) {
    out[0] = '\0';
    DIR *d = watched_dir ? opendir(watched_dir) : NULL;
    for (struct dirent *e; d && (e = readdir(d));)
        if (e->d_ino == ino) snprintf(out, 256, "%s", e->d_name);
    if (d) closedir(d);
}

int fsync(int fd) {
    struct stat st;
    if (synced_count < 16 && fstat(fd, &st) == 0) {
        synced_t *s = &synced[synced_count++];
        *s = (synced_t){ .dir = S_ISDIR(st.st_mode), .ino = st.st_ino };
        struct stat target;
        if (s->dir && watched_target && stat(watched_target, &target) == 0) s->target_ino = target.st_ino;
        if (!s->dir) name_of(st.st_ino, s->tmp_name);
    }
    return (int)syscall(SYS_fsync, fd);
}

/* ---- Helpers ------------------------------------------------------------------------- */

/* Every entry of dir but "." and "..", dot files included (a temporary file starts with '.'). */
static size_t entries_in(const char *dir) {
    DIR *d = opendir(dir);
    size_t n = 0;
    for (struct dirent *e; d && (e = readdir(d));) n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    if (d) closedir(d);
    return n;
}

static mode_t mode_of(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 ? st.st_mode & 07777 : (mode_t)-1;
}

/* Whether path holds a saved world in which e is alive with text.wide == wide. */
static bool holds(const char *path, ecs_entity_t e, const char *wide) {
    ak_world_t *w = ak_world_new();
    ecs_error_t err = { "", ECS_ERR_NONE };
    bool ok = ak_world_load(w, path, &err) && ak_alive(w, e) && ak_has_text(w, e) && !strcmp(ak_get_text(w, e).wide, wide);
    if (!ok) fprintf(stderr, "%s: %s\n", path, err.message);
    ak_world_free(w);
    return ok;
}

static char dir[] = "/tmp/ecs-json-save-XXXXXX";

static char *in_dir(const char *name) {
    static char paths[8][512];
    static int next;
    char *p = paths[next++ % 8];
    snprintf(p, sizeof paths[0], "%s/%s", dir, name);
    return p;
}

/* ---- The tests ----------------------------------------------------------------------- */

static void test_mode_is_kept(ak_world_t *w) {
    char *path = in_dir("private.json");
    ecs_error_t err;
    check_write_text(path, "{}");
    CHECK(chmod(path, 0600) == 0);
    CHECK(ak_world_save(w, path, &err));
    CHECK_EQ(mode_of(path), 0600); /* was 0644 (0666 less the umask): a private file made world-readable */
    CHECK(chmod(path, 0640) == 0);
    CHECK(ak_world_save(w, path, &err));
    CHECK_EQ(mode_of(path), 0640);
    unlink(path);
    /* A new file: 0666 less the umask, as fopen gives. */
    mode_t old_mask = umask(027);
    CHECK(ak_world_save(w, path, &err));
    CHECK_EQ(mode_of(path), 0640);
    unlink(path);
    umask(old_mask);
}

static void test_symlinks_are_written_through(ak_world_t *w, ecs_entity_t e) {
    char *sub = in_dir("sub"), *real = in_dir("sub/real.json"), *link = in_dir("link.json"),
         *chain = in_dir("chain.json"), *dangling = in_dir("dangling.json"), *created = in_dir("sub/created.json");
    ecs_error_t err;
    CHECK(mkdir(sub, 0700) == 0);
    check_write_text(real, "{}");
    CHECK(chmod(real, 0600) == 0);
    CHECK(symlink("sub/real.json", link) == 0); /* relative: from the link's directory */
    CHECK(symlink(link, chain) == 0);           /* absolute, to another link */
    CHECK(symlink("sub/created.json", dangling) == 0);

    CHECK(ak_world_save(w, link, &err));
    struct stat st;
    CHECK(lstat(link, &st) == 0 && S_ISLNK(st.st_mode)); /* was replaced by a regular file */
    CHECK(holds(real, e, "first"));
    CHECK_EQ(mode_of(real), 0600);

    ak_set_text(w, e, (ak_text_t){ "x", "second" });
    CHECK(ak_world_save(w, chain, &err));
    CHECK(lstat(chain, &st) == 0 && S_ISLNK(st.st_mode));
    CHECK(lstat(link, &st) == 0 && S_ISLNK(st.st_mode));
    CHECK(holds(real, e, "second"));

    CHECK(ak_world_save(w, dangling, &err)); /* a link to nothing yet: the file it names is made */
    CHECK(lstat(dangling, &st) == 0 && S_ISLNK(st.st_mode));
    CHECK(holds(created, e, "second"));

    CHECK_EQ(entries_in(dir), 4);  /* sub, link, chain, dangling: no temporary file */
    CHECK_EQ(entries_in(sub), 2); /* real.json, created.json */
    ak_set_text(w, e, (ak_text_t){ "x", "first" });

    /* A loop of links: refused, naming the path. */
    char *loop = in_dir("loop.json");
    CHECK(symlink("loop.json", loop) == 0);
    CHECK(!ak_world_save(w, loop, &err));
    CHECK(strstr(err.message, "loop.json: cannot follow its symbolic link") != NULL);
    unlink(loop);
    unlink(link), unlink(chain), unlink(dangling), unlink(real), unlink(created), rmdir(sub);
}

static void test_longest_file_name(ak_world_t *w, ecs_entity_t e) {
    char name[251];
    memset(name, 'n', 245);
    memcpy(name + 245, ".json", 6); /* 250 bytes: legal (NAME_MAX is 255) */
    char *path = in_dir(name);
    ecs_error_t err;
    CHECK(ak_world_save(w, path, &err)); /* failed: the temporary name was the name plus a suffix */
    CHECK(holds(path, e, "first"));
    CHECK_EQ(entries_in(dir), 1);
    unlink(path);
}

static void test_directory_flushed_after_rename(ak_world_t *w) {
    char *path = in_dir("durable.json");
    ecs_error_t err;
    check_write_text(path, "{}");
    struct stat d;
    CHECK(stat(dir, &d) == 0);
    watched_target = path, watched_dir = dir, synced_count = 0;
    CHECK(ak_world_save(w, path, &err));
    watched_target = watched_dir = NULL;
    CHECK(synced_count >= 2);
    if (synced_count < 2) return;
    synced_t *file = &synced[synced_count - 2], *directory = &synced[synced_count - 1];
    CHECK(!file->dir);
    CHECK(directory->dir && directory->ino == d.st_ino); /* the directory, last */
    CHECK(directory->target_ino == file->ino);           /* after the rename */
    /* The temporary file, while it was written: ".ecsgen-save-<pid>-<n>.tmp" (documented). */
    char prefix[64];
    snprintf(prefix, sizeof prefix, ".ecsgen-save-%ld-", (long)getpid());
    size_t n = strlen(file->tmp_name);
    CHECK(!strncmp(file->tmp_name, prefix, strlen(prefix)) && n > 4 && !strcmp(file->tmp_name + n - 4, ".tmp"));
    unlink(path);
}

static void test_failures_leave_no_temporary_file(ak_world_t *w, ecs_entity_t e) {
    ecs_error_t err;
    /* The target is a directory, a FIFO: refused, nothing replaced, nothing left. */
    char *target = in_dir("target");
    CHECK(mkdir(target, 0700) == 0);
    CHECK(!ak_world_save(w, target, &err));
    CHECK(strstr(err.message, "target: cannot replace (not a regular file)") != NULL);
    struct stat st;
    CHECK(lstat(target, &st) == 0 && S_ISDIR(st.st_mode));
    CHECK_EQ(entries_in(dir), 1);
    rmdir(target);
    CHECK(mkfifo(target, 0600) == 0);
    CHECK(!ak_world_save(w, target, &err)); /* was replaced by a regular file */
    CHECK(lstat(target, &st) == 0 && S_ISFIFO(st.st_mode));
    CHECK_EQ(entries_in(dir), 1);
    unlink(target);

    /* The disk fills up (a file size limit) half way: the old file stays, whole; the
     * temporary file goes. */
    char *path = in_dir("full.json");
    CHECK(ak_world_save(w, path, &err));
    ak_world_t *big = ak_world_new();
    for (int k = 0; k < 200; k++) ak_spawn(big, &(ak_spawn_desc_t){ .text = &(ak_text_t){ "b", "a long enough text" } });
    struct rlimit old, small;
    CHECK(getrlimit(RLIMIT_FSIZE, &old) == 0);
    small = old;
    small.rlim_cur = 4096;
    void (*previous)(int) = signal(SIGXFSZ, SIG_IGN); /* write fails with EFBIG instead */
    CHECK(setrlimit(RLIMIT_FSIZE, &small) == 0);
    bool saved = ak_world_save(big, path, &err);
    CHECK(setrlimit(RLIMIT_FSIZE, &old) == 0);
    signal(SIGXFSZ, previous);
    CHECK(!saved);
    CHECK(strstr(err.message, "full.json: cannot write (") != NULL);
    CHECK(holds(path, e, "first"));
    CHECK_EQ(entries_in(dir), 1);
    unlink(path);
    ak_world_free(big);
}

int main(void) {
    CHECK(mkdtemp(dir) != NULL);
    ak_world_t *w = ak_world_new();
    ecs_entity_t e = ak_spawn(w, &(ak_spawn_desc_t){ .text = &(ak_text_t){ "ab", "first" } });
    test_mode_is_kept(w);
    test_symlinks_are_written_through(w, e);
    test_longest_file_name(w, e);
    test_directory_flushed_after_rename(w);
    test_failures_leave_no_temporary_file(w, e);
    CHECK_EQ(entries_in(dir), 0);
    rmdir(dir);
    ak_world_free(w);
    return check_finish("test_json_save");
}
