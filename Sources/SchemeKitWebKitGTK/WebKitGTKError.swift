// Built only with the package trait `WebKitGTK` (it needs WebKitGTK 6.0's headers and libraries).
#if WebKitGTK
    /// Something WebKitGTK reported, or a precondition of the adapter that does not hold.
    public struct WebKitGTKError: Error, Hashable, Sendable, CustomStringConvertible {
        enum Code: Hashable, Sendable {
            case noDisplay, loadFailed, javaScript, snapshot, webProcessTerminated, timedOut, sessionClosed,
                websiteData,
                invalidRequest, print, requestBodyTooLarge
        }

        let code: Code
        /// WebKit's or GLib's message, when there is one.
        public let message: String

        init(_ code: Code, _ message: String = "") {
            self.code = code
            self.message = message
        }

        /// GTK could not open a display; run under `xvfb-run -a`.
        public static let noDisplay = WebKitGTKError(.noDisplay, "GTK could not open a display (run under xvfb-run -a)")
        /// The session was torn down.
        public static let sessionClosed = WebKitGTKError(.sessionClosed, "the web view session is closed")
        /// The web process of the view died.
        public static let webProcessTerminated = WebKitGTKError(.webProcessTerminated, "the web process terminated")

        /// A page load failed.
        public static func loadFailed(_ message: String) -> WebKitGTKError { WebKitGTKError(.loadFailed, message) }
        /// A script threw, or its result could not be read.
        public static func javaScript(_ message: String) -> WebKitGTKError { WebKitGTKError(.javaScript, message) }
        /// A snapshot could not be taken or saved.
        public static func snapshot(_ message: String) -> WebKitGTKError { WebKitGTKError(.snapshot, message) }
        /// The page could not be printed to a PDF file (``WebViewSession/printToPDF(to:options:)``).
        public static func print(_ message: String) -> WebKitGTKError { WebKitGTKError(.print, message) }
        /// WebKit could not clear website data (``WebKitSchemeAdapter/clearMemoryCache(networkSession:)``).
        public static func websiteData(_ message: String) -> WebKitGTKError { WebKitGTKError(.websiteData, message) }
        /// WebKit handed over a request SchemeKit cannot represent (a method that is not an HTTP token,
        /// a URI that does not parse); the request fails with this message.
        public static func invalidRequest(_ message: String) -> WebKitGTKError {
            WebKitGTKError(.invalidRequest, message)
        }
        /// A request body is larger than the adapter's `maximumRequestBodySize` (`limit`
        /// bytes): reading it stops there, and the handler reading it gets this error, which fails
        /// its task. The message names the setting. Compare kinds with ``isKind(of:)``.
        public static func requestBodyTooLarge(limit: Int) -> WebKitGTKError {
            WebKitGTKError(
                .requestBodyTooLarge,
                "the request body is larger than \(limit) bytes, the adapter's maximumRequestBodySize "
                    + "(WebKitSchemeAdapter(maximumRequestBodySize:))")
        }
        /// An operation did not complete in time.
        public static func timedOut(_ message: String) -> WebKitGTKError { WebKitGTKError(.timedOut, message) }

        /// Whether two errors are of the same kind, ignoring the message.
        public func isKind(of other: WebKitGTKError) -> Bool { code == other.code }

        /// A one-line explanation.
        public var description: String { message }
    }
#endif
