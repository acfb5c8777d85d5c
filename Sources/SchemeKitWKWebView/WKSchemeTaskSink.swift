#if SCHEMEKIT_WEBKIT_STANDIN
    import WebKitStandIn
#elseif canImport(WebKit)
    import WebKit
#endif

#if SCHEMEKIT_WEBKIT_STANDIN || canImport(WebKit)
    import Dispatch
    import SchemeKit

    /// The guarded task's sink for one `WKURLSchemeTask`: every call runs on the main queue
    /// (``deliveryQueue``), where it is handed to the task's ``WKSchemeTaskBridge``.
    ///
    /// The guarded task delivers each write in a main-queue job, re-checking under its lock that
    /// the engine has not stopped the task; `webView(_:stop:)` stops the task on the main thread, so
    /// a job that runs after it delivers nothing. A handler's write returns once its job has run:
    /// at most one write per task is queued at a time, which is the adapter's back-pressure
    /// (`WKURLSchemeTask` has no flow control of its own).
    struct WKSchemeTaskSink: SchemeTaskSink {
        let bridge: WKSchemeTaskBridge

        /// The main queue: WebKit's thread.
        var deliveryQueue: (any SchemeDeliveryQueue)? { DispatchQueue.main }

        func receive(_ response: SchemeResponse) {
            MainActor.assumeIsolated { bridge.receive(response) }
        }

        func receive(_ body: SchemeBody) {
            MainActor.assumeIsolated { bridge.receive(body) }
        }

        func finish() {
            MainActor.assumeIsolated { bridge.finish() }
        }

        func fail(_ error: any Error) {
            MainActor.assumeIsolated { bridge.fail(error) }
        }
    }
#endif
