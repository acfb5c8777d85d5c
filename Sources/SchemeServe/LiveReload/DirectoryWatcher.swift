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
    ///
    /// ``stop()`` wakes the thread through a pipe and waits for it to end; the thread closes
    /// its descriptors itself, under the lock ``stop()`` writes under, so no descriptor is closed
    /// under a blocked `poll` (which on Linux does not wake it) or written to after it was closed
    /// and reused.
    final class DirectoryWatcher: Sendable {
        private let root: URL
        private let settle: Duration

        private struct State {
            var running = false
            var stopped = false
            var finished = false
            /// The write end of the pipe that wakes the thread, while it runs.
            var wake: Int32 = -1
            var thread: pthread_t?
        }

        private let state = ConditionLock(State())

        /// The watcher thread's name for the kernel (15 bytes at most are kept).
        private let threadName: String

        init(root: URL, settle: Duration = .milliseconds(15), threadName: String = "schemeserve-watch") {
            self.root = root
            self.settle = settle
            self.threadName = threadName
        }

        /// Starts watching; `onChange` is called on the watcher's thread after each burst of changes,
        /// with the paths the burst changed: each event's directory joined with the name it carries
        /// (the directory alone for an event on the directory itself). Bursts are reported in the
        /// order their events came, so the report naming a change comes after (or is) the report
        /// of every change before it.
        ///
        /// - Returns: Whether watching started (`false`: poll instead).
        func start(onChange: @escaping @Sendable (_ paths: Set<String>) -> Void) -> Bool {
            #if canImport(Glibc)
                let descriptor = inotify_init1(Int32(IN_CLOEXEC))
                guard descriptor >= 0 else { return false }
                var directories: [Int32: String] = [:]
                var pipeEnds: [Int32] = [-1, -1]
                guard pipe(&pipeEnds) == 0 else {
                    close(descriptor)
                    return false
                }
                let (wakeRead, wake) = (pipeEnds[0], pipeEnds[1])
                for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
                let closeAll: @Sendable () -> Void = {
                    close(descriptor)
                    close(wakeRead)
                    close(wake)
                }
                // Without a trailing slash, so the paths reported are `<root>/<name>`.
                var top = root.path(percentEncoded: false)
                while top.count > 1, top.hasSuffix("/") { top.removeLast() }
                guard Self.watchTree(top, descriptor, &directories) else {
                    closeAll()
                    return false
                }
                let started = state.withLock { state -> Bool in
                    guard !state.stopped, !state.running else { return false }
                    state.running = true
                    state.wake = wake
                    return true
                }
                guard started else {
                    closeAll()
                    return false
                }
                let settleMilliseconds = Int32(
                    settle.components.seconds * 1000 + settle.components.attoseconds / 1_000_000_000_000_000)
                let watched = directories
                let thread = Thread { [self] in
                    ThreadName.set(threadName)
                    state.withLock { $0.thread = pthread_self() }
                    run(descriptor, wakeRead, watched, settleMilliseconds, onChange)
                    state.withLock { state in
                        closeAll()
                        state.wake = -1
                        state.finished = true
                    }
                }
                thread.name = "schemeserve-watch"
                thread.start()
                return true
            #else
                return false
            #endif
        }

        /// Stops watching: wakes the thread and waits for it to end (at once when called from
        /// `onChange`, on the thread itself, which then ends after the callback); no `onChange` call
        /// starts after this returns.
        func stop() {
            let (running, own) = state.withLock { state -> (Bool, Bool) in
                state.stopped = true
                #if canImport(Glibc)
                    if state.wake >= 0 {
                        var byte: UInt8 = 1
                        _ = write(state.wake, &byte, 1)
                    }
                #endif
                let own = state.thread.map { pthread_equal($0, pthread_self()) != 0 } ?? false
                return (state.running, own)
            }
            guard running, !own else { return }
            _ = state.wait { $0.finished ? true : nil }
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
                _ descriptor: Int32, _ wake: Int32, _ directories: [Int32: String], _ settle: Int32,
                _ onChange: @Sendable (_ paths: Set<String>) -> Void
            ) {
                var directories = directories
                var buffer = [UInt8](repeating: 0, count: 64 << 10)
                var pending = false
                var changed: Set<String> = []
                while true {
                    var requests = [
                        pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
                        pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
                    ]
                    let ready = poll(&requests, 2, pending ? settle : -1)
                    if state.withLock({ $0.stopped }) || requests[1].revents != 0 { return }
                    if ready < 0 {
                        if errno == EINTR { continue }
                        return
                    }
                    if ready == 0 {
                        // Quiet for `settle` after a change: report the burst once.
                        pending = false
                        let paths = changed
                        changed = []
                        onChange(paths)
                        continue
                    }
                    if requests[0].revents & Int16(POLLNVAL | POLLERR) != 0 { return }
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
                        if let parent = directories[watch] {
                            let bytes = buffer[nameStart..<min(nameStart + nameLength, count)].prefix { $0 != 0 }
                            let path = bytes.isEmpty ? parent : parent + "/" + String(decoding: bytes, as: UTF8.self)
                            changed.insert(path)
                            if eventMask & UInt32(IN_ISDIR) != 0, eventMask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 {
                                _ = Self.watchTree(path, descriptor, &directories)
                            }
                        }
                        offset = nameStart + nameLength
                    }
                }
            }
        #endif
    }
#endif
