import Foundation

/// The sink a task holds while it has no engine to talk to: between its creation and
/// ``SchemeRegistry/task(for:makeSink:)`` attaching the real sink, and after the handler has
/// returned (the engine's sink is let go then). Nothing reaches it in either case.
struct DetachedSink: SchemeTaskSink {
    func receive(_ response: SchemeResponse) {}
    func receive(_ body: SchemeBody) {}
    func finish() {}
    func fail(_ error: any Error) {}
}
