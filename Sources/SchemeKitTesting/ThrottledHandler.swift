import Foundation
public import SchemeKit

/// Limits the wrapped handler's body to a bandwidth in bytes per second: a slow network.
///
/// Every body write of the wrapped handler is split into chunks of ``chunkSize`` bytes; after
/// each chunk the handler sleeps `chunk.count / bytesPerSecond` seconds on ``clock``, so a body
/// of `n` bytes takes `n / bytesPerSecond` seconds in all. Use ``ImmediateClock`` to test the
/// pacing without waiting. A stop during a sleep cancels it.
///
/// ```swift
/// let clock = ImmediateClock()
/// let slow = ThrottledHandler(StaticHandler(Data(count: 10_000)), bytesPerSecond: 1_000, clock: clock)
/// _ = try await ScriptedEngine(serving: slow).run("app://localhost/big")
/// #expect(clock.totalSlept == .seconds(10))
/// ```
public struct ThrottledHandler<Wrapped: SchemeHandler>: SchemeHandler {
    /// The handler whose body is throttled.
    public let wrapped: Wrapped
    /// The bandwidth, in bytes per second (at least 1).
    public let bytesPerSecond: Int
    /// The size of each write (at least 1).
    public let chunkSize: Int
    /// The clock to sleep on.
    public let clock: any Clock<Duration>

    /// Creates a throttled handler.
    ///
    /// - Parameters:
    ///   - wrapped: The handler whose body is throttled.
    ///   - bytesPerSecond: The bandwidth (clamped to at least 1).
    ///   - chunkSize: The size of each write. Default: a tenth of a second's worth, at least 1 byte.
    ///   - clock: The clock to sleep on. Default: `ContinuousClock`.
    public init(
        _ wrapped: Wrapped,
        bytesPerSecond: Int,
        chunkSize: Int? = nil,
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.wrapped = wrapped
        self.bytesPerSecond = max(1, bytesPerSecond)
        self.chunkSize = max(1, chunkSize ?? self.bytesPerSecond / 10)
        self.clock = clock
    }

    /// The wrapped handler's methods.
    public var supportedMethods: Set<HTTPRequest.Method> { wrapped.supportedMethods }

    /// The wrapped handler's name.
    public var name: String { wrapped.name }

    /// Calls the wrapped handler with a writer that paces its body.
    public func handle(_ request: SchemeRequest, writer: some SchemeResponseWriter) async throws -> SchemeHandlerOutcome
    {
        try await wrapped.handle(request, writer: ThrottledWriter(base: writer, throttle: self))
    }

    /// How long `count` bytes take at ``bytesPerSecond``.
    func duration(of count: Int) -> Duration {
        let nanoseconds = Int64(count) * 1_000_000_000 / Int64(bytesPerSecond)
        return .nanoseconds(nanoseconds)
    }
}

/// The writer behind ``ThrottledHandler``: chunks and paces body writes, passes the rest through.
struct ThrottledWriter<Base: SchemeResponseWriter, Wrapped: SchemeHandler>: SchemeForwardingWriter {
    let base: Base
    let throttle: ThrottledHandler<Wrapped>

    func write(_ body: SchemeBody) async throws {
        var offset = 0
        while offset < body.count {
            let end = min(offset + throttle.chunkSize, body.count)
            try await base.write(body.slice(offset..<end))
            try await throttle.clock.sleep(for: throttle.duration(of: end - offset))
            offset = end
        }
    }

}
