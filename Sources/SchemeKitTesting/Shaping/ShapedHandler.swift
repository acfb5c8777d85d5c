public import SchemeKit

/// Wraps any handler in a simulated network: a latency before the response, a bandwidth for the
/// body and a failure at a chosen byte (``NetworkConditions``), timed on a clock of your choice.
///
/// Generic over `Clock`: with ``ImmediateClock`` nothing really sleeps, the clock's time advances
/// by each requested sleep, so a test checks the pacing exactly and instantly.
///
/// ## Behaviour
/// - **Latency** is waited before the wrapped handler runs; one draw per request (see
///   ``NetworkLatency``).
/// - **Bandwidth** paces body writes against the clock: a write is split into chunks of at most
///   ``NetworkConditions/chunkSize`` bytes, and chunk *k* is written once the clock reaches
///   `start + (bytes up to and including k) / bytesPerSecond`, `start` being the first body write.
///   Time the engine itself takes counts against the budget, so a slow engine is not slowed
///   twice, and the rate holds over the whole body (no rounding error builds up).
/// - **Failure** cuts the body at the failure's byte (``NetworkFailure/atByte(_:error:)``) and
///   fails the task.
/// - **Stops.** A stop during the latency or a pacing wait ends it at once (the clock's sleep
///   throws `CancellationError`); cancellation is also checked before every write, so nothing is
///   written after a stop.
///
/// ```swift
/// let clock = ImmediateClock()
/// let slow = StaticHandler(Data(count: 1_000_000))
///     .shaped(NetworkConditions(latency: .fixed(.milliseconds(80)), bytesPerSecond: 250_000), clock: clock)
/// _ = try await ScriptedEngine(serving: slow).run("app://localhost/big")
/// #expect(clock.totalSlept == .milliseconds(4080))
/// ```
public struct ShapedHandler<Wrapped: SchemeHandler, C: Clock<Duration>>: SchemeForwardingHandler {
    /// The handler behind the simulated network.
    public let wrapped: Wrapped
    /// The simulated network.
    package let conditions: NetworkConditions
    /// The clock the waits are measured on.
    package let clock: C
    /// Where latency draws come from: seeded once per handler.
    private let generator: Locked<SeededGenerator>

    /// Creates a shaped handler.
    ///
    /// - Parameters:
    ///   - wrapped: The handler behind the simulated network.
    ///   - conditions: Latency, bandwidth, failure.
    ///   - clock: The clock to wait on.
    package init(_ wrapped: Wrapped, conditions: NetworkConditions, clock: C) {
        self.wrapped = wrapped
        self.conditions = conditions
        self.clock = clock
        self.generator = Locked(SeededGenerator(seed: conditions.latency.seed))
    }

    /// A writing answer that waits the latency, then writes the wrapped handler's answer through a
    /// writer that paces and cuts its body. With no conditions at all, the wrapped answer as it is.
    ///
    /// The writing answer throws `CancellationError` when the task is stopped during a wait; the
    /// failure's error when the body reaches the failure's byte; what the wrapped handler throws.
    public func answer(to request: SchemeRequest) -> SchemeAnswer {
        let shapesBody = conditions.bytesPerSecond != nil || conditions.failure != nil
        guard shapesBody || !conditions.latency.isNone else { return wrapped.answer(to: request) }
        let latency = conditions.latency
        let delay = latency.isNone ? .zero : generator.withLock { latency.sample(using: &$0) }
        let (wrapped, conditions, clock) = (self.wrapped, self.conditions, self.clock)
        return .writing { writer in
            if delay > .zero { try await clock.sleep(for: delay) }
            try Task.checkCancellation()
            let answer = wrapped.answer(to: request)
            guard shapesBody else { return try await answer.perform(request: request, with: writer) }
            return try await Self.perform(answer, request, through: writer, conditions: conditions, clock: clock)
        }
    }

    /// `answer` written through a ``ShapedWriter`` over `writer`.
    private static func perform(
        _ answer: SchemeAnswer, _ request: SchemeRequest, through writer: some SchemeResponseWriter,
        conditions: NetworkConditions, clock: C
    ) async throws -> SchemeHandlerOutcome {
        try await answer.perform(
            request: request, with: ShapedWriter(base: writer, conditions: conditions, clock: clock))
    }
}

extension ShapedHandler where C == ContinuousClock {
    /// Creates a shaped handler timed on the `ContinuousClock`.
    package init(_ wrapped: Wrapped, conditions: NetworkConditions) {
        self.init(wrapped, conditions: conditions, clock: ContinuousClock())
    }
}
