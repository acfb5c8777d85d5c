#if Firefox
    import Foundation

    #if canImport(Glibc)
        import Glibc
    #endif

    /// A Firefox child process: spawned in a process group of its own with its standard error in a
    /// file (where it prints its WebDriver BiDi address), signalled as a group, reaped.
    final class FirefoxProcess: Sendable {
        let pid: pid_t

        private init(pid: pid_t) { self.pid = pid }

        /// Spawns `arguments[0]` (looked up in `PATH`) with standard input and output on `/dev/null`
        /// and standard error appended to `standardErrorPath`. Other descriptors are not closed for
        /// it (Glibc's `posix_spawn_file_actions_addclosefrom_np` is not visible from Swift): the
        /// ones SchemeKit and SwiftNIO open are close-on-exec.
        static func spawn(arguments: [String], standardErrorPath: String) throws(FirefoxError) -> FirefoxProcess {
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 2, standardErrorPath, O_WRONLY | O_CREAT | O_APPEND, 0o644)
            var attributes = posix_spawnattr_t()
            posix_spawnattr_init(&attributes)
            defer { posix_spawnattr_destroy(&attributes) }
            // Its own process group: a signal aimed at our group does not reach Firefox, and
            // closing the browser can signal its content processes too.
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
            posix_spawnattr_setpgroup(&attributes, 0)
            var cArguments = arguments.map { strdup($0) }
            cArguments.append(nil)
            defer { for argument in cArguments { free(argument) } }
            var pid: pid_t = 0
            let result = posix_spawnp(&pid, arguments[0], &actions, &attributes, cArguments, environ)
            guard result == 0 else {
                throw FirefoxError(.launchFailed, "cannot start \(arguments[0]): \(String(cString: strerror(result)))")
            }
            return FirefoxProcess(pid: pid)
        }

        /// Waits until Firefox prints `WebDriver BiDi listening on ws://HOST:PORT` in the file,
        /// reading from `offset`, and returns that URL.
        ///
        /// - Throws: ``FirefoxError/Code/launchFailed`` when Firefox exits first or `timeout` passes.
        func waitForBiDiAddress(in path: String, from offset: UInt64, timeout: Duration) async throws(FirefoxError)
            -> URL
        {
            let deadline = ContinuousClock.now + timeout
            let marker = "WebDriver BiDi listening on "
            while ContinuousClock.now < deadline {
                if let handle = FileHandle(forReadingAtPath: path) {
                    defer { try? handle.close() }
                    try? handle.seek(toOffset: offset)
                    let text = String(decoding: (try? handle.readToEnd()) ?? Data(), as: UTF8.self)
                    if let range = text.range(of: marker) {
                        let rest = text[range.upperBound...]
                        let address = rest.prefix { !$0.isWhitespace }
                        if let url = URL(string: String(address)) { return url }
                    }
                }
                if reaped() {
                    throw FirefoxError(.launchFailed, "Firefox exited before it opened WebDriver BiDi (see \(path))")
                }
                try? await Task.sleep(for: .milliseconds(25))
            }
            throw FirefoxError(.launchFailed, "Firefox did not open WebDriver BiDi within \(timeout) (see \(path))")
        }

        /// Sends `signal` to Firefox's process group, then to Firefox itself.
        func signal(_ signal: Int32) {
            _ = kill(-pid, signal)
            _ = kill(pid, signal)
        }

        /// Waits for the process to exit, at most `timeout`; sends `SIGKILL` to its group when it
        /// is still running then. Reaps it either way.
        func terminate(after timeout: Duration) async {
            let deadline = ContinuousClock.now + timeout
            while ContinuousClock.now < deadline {
                if reaped() {
                    _ = kill(-pid, SIGKILL)  // content processes Firefox left behind, if any
                    return
                }
                try? await Task.sleep(for: .milliseconds(20))
            }
            signal(SIGKILL)
            while !reaped() { try? await Task.sleep(for: .milliseconds(10)) }
        }

        /// Whether the process has exited (and is now reaped).
        func reaped() -> Bool {
            var status: Int32 = 0
            let result = waitpid(pid, &status, WNOHANG)
            return result == pid || (result < 0 && errno == ECHILD)
        }
    }
#endif
