// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server && os(Linux)
    import Foundation
    import LoopbackTestSupport
    import SchemeKit
    import Testing

    @testable import SchemeServe

    /// Live reload's watcher: a change anywhere under the root, in directories made after it
    /// started too, is reported once per burst, and nothing is reported after `stop()`.
    ///
    /// Every report names the paths it covers, and reports come in the order of their events: once
    /// the report naming a later change has come, every report of the changes before it has come
    /// too. So each step below waits for that report, and a count checked then is final.
    @Suite(.ownThread, .timeLimit(.minutes(1)))
    struct DirectoryWatcherTests {
        /// The reports of one watcher, in order; with ``hold()``, the next report blocks the watcher's
        /// thread until ``release()``, so that changes made meanwhile queue up in the kernel.
        final class Reports: Sendable {
            private struct State {
                var reports: [Set<String>] = []
                var holding = false
                var held = false
            }
            private let state = ConditionLock(State())

            /// The watcher's callback.
            func report(_ paths: Set<String>) {
                state.withLock { $0.reports.append(paths) }
                _ = state.wait { state -> Bool? in
                    guard state.holding else { return true }
                    state.held = true
                    return nil
                }
            }

            /// Makes the next report hold the watcher's thread.
            func hold() { state.withLock { $0.holding = true } }
            /// Whether a report is holding the watcher's thread now.
            var isHeld: Bool { state.withLock { $0.held } }
            /// Lets the held report return.
            func release() {
                state.withLock {
                    $0.holding = false
                    $0.held = false
                }
            }

            var all: [Set<String>] { state.withLock { $0.reports } }
            /// How many reports name `path`.
            func count(naming path: URL) -> Int { all.count { $0.contains(path.path(percentEncoded: false)) } }
        }

        @Test func changesAnywhereUnderTheRootAreReportedOncePerBurst() async throws {
            let root = try Fixtures.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: root) }
            try Fixtures.write("v1", "index.html", in: root)
            try Fixtures.write("a", "css/a.css", in: root)
            let (index, css) = (root.appending(path: "index.html"), root.appending(path: "css/a.css"))
            let reports = Reports()
            let watcher = DirectoryWatcher(root: root, settle: .milliseconds(50))
            #expect(watcher.start { reports.report($0) })
            defer { watcher.stop() }

            // A burst: three writes the watcher reads at once are one change. They are made while
            // a report holds the watcher's thread, so they are all waiting in the kernel when it
            // next reads, however slowly this test runs.
            reports.hold()
            try Fixtures.write("held", "held.txt", in: root)
            #expect(await eventually { reports.isHeld })
            for text in ["v2", "v3", "v4"] { try Fixtures.write(text, "index.html", in: root) }
            reports.release()
            // A change after the burst, in a subdirectory that existed at the start: once it is
            // reported, every report of the burst has come.
            try Fixtures.write("b", "css/a.css", in: root)
            #expect(await eventually { reports.count(naming: css) == 1 })
            #expect(reports.count(naming: index) == 1, "\(reports.all)")

            // A directory made after the start, then a file in it: once the directory's creation
            // is reported, the watcher watches it (it adds the watch as it reads the event).
            let new = root.appending(path: "new")
            try FileManager.default.createDirectory(at: new, withIntermediateDirectories: true)
            #expect(await eventually { reports.count(naming: new) == 1 })
            try Fixtures.write("c", "new/c.js", in: root)
            #expect(await eventually { reports.count(naming: new.appending(path: "c.js")) == 1 })

            // After stop() nothing is reported: a second watcher on the same root, still running,
            // reports the next change, which proves it was there to be reported.
            let witness = Reports()
            let running = DirectoryWatcher(root: root, settle: .milliseconds(50))
            #expect(running.start { witness.report($0) })
            defer { running.stop() }
            watcher.stop()
            let afterStop = reports.all.count
            try Fixtures.write("v5", "index.html", in: root)
            #expect(await eventually { witness.count(naming: index) == 1 })
            #expect(reports.all.count == afterStop)
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
            for watcher in watchers { #expect(watcher.start { _ in }) }
            #expect(await eventually { Self.threads(named: "watch-stop-test") == 3 })
            for watcher in watchers { watcher.stop() }
            // The threads are done with their descriptors when stop() returns; the kernel may take
            // a moment more to reap them (a thread blocked in `poll` would never go).
            #expect(await eventually { Self.threads(named: "watch-stop-test") == 0 }, "every watcher thread ended")
            watchers[0].stop()  // again: returns at once
        }

        /// `stop()` from inside `onChange`, on the watcher's own thread, returns (it cannot wait for
        /// itself) and the thread ends after the callback.
        @Test func stopFromTheCallbackReturns() async throws {
            let root = try Fixtures.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: root) }
            let reports = Reports()
            let watcher = DirectoryWatcher(root: root, settle: .milliseconds(20), threadName: "watch-self-stop")
            let started = watcher.start { [watcher] paths in
                watcher.stop()
                reports.report(paths)
            }
            #expect(started)
            #expect(await eventually { Self.threads(named: "watch-self-stop") == 1 })
            try Fixtures.write("x", "a.txt", in: root)
            // The thread ends after its one report: no second one can come.
            #expect(await eventually { Self.threads(named: "watch-self-stop") == 0 })
            #expect(reports.all.count == 1)
            #expect(reports.count(naming: root.appending(path: "a.txt")) == 1)
        }
    }
#endif
