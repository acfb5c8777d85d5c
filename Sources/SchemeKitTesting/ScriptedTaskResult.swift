public import Foundation
public import SchemeKit

/// What a ``ScriptedEngine`` run produced: the recording, the task's metrics, who answered.
public struct ScriptedTaskResult: Sendable {
    /// The request that was run.
    public let request: SchemeRequest
    /// Where the engine was told to stop.
    public let stopPoint: StopPoint
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

    /// The response head, if one reached the engine.
    public var response: SchemeResponse? { recording.response }
    /// The response status, if a head reached the engine.
    public var status: HTTPResponse.Status? { recording.response?.status }
    /// Every body byte that reached the engine.
    public var body: Data { recording.body }
    /// The body as UTF-8 text.
    public var bodyString: String { recording.bodyString }
    /// The events, in order, without timestamps.
    public var events: [RecordingSink.Event] { recording.events }
    /// Protocol violations the engine saw; empty when the lifecycle held.
    public var violations: [String] { recording.violations }
    /// Whether the finish reached the engine.
    public var isFinished: Bool { recording.isFinished }
    /// The failure's description, if the task failed.
    public var failure: String? { recording.failure }
}
