// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import Foundation
    package import HTTPTypes
    package import Logging
    import SchemeKit

    /// One line per request through swift-log: method, path, status, bytes, milliseconds and the
    /// handler that answered (`SchemeTask.respondingHandler`, or `guard` for requests the
    /// security checks refused), then why it refused the request when the handler said
    /// (`SchemeResponse.refusalReason`).
    ///
    /// The message is `GET /a.js 200 1234B 0.42ms files`, or for a refusal with a reason
    /// `GET /_static/jquery.js 403 121B 0.3ms files refused: a symbolic link out of the served
    /// directory (…)`; the same values are attached as metadata (`method`, `path`, `status`,
    /// `bytes`, `ms`, `handler`, and `refused` when there is a reason) for structured (JSON) log
    /// handlers.
    ///
    /// ``record(method:target:status:bytes:started:handler:aborted:)`` never blocks and never
    /// formats: it is called on the event loop for every request, so it only appends the values to
    /// a bounded queue (``capacity`` records). A thread of the log's own turns them into log events
    /// and hands them to the logger, whose handler may block on a slow standard error without
    /// slowing a single response. When the queue is full (standard error blocked for long), records
    /// are dropped and counted (``droppedCount``); the next line logged says how many were lost.
    package final class AccessLog: Sendable {
        /// The logger the lines go to, at `.info`.
        package let logger: Logger
        /// The most records waiting for the log's thread; more are dropped. Default: 16,384.
        package let capacity: Int

        /// What a line says of a request, but its time.
        package struct Line {
            package var method: HTTPRequest.Method
            package var target: String
            package var status: Int
            package var bytes: Int
            /// The handler that answered, or `guard`.
            package var handler: String
            /// Why the handler refused the request (the description of the head's
            /// `refusalReason`), or `nil`.
            package var refusal: String?

            package init(
                method: HTTPRequest.Method, target: String, status: Int, bytes: Int, handler: String,
                refusal: String? = nil
            ) {
                self.method = method
                self.target = target
                self.status = status
                self.bytes = bytes
                self.handler = handler
                self.refusal = refusal
            }
        }

        private struct Record {
            var line: Line
            var milliseconds: Double
            var aborted: Bool
        }

        private struct Queue {
            var records: [Record] = []
            var dropped = 0
            var droppedTotal = 0
            var writing = false
            var stopped = false
        }

        /// Appended to on the event loops without waking anyone: the log's thread looks every
        /// ``pollInterval`` (a wake-up per request would cost the loop a system call).
        private let queue = Locked(Queue())
        /// How often the log's thread looks for records.
        static let pollInterval: Duration = .milliseconds(10)
        private let enabled: Bool

        /// Creates an access log writing to `logger` from a thread of its own.
        ///
        /// - Parameters:
        ///   - logger: Where lines go, at `.info`; nothing is recorded when its level is above `.info`.
        ///   - capacity: The most records waiting to be written. Default: 16,384.
        package init(logger: Logger, capacity: Int = 16_384) {
            self.logger = logger
            self.capacity = max(1, capacity)
            self.enabled = logger.logLevel <= .info
            guard enabled else { return }
            let thread = Thread { [queue, logger] in
                ThreadName.set("schemeserve-log")
                Self.write(queue, to: logger)
            }
            thread.name = "schemeserve access log"
            thread.start()
        }

        deinit {
            queue.withLock { $0.stopped = true }
        }

        /// Records one request; returns at once (see the type's discussion).
        package func record(
            method: HTTPRequest.Method,
            target: String,
            status: Int,
            bytes: Int,
            started: ContinuousClock.Instant,
            handler: String,
            refusal: String? = nil,
            aborted: Bool = false
        ) {
            record(
                Line(
                    method: method, target: target, status: status, bytes: bytes, handler: handler, refusal: refusal),
                started: started, aborted: aborted)
        }

        /// Records `line` for a request that started at `started`; returns at once.
        package func record(_ line: Line, started: ContinuousClock.Instant, aborted: Bool = false) {
            guard enabled else { return }
            let elapsed = ContinuousClock.now - started
            let record = Record(
                line: line,
                milliseconds: Double(elapsed.components.seconds) * 1000
                    + Double(elapsed.components.attoseconds) / 1e15,
                aborted: aborted)
            queue.withLock { queue in
                guard queue.records.count < capacity else {
                    queue.dropped += 1
                    queue.droppedTotal += 1
                    return
                }
                queue.records.append(record)
            }
        }

        /// Records dropped so far because the queue was full.
        package var droppedCount: Int { queue.withLock { $0.droppedTotal } }

        /// Returns once every record made before the call has been handed to the logger (or the
        /// log was stopped). For tests and shutdown.
        package func flush() {
            guard enabled else { return }
            while !queue.withLock({ $0.records.isEmpty && $0.dropped == 0 && !$0.writing || $0.stopped }) {
                usleep(1000)
            }
        }

        /// The log's thread: takes what is queued, logs it, and looks again a moment later.
        private static func write(_ queue: Locked<Queue>, to logger: Logger) {
            let pause = UInt32(pollInterval.components.attoseconds / 1_000_000_000_000)
            while true {
                let (records, dropped, stopped) = queue.withLock { queue -> ([Record], Int, Bool) in
                    queue.writing = !queue.records.isEmpty || queue.dropped > 0
                    defer {
                        queue.records.removeAll(keepingCapacity: true)
                        queue.dropped = 0
                    }
                    return (queue.records, queue.dropped, queue.stopped)
                }
                if dropped > 0 {
                    logger.warning("access log: \(dropped) lines dropped (standard error was not keeping up)")
                }
                let flushing = logger.handler as? any AccessLogFlushing
                if let flushing, !records.isEmpty, let prefix = flushing.plainTextPrefix(level: .info) {
                    // The handler's text lines, built here in one buffer: no log event per line.
                    var text: [UInt8] = []
                    text.reserveCapacity(records.count * (prefix.utf8.count + 64))
                    for record in records { append(record, after: prefix, to: &text) }
                    flushing.holdPlainText(text)
                } else {
                    let metadata = flushing?.writesMetadata ?? true
                    for record in records { log(record, to: logger, metadata: metadata) }
                }
                flushing?.flush()
                queue.withLock { $0.writing = false }
                if records.isEmpty, dropped == 0 {
                    if stopped { return }
                    usleep(pause)
                }
            }
        }

        /// `milliseconds` to two decimals, as `Double`'s description would print the rounded value
        /// (`0.78`, `1.0`, `12.5`), without formatting a `Double`.
        package static func milliseconds(_ milliseconds: Double) -> String {
            let hundredths = Int((max(0, milliseconds) * 100).rounded())
            let (whole, fraction) = hundredths.quotientAndRemainder(dividingBy: 100)
            switch fraction {
            case 0: return "\(whole).0"
            case let tenths where tenths % 10 == 0: return "\(whole).\(tenths / 10)"
            case 1..<10: return "\(whole).0\(fraction)"
            default: return "\(whole).\(fraction)"
            }
        }

        /// The line's message: `GET /a.js 200 1234B 0.42ms files`, then ` aborted` for a response
        /// cut short, and ` refused: <reason>` for a refusal with a reason.
        private static func message(_ record: Record) -> String {
            let line = record.line
            let refusal = line.refusal.map { " refused: \($0)" } ?? ""
            return
                "\(line.method.rawValue) \(line.target) \(line.status) \(line.bytes)B \(Self.milliseconds(record.milliseconds))ms \(line.handler)\(record.aborted ? " aborted" : "")\(refusal)"
        }

        /// Appends `prefix`, the record's message and a newline to `text`.
        private static func append(_ record: Record, after prefix: String, to text: inout [UInt8]) {
            let line = record.line
            text.append(contentsOf: prefix.utf8)
            text.append(contentsOf: line.method.rawValue.utf8)
            text.append(UInt8(ascii: " "))
            text.append(contentsOf: line.target.utf8)
            text.append(UInt8(ascii: " "))
            text.append(contentsOf: String(line.status).utf8)
            text.append(UInt8(ascii: " "))
            text.append(contentsOf: String(line.bytes).utf8)
            text.append(contentsOf: "B ".utf8)
            text.append(contentsOf: Self.milliseconds(record.milliseconds).utf8)
            text.append(contentsOf: "ms ".utf8)
            text.append(contentsOf: line.handler.utf8)
            if record.aborted { text.append(contentsOf: " aborted".utf8) }
            if let refusal = line.refusal {
                text.append(contentsOf: " refused: ".utf8)
                text.append(contentsOf: refusal.utf8)
            }
            text.append(UInt8(ascii: "\n"))
        }

        private static func log(_ record: Record, to logger: Logger, metadata: Bool) {
            let line = record.line
            let rounded = Self.milliseconds(record.milliseconds)
            let method = line.method.rawValue
            let message = Logger.Message(stringLiteral: Self.message(record))
            guard metadata else { return logger.info(message) }
            var fields: Logger.Metadata = [
                "method": "\(method)",
                "path": "\(line.target)",
                "status": "\(line.status)",
                "bytes": "\(line.bytes)",
                "ms": "\(rounded)",
                "handler": "\(line.handler)",
            ]
            if let refusal = line.refusal { fields["refused"] = "\(refusal)" }
            logger.info(message, metadata: fields)
        }
    }
#endif
