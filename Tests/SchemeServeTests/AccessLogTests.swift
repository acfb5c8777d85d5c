// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import Foundation
    import Logging
    import SchemeKit
    import SchemeServe
    import Testing

    /// The access log never blocks the event loop: records queue, a thread of the log's own writes
    /// them, and when standard error is stuck they are dropped, counted and reported.
    @Suite(.timeLimit(.minutes(1)))
    struct AccessLogTests {
        /// A log handler whose writes block until it is opened, as a full pipe on stderr would.
        final class StuckHandler: LogHandler, @unchecked Sendable {
            let gate = ConditionLock(false)
            let lines = Locked<[String]>([])
            var logLevel: Logger.Level = .info
            var metadata: Logger.Metadata = [:]
            subscript(metadataKey key: String) -> Logger.Metadata.Value? {
                get { metadata[key] }
                set { metadata[key] = newValue }
            }
            func log(event: LogEvent) {
                _ = gate.wait { $0 ? true : nil }
                lines.withLock { $0.append(event.message.description) }
            }
        }

        @Test func aStuckStandardErrorDropsAndCountsInsteadOfBlocking() async throws {
            let handler = StuckHandler()
            let log = AccessLog(logger: Logger(label: "access") { _ in handler }, capacity: 10)
            let started = ContinuousClock.now
            // Every call returns although the handler is stuck (a blocking log would hang here).
            for index in 0..<100 {
                log.record(method: .get, target: "/\(index)", status: 200, bytes: 1, started: started, handler: "files")
            }
            #expect(log.droppedCount >= 80, "dropped: \(log.droppedCount)")
            #expect(log.droppedCount <= 90)
            handler.gate.withLock { $0 = true }
            log.flush()
            let lines = handler.lines.withLock { $0 }
            #expect(lines.contains { $0.hasPrefix("GET /0 200 1B") && $0.hasSuffix(" files") })
            // Every record is either written or counted in a "lines dropped" warning (one per batch
            // that had drops: more than one when the writer took a batch while the loop was running).
            let warnings = lines.filter { $0.contains("lines dropped") }
            #expect(!warnings.isEmpty)
            let reported = warnings.compactMap { Int($0.split(separator: " ").dropFirst(2).first ?? "") }
            #expect(reported.reduce(0, +) == log.droppedCount, "\(warnings)")
            #expect(lines.count - warnings.count == 100 - log.droppedCount)
        }
    }
#endif
