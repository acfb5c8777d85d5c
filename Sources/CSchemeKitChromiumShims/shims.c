#define _GNU_SOURCE
#include "CSchemeKitChromiumShims.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <unistd.h>

extern char **environ;

int schemekit_socketpair_cloexec(int fds[2]) {
    return socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) == 0 ? 0 : errno;
}

long schemekit_send_nosignal(int fd, const void *bytes, unsigned long count) {
    return (long)send(fd, bytes, count, MSG_NOSIGNAL);
}

int schemekit_spawn_with_pipe(const char *path, char *const argv[], char *const envp[],
                              int commandFD, int replyFD, int stderrFD, pid_t *pid) {
    // Move the sources above the target range first, so dup2 onto 3 and 4 never clobbers them
    // (and never degenerates into a no-op that would keep close-on-exec).
    int in = fcntl(commandFD, F_DUPFD_CLOEXEC, 10);
    if (in < 0) return errno;
    int out = fcntl(replyFD, F_DUPFD_CLOEXEC, 10);
    if (out < 0) { int e = errno; close(in); return e; }
    int err = stderrFD >= 0 ? fcntl(stderrFD, F_DUPFD_CLOEXEC, 10) : -1;

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    if (err >= 0) posix_spawn_file_actions_adddup2(&actions, err, 2);
    else posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, in, 3);
    posix_spawn_file_actions_adddup2(&actions, out, 4);
    posix_spawn_file_actions_addclosefrom_np(&actions, 5);

    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    // Its own process group: a signal aimed at the test runner's group does not reach Chromium,
    // and the adapter can signal Chromium's whole tree.
    // No signal blocked: the caller's thread may block SIGCHLD (or more), and a child that
    // inherited that mask would never hear its own helpers exit.
    sigset_t unblocked;
    sigemptyset(&unblocked);
    posix_spawnattr_setsigmask(&attributes, &unblocked);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK);
    posix_spawnattr_setpgroup(&attributes, 0);

    int result = posix_spawnp(pid, path, &actions, &attributes, argv, envp ? envp : environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    close(in);
    close(out);
    if (err >= 0) close(err);
    return result;
}
