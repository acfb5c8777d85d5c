#if Chromium
    import CSchemeKitChromiumShims
    import Foundation
    import SchemeKit

    /// A Chromium child process: spawned with its DevTools pipe on fds 3 and 4, killed and reaped.
    final class ChromiumProcess: Sendable {
        let pid: pid_t

        private init(pid: pid_t) { self.pid = pid }

        /// Spawns Chromium; returns the process and our end of the DevTools socket.
        static func spawn(arguments: [String], standardErrorPath: String?) throws(EngineError) -> (
            ChromiumProcess, Int32
        ) {
            var pair: [Int32] = [-1, -1]
            let made = pair.withUnsafeMutableBufferPointer { schemekit_socketpair_cloexec($0.baseAddress!) }
            guard made == 0 else { throw EngineError(.launchFailed, "socketpair failed: errno \(made)") }
            let ours = pair[0]
            let theirs = pair[1]
            defer { close(theirs) }
            var errorDescriptor: Int32 = -1
            if let standardErrorPath {
                errorDescriptor = open(standardErrorPath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
            }
            defer { if errorDescriptor >= 0 { close(errorDescriptor) } }
            var cArguments = arguments.map { strdup($0) }
            cArguments.append(nil)
            defer { for argument in cArguments { free(argument) } }
            var pid: pid_t = 0
            let result = cArguments.withUnsafeBufferPointer { argv in
                schemekit_spawn_with_pipe(arguments[0], argv.baseAddress!, nil, theirs, theirs, errorDescriptor, &pid)
            }
            guard result == 0 else {
                close(ours)
                throw EngineError(.launchFailed, "cannot start \(arguments[0]): \(String(cString: strerror(result)))")
            }
            return (ChromiumProcess(pid: pid), ours)
        }

        /// Sends `signal` to Chromium's process group (the browser and its helpers).
        func signal(_ signal: Int32) {
            _ = kill(-pid, signal)
            _ = kill(pid, signal)
        }

        /// Waits for the process to exit, at most `timeout`, without blocking a cooperative thread
        /// for long; kills it when it is still running afterwards. Reaps it either way.
        func terminate(after timeout: Duration) async {
            let deadline = ContinuousClock.now + timeout
            while ContinuousClock.now < deadline {
                if reaped() { return }
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
