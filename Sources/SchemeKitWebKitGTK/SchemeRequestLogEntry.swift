// Built only with the package trait `WebKitGTK` (it needs WebKitGTK 6.0's headers and libraries).
#if WebKitGTK
    /// One request an engine adapter served: what a `headless-render` line or an access log shows.
    public struct SchemeRequestLogEntry: Sendable, Hashable, Codable {
        /// The request's URL.
        public var url: String
        /// The URL's path.
        public var path: String
        /// The request method.
        public var method: String
        /// The response status; 0 when the task failed or stopped before a head.
        public var status: Int
        /// Body bytes handed to the engine.
        public var bytes: Int
        /// The handler that answered (`SchemeTask.respondingHandler`), or `"-"`.
        public var handler: String
        /// Milliseconds from the request to its end (finish, failure or stop).
        public var milliseconds: Double
        /// How the task ended: `"finished"`, `"failed"` or `"stopped"`.
        public var outcome: String
        /// Why the task failed (the handler's error, such as an origin that closed mid-body), when
        /// ``outcome`` is `"failed"`; `nil` otherwise.
        public var error: String?

        /// Creates an entry.
        package init(
            url: String, path: String, method: String, status: Int, bytes: Int, handler: String,
            milliseconds: Double, outcome: String, error: String? = nil
        ) {
            self.url = url
            self.path = path
            self.method = method
            self.status = status
            self.bytes = bytes
            self.handler = handler
            self.milliseconds = milliseconds
            self.outcome = outcome
            self.error = error
        }
    }
#endif
