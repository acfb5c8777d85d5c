// Built with the package trait `Packages` (on by default, through `Server`); without it the module is empty.
#if Packages && os(Linux)
    import Foundation
    import Glibc

    /// Tells when a file is next opened, by any process (`inotify`'s `IN_OPEN`): how a test knows
    /// that a helper process has reached a lock file, without waiting for a time.
    final class FileOpenWatch: Sendable {
        private let descriptor: Int32

        /// Starts watching `path` (which must exist); opens before this call are not reported.
        init(_ path: String) throws {
            descriptor = inotify_init1(Int32(IN_CLOEXEC))
            guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
            guard inotify_add_watch(descriptor, path, UInt32(IN_OPEN)) >= 0 else {
                close(descriptor)
                throw POSIXError(.ENOENT)
            }
        }

        deinit { close(descriptor) }

        /// Waits until the file is opened; `false` when `timeout` passed first (the deadline catches
        /// a hang). Blocks a thread of Dispatch's, not the caller's.
        func opened(timeout: Duration = .seconds(60)) async -> Bool {
            let descriptor = descriptor
            let milliseconds = Int32(timeout.components.seconds * 1000)
            return await withCheckedContinuation { continuation in
                DispatchQueue.global().async {
                    var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                    continuation.resume(returning: poll(&request, 1, milliseconds) > 0)
                }
            }
        }
    }
#endif
