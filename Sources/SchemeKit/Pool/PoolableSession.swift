/// A reusable engine session — a web view and what it needs — that a ``SessionPool`` can hand out,
/// take back, reset and tear down.
///
/// A session type describes how to make a used session fit for the next holder (``reset()``),
/// whether it still works (``isHealthy()``), and how to dispose of it (``tearDown()``). Sessions
/// are created by the factory closure given to the pool.
///
/// ## Thread affinity
/// The requirements are `nonisolated(nonsending)`: they run on the executor of the pool that
/// calls them. Give the pool your engine's executor (the GLib main context for WebKitGTK, the
/// main queue for WKWebView) and every call happens where the engine wants it.
///
/// ## Implementation requirements
/// - ``reset()`` leaves the session as a fresh one would be: loading stopped, injected scripts
///   and message handlers removed, a blank page shown, back/forward history gone. It throws when
///   that is impossible; the pool then discards the session and makes a replacement.
/// - ``isHealthy()`` returns `false` when the session can no longer serve (its web process died).
/// - ``tearDown()`` releases every engine resource; the pool never uses the session afterwards.
public protocol PoolableSession: AnyObject, Sendable {
    /// Makes the session fit for a new holder; throws when it cannot.
    nonisolated(nonsending) func reset() async throws

    /// Whether the session can still serve a holder.
    nonisolated(nonsending) func isHealthy() async -> Bool

    /// Releases the session's engine resources. Called once; the session is never used again.
    nonisolated(nonsending) func tearDown() async
}
