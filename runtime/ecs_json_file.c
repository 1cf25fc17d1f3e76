/* ecs_json_file.c: whole JSON files: the crash-safe save and the bounded read (rules in
 * ecs_json.h, "Files"). POSIX. */
#define _POSIX_C_SOURCE 200809L /* lstat, readlink, fsync, fchmod, O_CLOEXEC, O_DIRECTORY */

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ecs_json.h"

/* Symbolic links followed before a save gives up (Linux's own limit is 40). */
#define ECS_JSON_LINK_HOPS 40
/* Attempts at a fresh temporary name (one is taken only if a crash left it behind). */
#define ECS_JSON_TMP_TRIES 100

/* Numbers temporary files; atomic, so threads saving at once never pick the same name. */
static atomic_ulong ecs_json_tmp_counter;

/* The length of path's directory part ("" for "a.json": 0; "/a.json": 1, the root). */
static size_t ecs_json_dir_length(const char *path) {
    const char *slash = strrchr(path, '/');
    if (!slash) return 0;
    return slash == path ? 1 : (size_t)(slash - path);
}

/* path's directory joined with name (relative to it); malloc'ed, NULL when out of memory. */
static char *ecs_json_beside(const char *path, const char *name) {
    size_t dir = ecs_json_dir_length(path);
    size_t n = strlen(name);
    char *joined = malloc(dir + n + 2);
    if (!joined) return NULL;
    memcpy(joined, path, dir);
    size_t at = dir;
    if (dir && path[dir - 1] != '/') joined[at++] = '/';
    memcpy(joined + at, name, n + 1);
    return joined;
}

/* The file a save replaces: path itself, or, when path is a symbolic link, the file it leads
 * to (followed link by link; a relative link from its own directory), so the link stays a
 * link. Malloc'ed; NULL with errno set (ENOMEM, ELOOP, or readlink's reason). */
static char *ecs_json_save_target(const char *path) {
    size_t n = strlen(path);
    char *current = malloc(n + 1);
    if (!current) return NULL;
    memcpy(current, path, n + 1);
    for (int hop = 0; hop <= ECS_JSON_LINK_HOPS; hop++) {
        struct stat st;
        if (lstat(current, &st) != 0 || !S_ISLNK(st.st_mode)) return current; /* a new file: open says why not */
        if (hop == ECS_JSON_LINK_HOPS) break;
        size_t size = st.st_size > 0 && st.st_size < PATH_MAX ? (size_t)st.st_size + 1 : PATH_MAX;
        char *link = malloc(size);
        ssize_t got = link ? readlink(current, link, size - 1) : -1;
        if (got < 0) {
            int saved = link ? errno : ENOMEM;
            free(link);
            free(current);
            errno = saved;
            return NULL;
        }
        link[got] = '\0';
        char *next = link[0] == '/' ? link : ecs_json_beside(current, link);
        if (next != link) free(link);
        free(current);
        if (!next) return errno = ENOMEM, NULL;
        current = next;
    }
    free(current);
    errno = ELOOP;
    return NULL;
}

/* Creates a temporary file beside target, named ".ecsgen-save-<pid>-<n>.tmp": short (any
 * name that fits NAME_MAX leaves room for it), in the target's directory (so rename is
 * atomic) and recognisable (a crash between create and rename can leave one; it is safe to
 * delete). Mode 0666 less the umask for a new file, 0600 until set to the old one's. */
static int ecs_json_create_tmp(const char *target, bool replacing, char **tmp) {
    for (int attempt = 0; attempt < ECS_JSON_TMP_TRIES; attempt++) {
        char name[64];
        unsigned long n = atomic_fetch_add_explicit(&ecs_json_tmp_counter, 1, memory_order_relaxed);
        snprintf(name, sizeof name, ".ecsgen-save-%ld-%lu.tmp", (long)getpid(), n);
        *tmp = ecs_json_beside(target, name);
        if (!*tmp) return errno = ENOMEM, -1;
        int fd = open(*tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, replacing ? 0600 : 0666);
        if (fd >= 0 || errno != EEXIST) return fd;
        free(*tmp);
        *tmp = NULL;
    }
    errno = EEXIST;
    return -1;
}

