// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// When the listening socket stops and starts accepting while the process is out of
    /// descriptors: the pure state of ``DescriptorBackoffHandler``, tested without a channel.
    ///
    /// An `accept` that fails with `EMFILE` or `ENFILE` (or `ENOBUFS`/`ENOMEM`, the kernel out of
    /// memory for a socket) pauses accepting for a delay that starts at ``initialDelay`` and doubles
    /// with each failure in a row, up to ``maximumDelay``; an accepted connection resets it. A pause
    /// ends when its delay has passed or when a connection closes (a descriptor came free),
    /// whichever is first. The connections waiting meanwhile stay in the kernel's backlog.
    struct DescriptorBackoff {
        /// The first pause. Default: 10 ms.
        let initialDelay: Duration
        /// The longest pause. Default: 1 s: one failed `accept` a second while out of descriptors.
        let maximumDelay: Duration
        /// Whether accepting is paused now.
        private(set) var isPaused = false
        /// Failures in a row since the last accepted connection.
        private(set) var failuresInARow = 0

        /// Creates the state; see each property for its default.
        init(initialDelay: Duration = .milliseconds(10), maximumDelay: Duration = .seconds(1)) {
            precondition(initialDelay > .zero && maximumDelay >= initialDelay, "delays must be positive and ordered")
            self.initialDelay = initialDelay
            self.maximumDelay = maximumDelay
        }

        /// Whether `errno`, from `accept`, means "no resources for another connection now" (a
        /// pause helps) rather than a broken listening socket.
        static func isExhaustion(errno code: Int32) -> Bool {
            code == EMFILE || code == ENFILE || code == ENOBUFS || code == ENOMEM
        }

        /// What the handler does after an `accept` failed.
        enum FailureAction: Equatable {
            /// Stop reading the listening socket, and resume after this delay. `firstInARow` says
            /// that this starts an episode (for a log line that is written once, not per retry).
            case pause(for: Duration, firstInARow: Bool)
            /// Already paused, or not an exhaustion error: nothing.
            case none
        }

        /// An `accept` failed with `errno`.
        mutating func acceptFailed(errno code: Int32) -> FailureAction {
            guard Self.isExhaustion(errno: code), !isPaused else { return .none }
            isPaused = true
            failuresInARow += 1
            return .pause(for: delay(afterFailures: failuresInARow), firstInARow: failuresInARow == 1)
        }

        /// A connection was accepted: the next failure starts over at ``initialDelay``.
        mutating func accepted() {
            failuresInARow = 0
        }

        /// The pause should end (its delay passed, or a descriptor came free); returns whether
        /// accepting must be turned back on (`false` when it was not paused).
        mutating func resume() -> Bool {
            guard isPaused else { return false }
            isPaused = false
            return true
        }

        /// ``initialDelay`` doubled for each failure after the first, at most ``maximumDelay``.
        func delay(afterFailures failures: Int) -> Duration {
            var delay = initialDelay
            for _ in 1..<max(1, failures) {
                delay *= 2
                if delay >= maximumDelay { return maximumDelay }
            }
            return min(delay, maximumDelay)
        }
    }
#endif
