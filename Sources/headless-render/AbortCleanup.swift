// Built when at least one engine is (package traits `WebKitGTK`, `Chromium`, `Firefox`).
#if WebKitGTK || Chromium || Firefox
    import Dispatch
    import Foundation
    import SchemeKit

    /// What must happen even when `headless-render` gives up early (`--timeout`, SIGINT, SIGTERM):
    /// ending the WebDriver BiDi session of an attached Firefox (Firefox keeps a session whose
    /// client went away, and refuses every new one until it restarts), stopping a browser this
    /// command started.
    enum AbortCleanup {
        private static let actions = Locked<[Int: @Sendable () async -> Void]>([:])
        private static let abortCode = Locked<Int32?>(nil)

        /// The exit status of an abort under way, if one is: then only the aborting thread ends
        /// the process (see ``HeadlessRender/exitNow(_:)``), after its cleanup.
        static var aborting: Int32? { abortCode.withLock { $0 } }
        private static let nextKey = Locked(0)
        /// Set once, by ``installSignalHandlers()`` on the main thread, and kept for the process's life.
        nonisolated(unsafe) private static var signalSources: [any DispatchSourceSignal] = []

        /// Registers `action`; returns a key for ``remove(_:)`` once the normal path has done it.
        static func add(_ action: @escaping @Sendable () async -> Void) -> Int {
            let key = nextKey.withLock { key in
                defer { key += 1 }
                return key
            }
            actions.withLock { $0[key] = action }
            return key
        }

        /// Forgets an action the normal path took care of.
        static func remove(_ key: Int) {
            _ = actions.withLock { $0.removeValue(forKey: key) }
        }

        /// Ends the run with `status` after the cleanup: marks the abort (so the render's own path,
        /// which the cleanup makes fail, cannot exit first with another status), runs every
        /// registered action, and exits. Called on the timer's or a signal's thread.
        static func abort(with status: Int32) -> Never {
            let first = abortCode.withLock { code in
                guard code == nil else { return false }
                code = status
                return true
            }
            if first { run() }
            HeadlessRender.exitNow(aborting ?? status)
        }

        /// Runs every registered action, waiting at most `limit` for all of them; blocks the calling
        /// thread (never a thread of Swift's cooperative pool: the timer's or a signal's).
        static func run(limit: Duration = .seconds(5)) {
            let pending = actions.withLock { actions in
                defer { actions = [:] }
                return Array(actions.values)
            }
            guard !pending.isEmpty else { return }
            let done = ConditionLock(false)
            Task {
                await withTaskGroup(of: Void.self) { group in
                    for action in pending { group.addTask { await action() } }
                }
                done.withLock { $0 = true }
            }
            _ = done.wait(timeout: limit) { $0 ? () : nil }
        }

        /// On SIGINT and SIGTERM: run the actions, then exit with 128 + the signal's number.
        static func installSignalHandlers() {
            let sources = [SIGINT, SIGTERM].map { number -> any DispatchSourceSignal in
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler { abort(with: 128 + number) }
                source.resume()
                return source
            }
            signalSources = sources
        }
    }
#endif
