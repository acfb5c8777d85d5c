#if Chromium
    import Foundation
    import LoopbackTestSupport
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
            // Swift Testing's expectations are made on the test's task, with what the thread found.
            let (blocked, spawned, reaped): (UInt64?, Bool, Bool) = try await withCheckedThrowingContinuation {
                continuation in
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
                            // The spawned image is in place once /proc shows it as `sleep`.
                            let spawned = eventuallyBlocking {
                                let name = try? String(contentsOfFile: "/proc/\(process.pid)/comm", encoding: .utf8)
                                return name?.hasPrefix("sleep") == true
                            }
                            let blocked = Result { try Self.blockedSignals(of: process.pid) }
                            close(descriptor)
                            process.signal(SIGKILL)
                            let reaped = eventuallyBlocking { process.reaped() }
                            return (try blocked.get(), spawned, reaped)
                        })
                }.start()
            }
            #expect(spawned, "the child runs `sleep`")
            #expect(reaped, "the killed child was reaped")
            let sigchld = UInt64(1) << (UInt64(SIGCHLD) - 1)
            #expect(blocked != nil)
            #expect((blocked ?? sigchld) & sigchld == 0, "SigBlk of the child: \(String(blocked ?? 0, radix: 16))")
            #expect(blocked == 0)
        }
    }
#endif
