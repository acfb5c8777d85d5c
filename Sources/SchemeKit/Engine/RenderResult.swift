public import Foundation

/// What one render of a page produced: the same shape from every browser renderer
/// (`ChromiumRenderer.render(_:evaluate:snapshot:pdf:timeout:)`, and the same on Firefox).
///
/// ```swift
/// let result = try await renderer.render("https://app.localhost/", evaluate: "document.title", snapshot: true)
/// print(result.value ?? .null, result.requests.count, result.duration)
/// ```
public struct RenderResult: Sendable {
    /// The awaited value of the expression, or `nil` when none was given or it threw.
    public var value: JavaScriptValue?
    /// Why the expression failed (an ``EngineError`` with code ``EngineError/Code/evaluationFailed``
    /// and the exception's text), or `nil`. The page loaded all the same: the other fields are filled.
    public var evaluationError: EngineError?
    /// The PNG snapshot, when asked for.
    public var snapshot: Data?
    /// The PDF, when asked for.
    public var pdf: Data?
    /// Every request the engine adapter handled for this render, in the order they ended.
    public var requests: [SchemeRequestRecord]
    /// What the page logged, one line per `console` call (`log: hello 42`, `warn: careful`) or
    /// uncaught exception (`error: …`), in order.
    public var console: [String]
    /// From navigation start to the `load` event (the expression is not counted).
    public var duration: Duration

    /// Creates a result.
    package init(
        value: JavaScriptValue?, evaluationError: EngineError?, snapshot: Data?, pdf: Data?,
        requests: [SchemeRequestRecord], console: [String], duration: Duration
    ) {
        self.value = value
        self.evaluationError = evaluationError
        self.snapshot = snapshot
        self.pdf = pdf
        self.requests = requests
        self.console = console
        self.duration = duration
    }
}
