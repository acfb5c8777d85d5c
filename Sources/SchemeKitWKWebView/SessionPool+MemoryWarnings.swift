#if SCHEMEKIT_WEBKIT_STANDIN
    import WebKitStandIn
#elseif canImport(WebKit)
    import WebKit
#endif

#if SCHEMEKIT_WEBKIT_STANDIN || canImport(WebKit)
    public import SchemeKit

    extension SessionPool where Session == WKWebViewSession {
        /// Tears down the idle views (``SessionPool/drain()``) each time `warnings` yields, until it
        /// ends or the calling task is cancelled. Views in use are kept; the warm set is refilled at
        /// the next acquire.
        ///
        /// ```swift
        /// // iOS: the app's memory warnings.
        /// let warnings = NotificationCenter.default.notifications(
        ///     named: UIApplication.didReceiveMemoryWarningNotification)
        /// Task { await pool.drainOnMemoryWarnings(warnings) }
        /// ```
        ///
        /// - Parameter warnings: One element per memory warning.
        public nonisolated func drainOnMemoryWarnings<Warnings: AsyncSequence & Sendable>(_ warnings: Warnings) async {
            do {
                for try await _ in warnings {
                    await drain()
                }
            } catch {
                // The sequence failed: no more warnings come from it.
            }
        }
    }
#endif
