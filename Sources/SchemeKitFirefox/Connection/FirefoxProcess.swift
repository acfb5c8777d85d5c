#if Firefox
    import Foundation
    import SchemeKit

    #if canImport(Glibc)
        import Glibc
    #endif

    /// A Firefox child process that cannot outlive the process that started it.
    ///
    /// Firefox is started by a small `/bin/sh` watchdog: the watchdog starts Firefox in a process
    /// group of its own, then reads its standard input, a pipe only this process writes to. When
    /// that pipe closes — ``terminate(after:)``, or this process ending in any way, a crash or
    /// `SIGKILL` included — the watchdog kills Firefox's group (Firefox and its content processes).
    /// A Chromium started with its DevTools pipe exits when the pipe closes; Firefox's WebSocket
    /// gives no such guarantee, hence the watchdog. No other descriptor of this process reaches
    /// Firefox (`closefrom`), so no pipe of ours stays open in it.
    final class FirefoxProcess: Sendable {
        /// The watchdog's pid (also the id of its own process group).
        let group: pid_t
        /// Firefox's own pid, once the watchdog reported it.
        let firefox: Locked<pid_t?> = Locked(nil)
        /// Our end of the watchdog's standard input.
        private let lifeline: Int32

        private init(group: pid_t, lifeline: Int32) {
            self.group = group
            self.lifeline = lifeline
        }

        /// The watchdog: starts Firefox (`"$@"`) in a session and process group of its own
        /// (`setsid`: Firefox may signal its own group when it quits, and the watchdog must
        /// outlive that), says its pid on standard error, waits for end of file on standard input,
        /// then kills Firefox's group and reaps Firefox, so that its pid names no process once the
        /// watchdog has exited.
        private static let watchdog = """
            setsid "$@" </dev/null &
            firefox=$!
            echo "SchemeKit: Firefox pid $firefox" >&2
            while read -r _; do :; done
            kill -KILL "-$firefox" 2>/dev/null
            kill -KILL "$firefox" 2>/dev/null
            wait "$firefox"
            """

        /// Spawns Firefox (`arguments[0]` looked up in `PATH`) under the watchdog, with standard
        /// output on `/dev/null` and standard error appended to `standardErrorPath`.
        static func spawn(arguments: [String], standardErrorPath: String) throws(EngineError) -> FirefoxProcess {
            var pipeEnds: [Int32] = [-1, -1]
            guard pipe(&pipeEnds) == 0 else { throw EngineError(.launchFailed, "pipe failed: errno \(errno)") }
            // Neither end may leak into other children (the read end reaches the watchdog by dup2).
            for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            let (readEnd, writeEnd) = (pipeEnds[0], pipeEnds[1])
            defer { close(readEnd) }
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_adddup2(&actions, readEnd, 0)
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 2, standardErrorPath, O_WRONLY | O_CREAT | O_APPEND, 0o644)
            closeFrom(3, in: &actions)
            var attributes = posix_spawnattr_t()
            posix_spawnattr_init(&attributes)
            defer { posix_spawnattr_destroy(&attributes) }
            // Its own process group: a signal aimed at our group does not reach the watchdog. And a
            // clean signal state: a thread of ours may block SIGCHLD (the watchdog's `wait` would
            // then never wake) or ignore SIGPIPE, and children inherit both.
            posix_spawnattr_setflags(
                &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
            posix_spawnattr_setpgroup(&attributes, 0)
            var none = sigset_t()
            sigemptyset(&none)
            posix_spawnattr_setsigmask(&attributes, &none)
            var defaults = sigset_t()
            sigemptyset(&defaults)
            for number in [SIGCHLD, SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT] { sigaddset(&defaults, number) }
            posix_spawnattr_setsigdefault(&attributes, &defaults)
            let command = ["/bin/sh", "-c", watchdog, "sh"] + arguments
            var cArguments = command.map { strdup($0) }
            cArguments.append(nil)
            defer { for argument in cArguments { free(argument) } }
            var pid: pid_t = 0
            let result = posix_spawn(&pid, "/bin/sh", &actions, &attributes, cArguments, environ)
            guard result == 0 else {
                close(writeEnd)
                throw EngineError(
                    .launchFailed, "cannot start /bin/sh for \(arguments[0]): \(String(cString: strerror(result)))")
            }
            return FirefoxProcess(group: pid, lifeline: writeEnd)
        }

        /// `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34), looked up at run time: Swift's
        /// Glibc module does not declare it.
        private static func closeFrom(_ first: Int32, in actions: inout posix_spawn_file_actions_t) {
            typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
            else { return }
            _ = unsafeBitCast(symbol, to: AddCloseFrom.self)(&actions, first)
        }

        /// Waits until Firefox prints `WebDriver BiDi listening on ws://HOST:PORT` in the file,
        /// reading from `offset`, and returns that URL.
        ///
        /// - Throws: `EngineError.Code.launchFailed` when Firefox exits first or `timeout` passes.
        func waitForBiDiAddress(in path: String, from offset: UInt64, timeout: Duration) async throws(EngineError)
            -> URL
        {
            let deadline = ContinuousClock.now + timeout
            let marker = "WebDriver BiDi listening on "
            while ContinuousClock.now < deadline {
                if let handle = FileHandle(forReadingAtPath: path) {
                    defer { try? handle.close() }
                    try? handle.seek(toOffset: offset)
                    let text = String(decoding: (try? handle.readToEnd()) ?? Data(), as: UTF8.self)
                    if let range = text.range(of: "SchemeKit: Firefox pid ") {
                        let digits = text[range.upperBound...].prefix { $0.isNumber }
                        if let pid = pid_t(digits) { firefox.withLock { $0 = pid } }
                    }
                    if let range = text.range(of: marker) {
                        let address = text[range.upperBound...].prefix { !$0.isWhitespace }
                        if let url = URL(string: String(address)) { return url }
                    }
                }
                if !firefoxIsRunning || reaped() {
                    throw EngineError(.launchFailed, "Firefox exited before it opened WebDriver BiDi (see \(path))")
                }
                if Task.isCancelled { throw EngineError(.launchFailed, "the launch was cancelled") }
                try? await Task.sleep(for: .milliseconds(25))
            }
            throw EngineError(.launchFailed, "Firefox did not open WebDriver BiDi within \(timeout) (see \(path))")
        }

        /// Whether Firefox itself still runs (`true` until the watchdog has reported its pid). A
        /// Firefox that exited but is not reaped yet (a zombie of the watchdog's) does not run.
        var firefoxIsRunning: Bool {
            guard let pid = firefox.withLock({ $0 }) else { return true }
            return Self.isRunning(pid)
        }

        /// `kill(pid, 0)` succeeds and `/proc/<pid>/stat` does not say `Z` (zombie) or `X` (dead).
        private static func isRunning(_ pid: pid_t) -> Bool {
            guard kill(pid, 0) == 0 else { return false }
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let end = stat.lastIndex(of: ")")
            else { return true }
            let state = stat[stat.index(after: end)...].trimmingCharacters(in: .whitespaces).first
            return state != "Z" && state != "X"
        }

        /// Sends `signal` to Firefox's process group (Firefox and its content processes), or to the
        /// watchdog's before Firefox's pid is known.
        func signal(_ signal: Int32) {
            if let pid = firefox.withLock({ $0 }) {
                _ = kill(-pid, signal)
                _ = kill(pid, signal)
            } else {
                _ = kill(-group, signal)
            }
        }

        /// Gives Firefox up to `timeout` to exit by itself, then closes the lifeline (the watchdog
        /// kills what is left of the group) and reaps the watchdog.
        func terminate(after timeout: Duration) async {
            let deadline = ContinuousClock.now + timeout
            while ContinuousClock.now < deadline, firefoxIsRunning, !reaped() {
                try? await Task.sleep(for: .milliseconds(20))
            }
            closeLifeline()
            let killAt = ContinuousClock.now + .seconds(2)
            while !reaped() {
                if ContinuousClock.now > killAt {
                    signal(SIGKILL)
                    _ = kill(-group, SIGKILL)
                }
                try? await Task.sleep(for: .milliseconds(10))
            }
        }

        private let lifelineClosed = Locked(false)

        private func closeLifeline() {
            let first = lifelineClosed.withLock { closed in
                defer { closed = true }
                return !closed
            }
            if first { close(lifeline) }
        }

        /// Whether the watchdog has exited (and is now reaped).
        func reaped() -> Bool {
            var status: Int32 = 0
            let result = waitpid(group, &status, WNOHANG)
            return result == group || (result < 0 && errno == ECHILD)
        }

        deinit { closeLifeline() }
    }
#endif
