// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import Glibc
    import Testing

    @testable import SchemeServe

    /// The listening socket's back-off out of descriptors, as a state machine: when it pauses, for
    /// how long, and when it starts over.
    struct DescriptorBackoffTests {
        @Test(arguments: [EMFILE, ENFILE, ENOBUFS, ENOMEM])
        func exhaustionPausesWithGrowingDelays(errno code: Int32) {
            var backoff = DescriptorBackoff(initialDelay: .milliseconds(10), maximumDelay: .seconds(1))
            let first = backoff.acceptFailed(errno: code)
            #expect(first == .pause(for: .milliseconds(10), firstInARow: true))
            #expect(backoff.isPaused)
            let whilePaused = backoff.acceptFailed(errno: code)
            #expect(whilePaused == .none, "already paused: one pause at a time")
            let resumed = backoff.resume()
            let resumedAgain = backoff.resume()
            #expect(resumed)
            #expect(!resumedAgain, "resumed once: a late timer or a second close does nothing")
            let second = backoff.acceptFailed(errno: code)
            #expect(second == .pause(for: .milliseconds(20), firstInARow: false))
            var delays: [Duration] = []
            for _ in 0..<8 {
                _ = backoff.resume()
                if case .pause(let delay, _) = backoff.acceptFailed(errno: code) { delays.append(delay) }
            }
            #expect(
                delays == [40, 80, 160, 320, 640, 1000, 1000, 1000].map { .milliseconds($0) },
                "doubling up to the maximum")
        }

        @Test func anAcceptedConnectionStartsOver() {
            var backoff = DescriptorBackoff()
            _ = backoff.acceptFailed(errno: EMFILE)
            _ = backoff.resume()
            _ = backoff.acceptFailed(errno: EMFILE)
            _ = backoff.resume()
            backoff.accepted()
            let next = backoff.acceptFailed(errno: EMFILE)
            #expect(next == .pause(for: backoff.initialDelay, firstInARow: true))
        }

        @Test(arguments: [ECONNABORTED, EBADF, EINVAL])
        func otherErrorsDoNotPause(errno code: Int32) {
            var backoff = DescriptorBackoff()
            let action = backoff.acceptFailed(errno: code)
            #expect(action == .none)
            #expect(!backoff.isPaused)
        }
    }
#endif
