import Foundation

/// A writer that wraps another and forwards every call to it unless it says otherwise: the base
/// of every wrapping writer (caches that keep a copy, throttles, timers, fault injectors).
///
/// Implement only the calls you observe or change, and call ``base`` from them; everything else
/// — including ``SchemeResponseWriter/makeBody(count:fill:)``, which carries the engine's body
/// memory — is forwarded. One exception, on the safe side: ``SchemeResponseWriter/acceptsFileRegions``
/// is `false` unless the wrapper forwards it (`var acceptsFileRegions: Bool { base.acceptsFileRegions }`),
/// because a wrapper that looks at the bytes it passes on would otherwise be handed a file region
/// to read. This is SwiftNIO's `ChannelInboundHandler` rule: forward unless you
/// override, so a wrapper cannot silently lose a capability of the writer it wraps.
///
/// ```swift
/// struct CountingWriter<Base: SchemeResponseWriter>: SchemeForwardingWriter {
///     let base: Base
///     let counter: ByteCounter
///
///     func write(_ body: SchemeBody) async throws {
///         try await base.write(body)
///         counter.add(body.count)
///     }
/// }
/// ```
public protocol SchemeForwardingWriter<Base>: SchemeResponseWriter {
    /// The writer calls are forwarded to.
    associatedtype Base: SchemeResponseWriter

    /// The wrapped writer.
    var base: Base { get }
}

extension SchemeForwardingWriter {
    /// Forwards to ``base``.
    public func writeHead(_ response: SchemeResponse) async throws {
        try await base.writeHead(response)
    }

    /// Forwards to ``base``.
    public func write(_ body: SchemeBody) async throws {
        try await base.write(body)
    }

    /// Forwards to ``base``.
    public func finish() async throws {
        try await base.finish()
    }

    /// Forwards to ``base``.
    public func fail(_ error: any Error) async throws {
        try await base.fail(error)
    }

    /// Forwards to ``base``: the body lands in the engine's memory, as if there were no wrapper.
    public func makeBody<Failure: Error>(
        count: Int, fill: (UnsafeMutableRawBufferPointer) throws(Failure) -> Int
    ) throws(Failure) -> SchemeBody {
        try base.makeBody(count: count, fill: fill)
    }
}
