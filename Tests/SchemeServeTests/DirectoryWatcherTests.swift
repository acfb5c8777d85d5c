// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server && os(Linux)
    import Foundation
    import Synchronization
    import Testing

    @testable import SchemeServe

    /// Live reload's watcher: a change anywhere under the root, in directories made after it
    /// started too, is reported once per burst, and nothing is reported after `stop()`.
    @Suite(.ownThread, .timeLimit(.minutes(1)))
    struct DirectoryWatcherTests {
        final class Counter: Sendable {
            private let count = Atomic(0)
            func add() { count.add(1, ordering: .relaxed) }
            var value: Int { count.load(ordering: .relaxed) }
        }

        static func waitUntil(_ condition: () -> Bool) async throws {
            for _ in 0..<500 where !condition() { try await Task.sleep(for: .milliseconds(10)) }
        }

        @Test func changesAnywhereUnderTheRootAreReportedOncePerBurst() async throws {
            let root = try Fixtures.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: root) }
            try Fixtures.write("v1", "index.html", in: root)
            try Fixtures.write("a", "css/a.css", in: root)
            let changes = Counter()
            let watcher = DirectoryWatcher(root: root, settle: .milliseconds(50))
            #expect(watcher.start { changes.add() })
            defer { watcher.stop() }

            // A burst: three writes in quick succession are one change.
            for text in ["v2", "v3", "v4"] { try Fixtures.write(text, "index.html", in: root) }
            try await Self.waitUntil { changes.value >= 1 }
            try await Task.sleep(for: .milliseconds(200))
            #expect(changes.value == 1)

            // An existing subdirectory.
            try Fixtures.write("b", "css/a.css", in: root)
            try await Self.waitUntil { changes.value >= 2 }
            #expect(changes.value == 2)

            // A directory made after the start, then a file in it.
            try FileManager.default.createDirectory(at: root.appending(path: "new"), withIntermediateDirectories: true)
            try await Self.waitUntil { changes.value >= 3 }
            try await Task.sleep(for: .milliseconds(100))
            let beforeFile = changes.value
            try Fixtures.write("c", "new/c.js", in: root)
            try await Self.waitUntil { changes.value > beforeFile }
            #expect(changes.value > beforeFile)

            watcher.stop()
            let afterStop = changes.value
            try Fixtures.write("v5", "index.html", in: root)
            try await Task.sleep(for: .milliseconds(200))
            #expect(changes.value == afterStop)
        }

        /// The threads of this process whose kernel name starts with `prefix`.
        static func threads(named prefix: String) -> Int {
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
            return tasks.filter { task in
                // procfs files say they are empty: read to the end, not by size.
                guard let handle = FileHandle(forReadingAtPath: "/proc/self/task/\(task)/comm") else { return false }
                defer { try? handle.close() }
                let name = String(decoding: (try? handle.readToEnd()) ?? Data(), as: UTF8.self)
                return name.hasPrefix(prefix)
            }.count
        }

        /// `stop()` wakes the watcher's thread and returns once it has ended (before, it closed the
        /// inotify descriptor under the thread's blocked `poll`, which on Linux does not wake it: the
        /// thread stayed blocked, on a descriptor number the process could reuse).
        @Test func stopEndsTheThreadBeforeItReturns() async throws {
            let root = try Fixtures.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: root) }
            try Fixtures.write("v1", "index.html", in: root)
            let watchers = (0..<3).map { _ in
                DirectoryWatcher(root: root, settle: .milliseconds(20), threadName: "watch-stop-test")
            }
            for watcher in watchers { #expect(watcher.start {}) }
            try await Self.waitUntil { Self.threads(named: "watch-stop-test") == 3 }
            #expect(Self.threads(named: "watch-stop-test") == 3)
            for watcher in watchers { watcher.stop() }
            // The threads are done with their descriptors when stop() returns; the kernel may take
            // a moment more to reap them (a thread blocked in `poll` would never go).
            try await Self.waitUntil { Self.threads(named: "watch-stop-test") == 0 }
            #expect(Self.threads(named: "watch-stop-test") == 0, "every watcher thread ended")
            watchers[0].stop()  // again: returns at once
        }

        /// `stop()` from inside `onChange`, on the watcher's own thread, returns (it cannot wait for
        /// itself) and the thread ends after the callback.
        @Test func stopFromTheCallbackReturns() async throws {
            let root = try Fixtures.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: root) }
            let changes = Counter()
            let watcher = DirectoryWatcher(root: root, settle: .milliseconds(20), threadName: "watch-self-stop")
            let started = watcher.start { [watcher] in
                watcher.stop()
                changes.add()
            }
            #expect(started)
            try Fixtures.write("x", "a.txt", in: root)
            try await Self.waitUntil { changes.value == 1 && Self.threads(named: "watch-self-stop") == 0 }
            #expect(changes.value == 1)
            #expect(Self.threads(named: "watch-self-stop") == 0)
        }
    }
#endif
