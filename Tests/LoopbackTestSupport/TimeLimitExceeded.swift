import SchemeKitTesting

/// What ``withTimeLimit(_:_:_:)`` throws when its body ran past the limit.
public struct TimeLimitExceeded: Error, CustomStringConvertible {
    /// What took too long, as the caller named it.
    public var what: String
    /// The limit it ran past (scaled).
    public var limit: Duration

    /// "`what` took more than `limit`".
    public var description: String { "\(what) took more than \(limit)" }
}

/// Runs `body` and returns its value, or throws ``TimeLimitExceeded`` (and cancels `body`) when it
/// has not returned within `limit`: a bound that turns a hang into a failure, not a measure of
/// speed.
///
/// - Parameters:
///   - limit: The most `body` may take, scaled under ThreadSanitizer (`TestTiming.scaled`).
///   - what: What `body` does, for the error.
///   - body: The work; it must honour cancellation for the limit to end it.
public func withTimeLimit<T: Sendable>(
    _ limit: Duration, _ what: String, _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    let limit = TestTiming.scaled(limit)
    return try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: limit)  // the deadline: cancelled once `body` returned
            throw TimeLimitExceeded(what: what, limit: limit)
        }
        defer { group.cancelAll() }
        return try await group.next()!
    }
}
