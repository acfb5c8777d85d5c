import Foundation
import SchemeKit
import Synchronization

/// An engine that reads slowly: at most `bytesPerSecond`, by suspending the handler in
/// `waitForCapacity()` (no thread is blocked). It keeps no body: it counts the bytes and checks
/// that each chunk continues the origin's pattern (byte i is `(i * 7 + 13) % 251`) where it
/// starts, so a lost, repeated or restarted range shows up as a mismatch.
final class ThrottledSink: SchemeTaskSink {
    private struct State {
        var status: Int?
        var bytes = 0
        var chunks = 0
        var mismatches = 0
        var finished = false
        var failure: (any Error)?
    }

    let bytesPerSecond: Double
    let checksPattern: Bool
    private let state = Mutex(State())
    private let started = ContinuousClock.now

    init(bytesPerSecond: Double, checksPattern: Bool = true) {
        self.bytesPerSecond = bytesPerSecond
        self.checksPattern = checksPattern
    }

    var status: Int? { state.withLock { $0.status } }
    var bytes: Int { state.withLock { $0.bytes } }
    var mismatches: Int { state.withLock { $0.mismatches } }
    var finished: Bool { state.withLock { $0.finished } }
    var failure: (any Error)? { state.withLock { $0.failure } }

    func receive(_ response: SchemeResponse) {
        state.withLock { $0.status = response.status.code }
    }

    func receive(_ body: SchemeBody) {
        let data = body.data
        state.withLock { state in
            if checksPattern, let first = data.first, Int(first) != (state.bytes * 7 + 13) % 251 {
                state.mismatches += 1
            }
            state.bytes += data.count
            state.chunks += 1
        }
    }

    func finish() { state.withLock { $0.finished = true } }

    func fail(_ error: any Error) { state.withLock { $0.failure = error } }

    func waitForCapacity() async {
        let bytes = state.withLock { $0.bytes }
        let due = Duration.seconds(Double(bytes) / bytesPerSecond)
        let ahead = due - (ContinuousClock.now - started)
        if ahead > .milliseconds(2) { try? await Task.sleep(for: ahead) }  // paces the reader: a rate
    }
}
