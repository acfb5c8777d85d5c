import SchemeKit

/// The writer behind ``ShapedHandler``: paces body writes against the clock and cuts the body at
/// the failure's byte; everything else is forwarded.
final class ShapedWriter<Base: SchemeResponseWriter, C: Clock<Duration>>: SchemeForwardingWriter {
    struct State {
        /// Body bytes written so far.
        var sent = 0
        /// When the first body byte was paced from.
        var start: C.Instant?
    }

    let base: Base
    let conditions: NetworkConditions
    let clock: C
    private let state = Locked(State())

    init(base: Base, conditions: NetworkConditions, clock: C) {
        self.base = base
        self.conditions = conditions
        self.clock = clock
    }

    func writeHead(_ response: SchemeResponse) async throws {
        try await base.writeHead(response)
        if let failure = conditions.failure, failure.byte == 0 {
            try await base.fail(failure.error)
            throw failure.error
        }
    }

    func write(_ body: SchemeBody) async throws {
        let chunkSize = conditions.bytesPerSecond == nil ? max(1, body.count) : conditions.effectiveChunkSize
        var offset = 0
        while offset < body.count {
            var end = min(offset + chunkSize, body.count)
            let sent = state.withLock { $0.sent }
            var cut = false
            if let failure = conditions.failure, failure.byte - sent <= end - offset {
                end = offset + max(0, failure.byte - sent)
                cut = true
            }
            if end > offset {
                try await pace(upTo: sent + (end - offset))
                try Task.checkCancellation()
                try await base.write(body.slice(offset..<end))
                state.withLock { $0.sent += end - offset }
            }
            if cut, let failure = conditions.failure {
                try await base.fail(failure.error)
                throw failure.error
            }
            offset = end
        }
    }

    /// Waits until the clock allows `total` body bytes to have been sent.
    private func pace(upTo total: Int) async throws {
        guard conditions.bytesPerSecond != nil else { return }
        let now = clock.now
        let start = state.withLock { state in
            if state.start == nil { state.start = now }
            return state.start ?? now
        }
        let deadline = start.advanced(by: conditions.transmissionTime(of: total))
        if now < deadline { try await clock.sleep(until: deadline, tolerance: nil) }
    }
}
