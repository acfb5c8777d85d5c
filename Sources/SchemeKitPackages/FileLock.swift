// Built with the package trait `Packages` (on by default, through `Server`); without it the module is empty.
#if Packages
    internal import Foundation

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// An exclusive `flock(2)` on a lock file: serialises store changes across tasks and processes.
    ///
    /// Each acquisition opens its own file description, so two holders in one process exclude each other too.
    /// The kernel releases the lock when the holder dies, even by `SIGKILL`, so a crash never leaves the
    /// store locked.
    enum FileLock {
        /// Runs `body` while holding the lock at `path`, waiting for it first (polling every 20 ms, cancellable).
        static func withLock<T>(_ path: String, _ body: () async throws -> T) async throws -> T {
            let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
            guard fd >= 0 else { throw FileSystem.failure("open", path) }
            defer { close(fd) }
            while flock(fd, LOCK_EX | LOCK_NB) != 0 {
                let code = errno
                guard code == EWOULDBLOCK || code == EINTR else { throw FileSystem.failure("flock", path, errno: code) }
                try await Task.sleep(for: .milliseconds(20))
            }
            defer { flock(fd, LOCK_UN) }
            return try await body()
        }
    }
#endif