/* Gives the temporary file the mode (and, where allowed, the group) of the file it replaces.
 * When the group cannot be kept, the group's permissions are dropped rather than handed to
 * the saver's own group. */
static bool ecs_json_keep_mode(int fd, const struct stat *old) {
    mode_t mode = old->st_mode & 0777;
    if (fchown(fd, (uid_t)-1, old->st_gid) != 0) mode &= (mode_t)~070;
    return fchmod(fd, mode) == 0;
}

static bool ecs_json_write_all(int fd, const char *text) {
    size_t len = strlen(text), done = 0;
    while (done < len) {
        ssize_t w = write(fd, text + done, len - done);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return false;
        done += (size_t)w;
    }
    return true;
}

/* Flushes the directory entry of target (the rename) to disk. File systems that cannot
 * sync a directory (EINVAL) do without. */
static bool ecs_json_sync_dir(const char *target) {
    size_t dir = ecs_json_dir_length(target);
    char *name = malloc(dir + 2);
    if (!name) return errno = ENOMEM, false;
    if (dir) memcpy(name, target, dir);
    else name[dir++] = '.';
    name[dir] = '\0';
    int fd = open(name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    free(name);
    if (fd < 0) return false;
    bool ok = fsync(fd) == 0 || errno == EINVAL;
    int saved = errno;
    close(fd);
    errno = saved;
    return ok;
}

bool ecs_json_write_file(const char *path, const char *text, ecs_error_t *err) {
    if (!path || !*path) {
        snprintf(err->message, sizeof err->message, "save: no file path given (NULL or empty)");
        err->code = ECS_ERR_ARGUMENT;
        return false;
    }
    char shown[384];
    ecs_json_escape(shown, sizeof shown, path);
    if (!text) {
        snprintf(err->message, sizeof err->message, "%s: out of memory", shown);
        err->code = ECS_ERR_OUT_OF_MEMORY;
        return false;
    }
    const char *step = "cannot follow its symbolic link";
    char *tmp = NULL;
    char *target = ecs_json_save_target(path);
    struct stat old;
    bool replacing = false;
    int fd = -1;
    bool ok = target != NULL;
    if (ok && stat(target, &old) == 0) {
        replacing = true;
        if (!S_ISREG(old.st_mode)) { /* a directory, a device: never replaced by a file */
            snprintf(err->message, sizeof err->message, "%s: cannot replace (not a regular file)", shown);
            err->code = ECS_ERR_IO;
            free(target);
            return false;
        }
    }
    if (ok) {
        step = "cannot create a temporary file beside it";
        fd = ecs_json_create_tmp(target, replacing, &tmp);
        ok = fd >= 0;
    }
    if (ok && replacing && !ecs_json_keep_mode(fd, &old)) ok = false, step = "cannot set the file's mode";
    if (ok && !ecs_json_write_all(fd, text)) ok = false, step = "cannot write";
    if (ok && fsync(fd) != 0) ok = false, step = "cannot write";
    int saved = errno;
    if (fd >= 0 && close(fd) != 0 && ok) ok = false, step = "cannot write", saved = errno;
    errno = saved;
    if (ok && rename(tmp, target) != 0) ok = false, step = "cannot replace";
    if (!ok && tmp) { /* every failure after the create removes the temporary file */
        saved = errno;
        unlink(tmp);
        errno = saved;
    }
    free(tmp);
    tmp = NULL;
    if (ok && !ecs_json_sync_dir(target)) ok = false, step = "saved, but cannot flush its directory to disk";
    if (!ok) {
        snprintf(err->message, sizeof err->message, "%s: %s (%s)", shown, step, strerror(errno));
        err->code = ECS_ERR_IO;
    }
    free(target);
    return ok;
}

void ecs_json_error_in_file(ecs_error_t *err, const char *path) {
    char message[sizeof err->message];
    char shown[384];
    snprintf(message, sizeof message, "%s", err->message);
    ecs_json_escape(shown, sizeof shown, path);
    snprintf(err->message, sizeof err->message, "%.200s: %.300s", shown, message);
}

char *ecs_json_read_file(const char *path, size_t max_bytes, ecs_error_t *err) {
    if (!path || !*path) {
        snprintf(err->message, sizeof err->message, "load: no file path given (NULL or empty)");
        err->code = ECS_ERR_ARGUMENT;
        return NULL;
    }
    char shown[384];
    ecs_json_escape(shown, sizeof shown, path);
    /* Non-blocking, so that opening a FIFO does not wait for a writer; then only a regular
     * file is read (a FIFO, a device such as /dev/zero or a terminal could block or never end). */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        int saved = errno;
        if (fd >= 0) close(fd);
        snprintf(err->message, sizeof err->message, "%s: cannot open (%s)", shown, strerror(saved));
        err->code = ECS_ERR_IO;
        return NULL;
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        snprintf(err->message, sizeof err->message, "%s: not a regular file (%s): a load reads only files",
                 shown, S_ISDIR(st.st_mode) ? "a directory" : S_ISFIFO(st.st_mode) ? "a FIFO" : S_ISSOCK(st.st_mode) ? "a socket" : "a device");
        err->code = ECS_ERR_IO;
        return NULL;
    }
    if (!max_bytes) max_bytes = ECS_JSON_MAX_BYTES_DEFAULT;
    size_t limit = max_bytes < SIZE_MAX - 2 ? max_bytes + 2 : SIZE_MAX; /* the buffer never grows past this */
    FILE *f = (uint64_t)st.st_size <= max_bytes ? fdopen(fd, "rb") : NULL;
    if (!f) {
        int saved = errno;
        close(fd);
        if ((uint64_t)st.st_size > max_bytes)
            snprintf(err->message, sizeof err->message, "%s: larger than the %zu bytes a load reads (the load option max_bytes raises it)",
                     shown, max_bytes);
        else
            snprintf(err->message, sizeof err->message, "%s: cannot open (%s)", shown, strerror(saved));
        err->code = (uint64_t)st.st_size > max_bytes ? ECS_ERR_LIMIT : ECS_ERR_IO;
        return NULL;
    }
    /* The size the file states, plus room to see that it ended (files in /proc state 0). */
    size_t cap = (size_t)st.st_size + 2 > 4096 ? (size_t)st.st_size + 2 : 4096, len = 0;
    if (cap > limit) cap = limit;
    char *text = malloc(cap);
    while (text) {
        len += fread(text + len, 1, cap - len - 1, f);
        if (len > max_bytes) { /* it grew since */
            fclose(f);
            free(text);
            snprintf(err->message, sizeof err->message, "%s: larger than the %zu bytes a load reads (the load option max_bytes raises it)",
                     shown, max_bytes);
            err->code = ECS_ERR_LIMIT;
            return NULL;
        }
        if (len < cap - 1) break;
        size_t next = cap <= limit / 2 ? cap * 2 : limit;
        char *bigger = realloc(text, next);
        if (!bigger) free(text);
        text = bigger;
        cap = next;
    }
    bool failed = ferror(f);
    int saved = errno;
    fclose(f);
    if (!text || failed) {
        snprintf(err->message, sizeof err->message, "%s: cannot read (%s)", shown, text ? strerror(saved) : "out of memory");
        err->code = text ? ECS_ERR_IO : ECS_ERR_OUT_OF_MEMORY;
        free(text);
        return NULL;
    }
    text[len] = '\0';
    if (strlen(text) != len) {
        snprintf(err->message, sizeof err->message, "%s: not a JSON text (contains a NUL byte)", shown);
        err->code = ECS_ERR_PARSE;
        free(text);
        return NULL;
    }
    return text;
}
