// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import Foundation
    import Logging
    import LoopbackTestSupport
    import SchemeKit
    import SchemeServe
    import Testing

    /// The access log never blocks the event loop: records queue, a thread of the log's own writes
    /// them, and when standard error is stuck they are dropped, counted and reported.
    @Suite(.ownThread, .timeLimit(.minutes(1)))
    struct AccessLogTests {
        /// A log handler whose writes block until it is opened, as a full pipe on stderr would.
        final class StuckHandler: LogHandler, @unchecked Sendable {
            let gate = ConditionLock(false)
            let lines = Locked<[String]>([])
            /// Log calls made so far, blocked ones included.
            let calls = Locked(0)
            var logLevel: Logger.Level = .info
            var metadata: Logger.Metadata = [:]
            subscript(metadataKey key: String) -> Logger.Metadata.Value? {
                get { metadata[key] }
                set { metadata[key] = newValue }
            }
            func log(event: LogEvent) {
                calls.withLock { $0 += 1 }
                _ = gate.wait { $0 ? true : nil }
                lines.withLock { $0.append(event.message.description) }
            }
        }

        @Test func aStuckStandardErrorDropsAndCountsInsteadOfBlocking() async throws {
            let handler = StuckHandler()
            let log = AccessLog(logger: Logger(label: "access") { _ in handler }, capacity: 10)
            let started = ContinuousClock.now
            // The log's thread takes the first record and is stuck writing it…
            log.record(method: .get, target: "/0", status: 200, bytes: 1, started: started, handler: "files")
            #expect(await eventually { handler.calls.withLock { $0 } == 1 })
            // …so of the next 99 the queue keeps 10 and drops 89; every call returns although the
            // handler is stuck (a blocking log would hang here).
            for index in 1..<100 {
                log.record(method: .get, target: "/\(index)", status: 200, bytes: 1, started: started, handler: "files")
            }
            #expect(log.droppedCount == 89)
            handler.gate.withLock { $0 = true }
            log.flush()
            let lines = handler.lines.withLock { $0 }
            #expect(lines.contains { $0.hasPrefix("GET /0 200 1B") && $0.hasSuffix(" files") })
            // Every record is either written or counted in the one "lines dropped" warning (the
            // drops all came while the first batch was stuck).
            let warnings = lines.filter { $0.contains("lines dropped") }
            #expect(warnings == ["access log: 89 lines dropped (standard error was not keeping up)"])
            #expect(lines.count - warnings.count == 11)
            let targets = lines.filter { !$0.contains("lines dropped") }.map { String($0.split(separator: " ")[1]) }
            #expect(targets == (0...10).map { "/\($0)" })
        }
        /// A handler that holds lines until flushed, as schemeserve's own standard-error handler does.
        final class HoldingHandler: AccessLogFlushing, @unchecked Sendable {
            let held = Locked<[String]>([])
            let written = Locked<[String]>([])
            let metadataSeen = Locked<[Logger.Metadata?]>([])
            let wantsMetadata: Bool
            var logLevel: Logger.Level = .info
            var metadata: Logger.Metadata = [:]
            init(wantsMetadata: Bool) { self.wantsMetadata = wantsMetadata }
            subscript(metadataKey key: String) -> Logger.Metadata.Value? {
                get { metadata[key] }
                set { metadata[key] = newValue }
            }
            func log(event: LogEvent) {
                held.withLock { $0.append(event.message.description) }
                metadataSeen.withLock { $0.append(event.metadata) }
            }
            func flush() {
                let lines = held.withLock { lines in
                    defer { lines.removeAll() }
                    return lines
                }
                written.withLock { $0 += lines }
            }
            var writesMetadata: Bool { wantsMetadata }
        }

        /// Lines held by the handler reach their destination when the batch ends, without a
        /// request after them; metadata is built only for a handler that writes it.
        @Test(arguments: [false, true])
        func aHoldingHandlerIsFlushedAfterEachBatch(wantsMetadata: Bool) async throws {
            let handler = HoldingHandler(wantsMetadata: wantsMetadata)
            let log = AccessLog(logger: Logger(label: "access") { _ in handler })
            let started = ContinuousClock.now
            for index in 0..<3 {
                log.record(method: .get, target: "/\(index)", status: 200, bytes: 1, started: started, handler: "files")
            }
            #expect(await eventually { handler.written.withLock { $0.count } == 3 })
            #expect(
                handler.written.withLock { $0.map { $0.split(separator: " ").prefix(2).joined(separator: " ") } } == [
                    "GET /0", "GET /1", "GET /2",
                ])
            #expect(handler.held.withLock { $0.isEmpty })
            let metadata = handler.metadataSeen.withLock { $0 }
            #expect(metadata.allSatisfy { ($0?["status"] == "200") == wantsMetadata })
        }

        /// A handler that takes plain-text lines in batches, as schemeserve's text format does.
        final class PlainTextHandler: AccessLogFlushing, @unchecked Sendable {
            let text = Locked<[UInt8]>([])
            let events = Locked(0)
            var logLevel: Logger.Level = .info
            var metadata: Logger.Metadata = [:]
            subscript(metadataKey key: String) -> Logger.Metadata.Value? {
                get { metadata[key] }
                set { metadata[key] = newValue }
            }
            func log(event: LogEvent) { events.withLock { $0 += 1 } }
            func flush() {}
            func plainTextPrefix(level: Logger.Level) -> String? { "T \(level) " }
            func holdPlainText(_ text: [UInt8]) { self.text.withLock { $0 += text } }
        }

        /// Lines built for a plain-text handler say what a log event's message says, after the
        /// handler's prefix, one per record, with no log event.
        @Test func plainTextLinesAreTheMessagesAfterThePrefix() async throws {
            let handler = PlainTextHandler()
            let log = AccessLog(logger: Logger(label: "access") { _ in handler })
            let started = ContinuousClock.now
            log.record(method: .get, target: "/a.js?x=1", status: 200, bytes: 1234, started: started, handler: "files")
            log.record(
                AccessLog.Line(method: .head, target: "/b", status: 404, bytes: 0, handler: "guard"), started: started)
            log.record(
                method: .get, target: "/big", status: 200, bytes: 65536, started: started, handler: "files",
                aborted: true)
            log.flush()
            let lines = String(decoding: handler.text.withLock { $0 }, as: UTF8.self).split(
                separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.count == 4, "\(lines)")
            #expect(lines.last == "")
            #expect(lines[0].wholeMatch(of: /T info GET \/a\.js\?x=1 200 1234B \d+\.\d+ms files/) != nil, "\(lines[0])")
            #expect(lines[1].wholeMatch(of: /T info HEAD \/b 404 0B \d+\.\d+ms guard/) != nil, "\(lines[1])")
            #expect(
                lines[2].wholeMatch(of: /T info GET \/big 200 65536B \d+\.\d+ms files aborted/) != nil, "\(lines[2])")
            #expect(handler.events.withLock { $0 } == 0)
        }

        /// The duration prints as `Double`'s description of the value rounded to hundredths did.
        @Test func durationsPrintAsTheRoundedDouble() {
            var generator = SystemRandomNumberGenerator()
            var values: [Double] = [0, 0.004, 0.005, 0.1, 0.25, 1, 1.05, 2.999, 10, 12.5, 99.99, 100.001, 12345.678]
            for _ in 0..<2_000 { values.append(Double.random(in: 0..<5_000, using: &generator)) }
            for value in values {
                #expect(AccessLog.milliseconds(value) == "\((value * 100).rounded() / 100)", "\(value)")
            }
        }
    }
#endif
