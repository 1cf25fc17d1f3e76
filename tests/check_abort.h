/* check_abort.h: runs a case in a child process and says whether it died of SIGABRT, the way
 * the debug checks stop a program, with what the child wrote to stderr. POSIX (fork, pipe):
 * define _POSIX_C_SOURCE before including it. */
#ifndef CHECK_ABORT_H
#define CHECK_ABORT_H

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* Runs run(which) in a child; its stderr in err (NUL-terminated). True when it died of SIGABRT. */
static inline bool check_aborts(void (*run)(int), int which, char *err, size_t size) {
    int fds[2];
    if (pipe(fds) != 0) return false;
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) return false;
    if (pid == 0) {
        dup2(fds[1], 2);
        close(fds[0]);
        run(which);
        _exit(0);
    }
    close(fds[1]);
    size_t n = 0;
    ssize_t got;
    while (n + 1 < size && (got = read(fds[0], err + n, size - 1 - n)) > 0) n += (size_t)got;
    err[n] = '\0';
    close(fds[0]);
    int status;
    if (waitpid(pid, &status, 0) != pid) return false;
    return WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT;
}

#endif
