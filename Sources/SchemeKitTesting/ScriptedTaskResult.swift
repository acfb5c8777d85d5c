public import SchemeKit

/// What a ``ScriptedEngine`` run produced: the recording, the task's metrics, who answered.
///
/// The recording's properties read through the result (`result.body` is `result.recording.body`).
@dynamicMemberLookup
public struct ScriptedTaskResult: Sendable {
    /// Every event the engine received, with timestamps and violations.
    public let recording: RecordingSink
    /// The task's own counters: exactly one of finished, failed, stopped is 1 once it ended;
    /// writes dropped after the stop; protocol misuses.
    public let metrics: SchemeTaskMetrics
    /// The name of the handler that wrote the head (`"not-found"` for the registry's 404), or `nil`.
    public let respondingHandler: String?
    /// Whether the stop took effect (a stop after the finish is ignored and leaves this `false`).
    public let wasStopped: Bool
    /// Whether the run hit the engine's timeout (the engine then stopped the task).
    public let timedOut: Bool

    /// The response status, if a head reached the engine.
    public var status: HTTPResponse.Status? { recording.response?.status }

    /// What the ``recording`` says: `result.body`, `result.bodyString`, `result.response`,
    /// `result.events`, `result.violations`, `result.isFinished`, `result.failure` and the rest of
    /// ``RecordingSink``'s read-only properties, read from it.
    public subscript<Value>(dynamicMember keyPath: KeyPath<RecordingSink, Value>) -> Value {
        recording[keyPath: keyPath]
    }
}
