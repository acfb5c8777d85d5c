// Built only with the package trait `WebKitGTK` (it needs WebKitGTK 6.0's headers and libraries).
#if WebKitGTK
    package import SchemeKit

    /// The errors WebKitGTK's adapter and sessions throw, with the messages they carry: one place
    /// that maps what WebKit or GLib reports onto the ``EngineError/Code`` every engine shares.
    extension EngineError {
        /// GTK could not open a display; run under `xvfb-run -a`.
        package static let noDisplay = EngineError(
            .launchFailed, "GTK could not open a display (run under xvfb-run -a)")
        /// The session was torn down.
        package static let sessionClosed = EngineError(.closed, "the web view session is closed")
        /// What ``GLibExecutor/run(_:)`` throws once its ``GLibMainThread`` has stopped.
        package static let mainThreadStopped = EngineError(.closed, "the GLib main thread has stopped")
        /// The web process of the view died.
        package static let webProcessTerminated = EngineError(.disconnected, "the web process terminated")

        /// A page load failed.
        package static func loadFailed(_ message: String) -> EngineError { EngineError(.navigationFailed, message) }
        /// A script threw, or its result could not be read.
        package static func javaScript(_ message: String) -> EngineError { EngineError(.evaluationFailed, message) }
        /// A snapshot could not be taken or saved.
        package static func snapshot(_ message: String) -> EngineError {
            EngineError(.operationFailed, "snapshot: \(message)")
        }
        /// The page could not be printed to a PDF file.
        package static func print(_ message: String) -> EngineError {
            EngineError(.operationFailed, "print to PDF: \(message)")
        }
        /// WebKit could not clear website data.
        package static func websiteData(_ message: String) -> EngineError {
            EngineError(.operationFailed, "clearing website data: \(message)")
        }
        /// WebKit handed over a request SchemeKit cannot represent.
        package static func invalidRequest(_ message: String) -> EngineError { EngineError(.invalidRequest, message) }
        /// A request body is larger than the adapter's `maximumRequestBodySize` (`limit` bytes).
        package static func requestBodyTooLarge(limit: Int) -> EngineError {
            EngineError(
                .bodyTooLarge,
                "the request body is larger than \(limit) bytes, the adapter's maximumRequestBodySize "
                    + "(WebKitSchemeAdapter(maximumRequestBodySize:))")
        }
        /// An operation did not complete in time.
        package static func timedOut(_ message: String) -> EngineError { EngineError(.timedOut, message) }
    }
#endif
