// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    public import HTTPTypes
    public import Logging

    /// One line per request through swift-log: method, path, status, bytes, milliseconds and the
    /// handler that answered (``SchemeKit/SchemeTask/respondingHandler``, or `guard` for requests the
    /// security checks refused).
    ///
    /// The message is `GET /a.js 200 1234B 0.42ms files`; the same values are attached as metadata
    /// (`method`, `path`, `status`, `bytes`, `ms`, `handler`) for structured (JSON) log handlers.
    public struct AccessLog: Sendable {
        /// The logger the lines go to, at `.info`.
        public let logger: Logger

        /// Creates an access log writing to `logger`.
        public init(logger: Logger) {
            self.logger = logger
        }

        /// Records one request.
        public func record(
            method: HTTPRequest.Method,
            target: String,
            status: Int,
            bytes: Int,
            started: ContinuousClock.Instant,
            handler: String,
            aborted: Bool = false
        ) {
            guard logger.logLevel <= .info else { return }
            let elapsed = ContinuousClock.now - started
            let ms = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
            let rounded = (ms * 100).rounded() / 100
            logger.info(
                "\(method.rawValue) \(target) \(status) \(bytes)B \(rounded)ms \(handler)\(aborted ? " aborted" : "")",
                metadata: [
                    "method": "\(method.rawValue)",
                    "path": "\(target)",
                    "status": "\(status)",
                    "bytes": "\(bytes)",
                    "ms": "\(rounded)",
                    "handler": "\(handler)",
                ]
            )
        }
    }
#endif
