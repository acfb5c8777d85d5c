public import SchemeKit
import Synchronization

/// A handler that never answers by itself: it hangs until the engine stops the task, then
/// returns. The stand-in for a stalled server or a read that never completes.
///
/// It proves that a stop reaches the handler's work: ``cancellations`` counts the
/// `withTaskCancellationHandler` handlers that fired. Always pair it with a stop (a
/// ``ScriptedEngine`` stop point or timeout) so the test stays bounded.
///
/// ```swift
/// let hanging = HangingHandler(writesHead: true)
/// let result = try await ScriptedEngine(serving: hanging).run("app://localhost/", stoppingAt: .afterHead)
/// #expect(hanging.cancellations == 1)
/// #expect(result.metrics.stopped == 1)
/// ```
public final class HangingHandler: SchemeHandler {
    struct Counts {
        var started = 0
        var cancellations = 0
        var returned = 0
    }

    /// Whether the handler writes a 200 head (with no length) before hanging.
    package let writesHead: Bool
    /// The name used in traces.
    public let name: String
    private let counts = Locked(Counts())

    /// Creates a hanging handler.
    ///
    /// - Parameters:
    ///   - writesHead: Write a head first, so the engine can stop mid-response. Default: `false`.
    ///   - name: The name used in traces. Default: `"hanging"`.
    public init(writesHead: Bool = false, name: String = "hanging") {
        self.writesHead = writesHead
        self.name = name
    }

    /// How many requests reached the handler.
    public var started: Int { counts.withLock { $0.started } }
    /// How many times a stop fired the handler's cancellation handler.
    public var cancellations: Int { counts.withLock { $0.cancellations } }
    /// How many times the handler returned (after a stop).
    public var returned: Int { counts.withLock { $0.returned } }

    /// Writes the head when asked to, then waits until the task is cancelled.
    ///
    /// - Throws: `CancellationError` once stopped.
    public func handle(_ request: SchemeRequest, writer: some SchemeResponseWriter) async throws -> SchemeHandlerOutcome
    {
        counts.withLock { $0.started += 1 }
        defer { counts.withLock { $0.returned += 1 } }
        if writesHead {
            try await writer.writeHead(SchemeResponse(status: .ok, mimeType: "application/octet-stream"))
        }
        return try await withTaskCancellationHandler {
            while true {
                try await Task.sleep(for: .seconds(3600))
            }
        } onCancel: {
            counts.withLock { $0.cancellations += 1 }
        }
    }
}
