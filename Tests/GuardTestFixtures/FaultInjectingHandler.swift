import Foundation
public import SchemeKit
import Synchronization

/// Wraps a handler and injects one ``HandlerFault``: an error before the head or mid-body, or a
/// protocol misuse.
///
/// ```swift
/// let broken = FaultInjectingHandler(StaticHandler(Data(count: 4096)), fault: .throwAfterBytes(1000))
/// let result = try await ScriptedEngine(serving: broken).run("app://localhost/file")
/// #expect(result.body.count == 1000)
/// #expect(result.recording.failure != nil)
///
/// let misuse = FaultInjectingHandler(StaticHandler("ok"), fault: .duplicateHead)
/// let clean = try await ScriptedEngine(serving: misuse).run("app://localhost/")
/// #expect(misuse.rejections.count == 1)     // the second head threw SchemeTaskError
/// #expect(clean.violations.isEmpty)         // and never reached the engine
/// ```
///
/// Misuse faults catch the error the writer throws for the misuse, record it in ``rejections``,
/// and let the wrapped handler carry on, so a test sees both the typed error and the intact
/// response. Error faults propagate: the task fails.
public final class FaultInjectingHandler<Wrapped: SchemeHandler>: SchemeForwardingHandler {
    /// The handler the fault is injected into.
    public let wrapped: Wrapped
    /// The fault.
    package let fault: HandlerFault
    private let rejected = Locked<[any Error]>([])

    /// Injects `fault` into `wrapped`.
    public init(_ wrapped: Wrapped, fault: HandlerFault) {
        self.wrapped = wrapped
        self.fault = fault
    }

    /// The errors the writer threw for injected misuse, across every request so far. With a
    /// guarded writer each is a `SchemeTaskError` (or `CancellationError` after a stop).
    public var rejections: [any Error] { rejected.withLock { $0 } }

    /// A writing answer that writes the wrapped handler's answer with the fault injected.
    public func answer(to request: SchemeRequest) -> SchemeAnswer {
        .writing { writer in try await self.perform(request, writer: writer) }
    }

    private func perform(_ request: SchemeRequest, writer: some SchemeResponseWriter) async throws
        -> SchemeHandlerOutcome
    {
        switch fault.kind {
        case .throwBeforeHead(let error):
            throw error
        case .failBeforeHead(let error):
            try await writer.fail(error)
            return .handled
        default:
            return try await wrapped.answer(to: request).perform(
                request: request, with: FaultWriter(base: writer, fault: fault, owner: self))
        }
    }

    func record(_ error: any Error) {
        rejected.withLock { $0.append(error) }
    }
}

/// The writer behind ``FaultInjectingHandler``.
final class FaultWriter<Base: SchemeResponseWriter, Wrapped: SchemeHandler>: SchemeForwardingWriter {
    struct State {
        var bytes = 0
        var injected = false
    }

    let base: Base
    let fault: HandlerFault
    let owner: FaultInjectingHandler<Wrapped>
    private let state = Locked(State())

    init(base: Base, fault: HandlerFault, owner: FaultInjectingHandler<Wrapped>) {
        self.base = base
        self.fault = fault
        self.owner = owner
    }

    /// Marks the fault injected; `true` the first time only.
    private func inject() -> Bool {
        state.withLock { state in
            defer { state.injected = true }
            return !state.injected
        }
    }

    /// Performs a misuse write and records the error it must throw.
    private func misuse(_ write: () async throws -> Void) async {
        do {
            try await write()
        } catch {
            owner.record(error)
        }
    }

    func writeHead(_ response: SchemeResponse) async throws {
        if case .bodyBeforeHead = fault.kind, inject() {
            await misuse { try await base.write(Data("misuse".utf8)) }
        }
        try await base.writeHead(response)
        if case .duplicateHead = fault.kind, inject() {
            await misuse { try await base.writeHead(response) }
        }
        if case .throwAfterBytes(0, let error) = fault.kind, inject() { throw error }
        if case .failAfterBytes(0, let error) = fault.kind, inject() {
            try await base.fail(error)
            throw error
        }
    }

    func write(_ body: SchemeBody) async throws {
        let limit: Int
        let error: any Error
        let throwing: Bool
        switch fault.kind {
        case .throwAfterBytes(let bytes, let injected):
            (limit, error, throwing) = (bytes, injected, true)
        case .failAfterBytes(let bytes, let injected):
            (limit, error, throwing) = (bytes, injected, false)
        default:
            try await base.write(body)
            return
        }
        let written = state.withLock { $0.bytes }
        let allowed = max(0, min(body.count, limit - written))
        if allowed > 0 {
            try await base.write(body.prefix(allowed))
            state.withLock { $0.bytes += allowed }
        }
        guard written + allowed >= limit, inject() else { return }
        if !throwing { try await base.fail(error) }
        throw error
    }

    func finish() async throws {
        try await base.finish()
        switch fault.kind {
        case .finishTwice where inject():
            await misuse { try await base.finish() }
        case .writeAfterFinish where inject():
            await misuse { try await base.write(Data("late".utf8)) }
        default:
            break
        }
    }
}
