import Foundation

/// The sink behind ``SchemeRegistry/response(for:limit:)``: keeps the head and the body, up to a
/// limit, then stops its task.
final class SchemeResponseCollector: SchemeTaskSink, @unchecked Sendable {
    private struct State {
        var head: SchemeResponse?
        var body = Data()
        var error: (any Error)?
        var finished = false
    }

    private let limit: Int
    private let state = Locked(State())
    /// Set once, by the registry's sink factory, before the task runs.
    var task: SchemeTask?

    init(limit: Int) {
        self.limit = limit
    }

    func receive(_ response: SchemeResponse) {
        state.withLock { $0.head = response }
    }

    func receive(_ body: SchemeBody) {
        let over = state.withLock { state -> Bool in
            guard state.error == nil else { return false }
            if state.body.count + body.count > limit {
                state.error = SchemeCollectedResponse.Error.bodyTooLarge(limit: limit)
                state.body = Data()
                return true
            }
            body.withUnsafeBytes { state.body.append(contentsOf: $0) }
            return false
        }
        if over { task?.stop() }
    }

    func finish() {
        state.withLock { $0.finished = true }
    }

    func fail(_ error: any Error) {
        state.withLock { if $0.error == nil { $0.error = error } }
    }

    func result() throws -> SchemeCollectedResponse {
        try state.withLock { state in
            if let error = state.error { throw error }
            guard let head = state.head, state.finished else {
                if Task.isCancelled { throw CancellationError() }
                throw SchemeCollectedResponse.Error.noResponse
            }
            return SchemeCollectedResponse(head: head, body: state.body)
        }
    }
}
