// Built only with the package trait `WebKitGTK` (it needs WebKitGTK 6.0's headers and libraries).
#if WebKitGTK
    import Foundation
    import SchemeKit

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #endif

    /// The directory that hands the media extension to WebKit, which loads every module in the
    /// directory it is given: one per adapter, `schemekit-webkit-media-<pid>-<n>` in the temporary
    /// directory, holding only a copy of the extension.
    ///
    /// A web process may start whenever a view needs one, so the directory lives as long as the
    /// process. It is removed when the process exits normally (`atexit`); one left by a process that
    /// ended otherwise (`_exit`, a signal, a crash) is removed by the next process that makes one,
    /// once no process has its pid, so they never pile up.
    enum WebKitMediaDirectory {
        private static let prefix = "schemekit-webkit-media-"

        /// The directories this process made, removed at exit.
        private static let made = Locked<[String]>([])
        private static let registerCleanup: Void = {
            atexit { WebKitMediaDirectory.removeMade() }
        }()

        /// A new directory holding a copy of `library` as `fileName`, or `nil` when it cannot be
        /// made.
        static func make(with library: URL, as fileName: String, tag: UInt) -> URL? {
            let fileManager = FileManager.default
            removeAbandoned(in: fileManager.temporaryDirectory)
            let directory = fileManager.temporaryDirectory.appendingPathComponent("\(prefix)\(getpid())-\(tag)")
            do {
                try? fileManager.removeItem(at: directory)
                try fileManager.createDirectory(at: directory, withIntermediateDirectories: true)
                try fileManager.copyItem(at: library, to: directory.appendingPathComponent(fileName))
            } catch {
                try? fileManager.removeItem(at: directory)
                return nil
            }
            _ = registerCleanup
            made.withLock { $0.append(directory.path) }
            return directory
        }

        /// Removes the directories of processes that are gone: `<prefix><pid>-…`, owned by this
        /// user, whose pid no process has (`kill(pid, 0)` fails with `ESRCH`).
        static func removeAbandoned(in temporary: URL) {
            let fileManager = FileManager.default
            guard let names = try? fileManager.contentsOfDirectory(atPath: temporary.path) else { return }
            for name in names where name.hasPrefix(prefix) {
                let rest = name.dropFirst(prefix.count)
                guard let dash = rest.firstIndex(of: "-"), let pid = pid_t(rest[..<dash]), pid > 0,
                    pid != getpid(), kill(pid, 0) != 0, errno == ESRCH
                else { continue }
                let path = temporary.appendingPathComponent(name).path
                var status = stat()
                guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR, status.st_uid == getuid()
                else { continue }
                try? fileManager.removeItem(atPath: path)
            }
        }

        private static func removeMade() {
            for path in made.withLock({ $0 }) { try? FileManager.default.removeItem(atPath: path) }
        }
    }
#endif
