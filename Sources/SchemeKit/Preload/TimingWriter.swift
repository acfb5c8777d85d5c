import Foundation

/// A writer that forwards to another and notes when the head, the first byte and the finish went
/// through: the timings of requests that bypass the shared fetches.
final class TimingWriter<Base: SchemeResponseWriter>: SchemeForwardingWriter {
    private struct Marks {
        var head: ContinuousClock.Instant?
        var firstByte: ContinuousClock.Instant?
        var done: ContinuousClock.Instant?
        var failed = false
        var bytes = 0
    }

    let base: Base
    private let asked: ContinuousClock.Instant
    private let marks = Locked(Marks())

    init(base: Base, asked: ContinuousClock.Instant) {
        self.base = base
        self.asked = asked
    }

    func writeHead(_ response: SchemeResponse) async throws {
        try await base.writeHead(response)
        marks.withLock { $0.head = .now }
    }

    func write(_ body: SchemeBody) async throws {
        try await base.write(body)
        marks.withLock { marks in
            if marks.firstByte == nil, !body.isEmpty { marks.firstByte = .now }
            marks.bytes += body.count
        }
    }

    func finish() async throws {
        try await base.finish()
        marks.withLock { $0.done = .now }
    }

    func fail(_ error: any Error) async throws {
        try await base.fail(error)
        marks.withLock { $0.failed = true }
    }

    func fill(_ timing: inout PreloadTiming) {
        let marks = marks.withLock { $0 }
        timing.wait = marks.head.map { $0 - asked }
        timing.firstByte = marks.firstByte.map { $0 - asked }
        timing.done = marks.done.map { $0 - asked }
        timing.bytes = marks.bytes
        timing.outcome = marks.done != nil ? .finished : marks.failed ? .failed : .stopped
    }
}
