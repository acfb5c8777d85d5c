public import Foundation

/// What one engine request through a ``Preloader`` waited for: an embedder compares
/// ``Source-swift.enum/preload`` timings with ``Source-swift.enum/network`` ones to see what
/// preloading saved.
///
/// Every duration is measured from the moment the request reached the preloader (the engine
/// asked).
public struct PreloadTiming: Sendable, Hashable {
    /// Where the request's bytes came from.
    public enum Source: String, Sendable, Hashable {
        /// It claimed a fetch started by ``Preloader/preload(_:headerFields:)``.
        case preload
        /// It joined a fetch another identical request had started (coalescing).
        case joined
        /// It started its own upstream fetch.
        case network
        /// It was not coalescable (not a GET, a `Range` request, a body) and went straight to the
        /// network.
        case direct
    }

    /// How the request ended.
    public enum Outcome: String, Sendable, Hashable {
        /// The whole body was written and the task finished.
        case finished
        /// The upstream failed; the task got a 502/504 or was failed.
        case failed
        /// The engine stopped the task.
        case stopped
    }

    /// The network URL (after rewriting).
    public var url: URL
    /// Where the bytes came from.
    public var source: Source
    /// How the request ended.
    public var outcome: Outcome
    /// For ``Source-swift.enum/preload`` and ``Source-swift.enum/joined``: how long before the
    /// request the shared fetch had started.
    public var headStart: Duration?
    /// Until the response head was written.
    public var wait: Duration?
    /// Until the first body byte was written (`nil` for an empty body).
    public var firstByte: Duration?
    /// Until the finish was written (`nil` unless ``outcome`` is ``Outcome-swift.enum/finished``).
    public var done: Duration?
    /// Body bytes written to the task.
    public var bytes: Int
}
