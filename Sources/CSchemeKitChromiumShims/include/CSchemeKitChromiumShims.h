#ifndef CSCHEMEKIT_CHROMIUM_SHIMS_H
#define CSCHEMEKIT_CHROMIUM_SHIMS_H

#include <sys/types.h>

/// Spawns `path` (searched in PATH when it has no slash) with `argv` (NULL-terminated) and `envp` (NULL-terminated, or NULL for the
/// caller's environment), handing it `commandFD` as its fd 3 and `replyFD` as its fd 4 (the
/// DevTools pipe), /dev/null as stdin and stdout, `stderrFD` (or /dev/null when negative) as
/// stderr, closing every other descriptor, with no signal blocked (whatever the calling thread
/// blocks) and in a process group of its own. Returns 0 and stores the pid, or an errno value.
int schemekit_spawn_with_pipe(const char *path, char *const argv[], char *const envp[],
                              int commandFD, int replyFD, int stderrFD, pid_t *pid);

/// Creates a connected pair of stream sockets, both close-on-exec. Returns 0 or an errno value.
/// Sockets rather than pipes: writes use MSG_NOSIGNAL, so a dead Chromium is an EPIPE, not a SIGPIPE.
int schemekit_socketpair_cloexec(int fds[2]);

/// Sends `count` bytes (fewer on a short write) without raising SIGPIPE. Returns the count or -1 (errno set).
long schemekit_send_nosignal(int fd, const void *bytes, unsigned long count);

#endif
