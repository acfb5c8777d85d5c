#if Chromium
    import Foundation
    import Testing

    @testable import SchemeKitChromium

    /// How Chromium's process starts: with no signal blocked, whatever the caller's thread blocked.
    @Suite(.serialized, .timeLimit(.minutes(1)))
    struct ChromiumProcessTests {
        /// The `SigBlk` mask of a process, from `/proc/<pid>/status`.
        static func blockedSignals(of pid: pid_t) throws -> UInt64? {
            let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
            guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigBlk:") }) else { return nil }
            return UInt64(line.dropFirst("SigBlk:".count).trimmingCharacters(in: .whitespaces), radix: 16)
        }

        /// The caller's thread blocks SIGCHLD (as a runtime or a test harness may); the child must not
        /// inherit it, or Chromium never hears its own helpers exit.
        @Test func theChildStartsWithNoSignalBlocked() async throws {
            let blocked: UInt64? = try await withCheckedThrowingContinuation { continuation in
                Thread {
                    continuation.resume(
                        with: Result {
                            var set = sigset_t()
                            sigemptyset(&set)
                            sigaddset(&set, SIGCHLD)
                            var previous = sigset_t()
                            pthread_sigmask(SIG_BLOCK, &set, &previous)
                            defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
                            let (process, descriptor) = try ChromiumProcess.spawn(
                                arguments: ["sleep", "30"], standardErrorPath: nil)
                            defer {
                                close(descriptor)
                                process.signal(SIGKILL)
                                while !process.reaped() { usleep(1000) }
                            }
                            // The spawned image is in place once /proc shows it as `sleep`.
                            for _ in 0..<500 {
                                let name = try? String(contentsOfFile: "/proc/\(process.pid)/comm", encoding: .utf8)
                                if name?.hasPrefix("sleep") == true { break }
                                usleep(2000)
                            }
                            return try Self.blockedSignals(of: process.pid)
                        })
                }.start()
            }
            let sigchld = UInt64(1) << (UInt64(SIGCHLD) - 1)
            #expect(blocked != nil)
            #expect((blocked ?? sigchld) & sigchld == 0, "SigBlk of the child: \(String(blocked ?? 0, radix: 16))")
            #expect(blocked == 0)
        }
    }
#endif
