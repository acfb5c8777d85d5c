// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import Foundation
    import SchemeKit

    #if canImport(Glibc)
        import Glibc
    #endif

    /// Tells when anything under a directory changes, as soon as it does: Linux's `inotify` on the
    /// directory and every directory below it (added as they appear), read on a thread of its own.
    ///
    /// Where `inotify` is unavailable (other systems, or a full watch table), ``start(onChange:)``
    /// returns `false` and the caller polls instead. Changes that come together (an editor's
    /// write, rename and attribute change) are reported once, after `settle` with no further event.
    final class DirectoryWatcher: Sendable {
        private let root: URL
        private let settle: Duration
        private let state = Locked<(descriptor: Int32, stopped: Bool)>((-1, false))

        init(root: URL, settle: Duration = .milliseconds(15)) {
            self.root = root
            self.settle = settle
        }

        /// Starts watching; `onChange` is called on the watcher's thread after each burst of changes.
        ///
        /// - Returns: Whether watching started (`false`: poll instead).
        func start(onChange: @escaping @Sendable () -> Void) -> Bool {
            #if canImport(Glibc)
                let descriptor = inotify_init1(Int32(IN_CLOEXEC))
                guard descriptor >= 0 else { return false }
                var directories: [Int32: String] = [:]
                guard Self.watchTree(root.path(percentEncoded: false), descriptor, &directories) else {
                    close(descriptor)
                    return false
                }
                state.withLock { $0.descriptor = descriptor }
                let settleMilliseconds = Int32(
                    settle.components.seconds * 1000 + settle.components.attoseconds / 1_000_000_000_000_000)
                let watched = directories
                let thread = Thread { [self] in
                    run(descriptor, watched, settleMilliseconds, onChange)
                }
                thread.name = "schemeserve-watch"
                thread.start()
                return true
            #else
                return false
            #endif
        }

        /// Stops watching; no `onChange` call starts after this returns.
        func stop() {
            let descriptor = state.withLock { state -> Int32 in
                state.stopped = true
                defer { state.descriptor = -1 }
                return state.descriptor
            }
            #if canImport(Glibc)
                if descriptor >= 0 { close(descriptor) }  // the blocked `poll` returns with POLLNVAL
            #endif
        }

        #if canImport(Glibc)
            private static let mask = UInt32(
                IN_CLOSE_WRITE | IN_MODIFY | IN_ATTRIB | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO
                    | IN_DELETE_SELF | IN_ONLYDIR)

            /// Watches `path` and every directory below it (symbolic links are not followed).
            private static func watchTree(_ path: String, _ descriptor: Int32, _ directories: inout [Int32: String])
                -> Bool
            {
                let watch = inotify_add_watch(descriptor, path, mask)
                guard watch >= 0 else { return false }
                directories[watch] = path
                guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return true }
                for name in names {
                    let child = path + "/" + name
                    var info = stat()
                    guard lstat(child, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { continue }
                    guard watchTree(child, descriptor, &directories) else { return false }
                }
                return true
            }

            private func run(
                _ descriptor: Int32, _ directories: [Int32: String], _ settle: Int32, _ onChange: @Sendable () -> Void
            ) {
                var directories = directories
                var buffer = [UInt8](repeating: 0, count: 64 << 10)
                var pending = false
                while true {
                    var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                    let ready = poll(&request, 1, pending ? settle : -1)
                    if state.withLock({ $0.stopped }) { return }
                    if ready < 0 {
                        if errno == EINTR { continue }
                        return
                    }
                    if ready == 0 {
                        // Quiet for `settle` after a change: report the burst once.
                        pending = false
                        onChange()
                        continue
                    }
                    if request.revents & Int16(POLLNVAL | POLLERR) != 0 { return }
                    let count = read(descriptor, &buffer, buffer.count)
                    guard count > 0 else { return }
                    pending = true
                    // New directories get watches of their own.
                    var offset = 0
                    while offset + MemoryLayout<inotify_event>.size <= count {
                        let (watch, eventMask, nameLength) = buffer.withUnsafeBytes { raw in
                            let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                            return (event.wd, event.mask, Int(event.len))
                        }
                        let nameStart = offset + MemoryLayout<inotify_event>.size
                        if eventMask & UInt32(IN_ISDIR) != 0, eventMask & UInt32(IN_CREATE | IN_MOVED_TO) != 0,
                            let parent = directories[watch]
                        {
                            let bytes = buffer[nameStart..<min(nameStart + nameLength, count)].prefix { $0 != 0 }
                            let name = String(decoding: bytes, as: UTF8.self)
                            _ = Self.watchTree(parent + "/" + name, descriptor, &directories)
                        }
                        offset = nameStart + nameLength
                    }
                }
            }
        #endif
    }
#endif
