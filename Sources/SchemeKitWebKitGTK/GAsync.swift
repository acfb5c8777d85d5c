// Built only with the package trait `WebKitGTK` (it needs WebKitGTK 6.0's headers and libraries).
#if WebKitGTK
    import CWebKitGTK

    /// Carries a Swift closure through a `GAsyncReadyCallback`'s `user_data`.
    final class GAsyncCompletion {
        let body: (UnsafeMutablePointer<GObject>?, OpaquePointer?) -> Void

        init(_ body: @escaping (UnsafeMutablePointer<GObject>?, OpaquePointer?) -> Void) {
            self.body = body
        }

        /// A retained pointer to pass as `user_data` with ``callback``; released when it fires.
        func retainedPointer() -> UnsafeMutableRawPointer {
            Unmanaged.passRetained(self).toOpaque()
        }

        /// The `GAsyncReadyCallback` calling the closure once.
        static let callback: GAsyncReadyCallback = { source, result, data in
            Unmanaged<GAsyncCompletion>.fromOpaque(data!).takeRetainedValue().body(source, result)
        }
    }

    /// Turns a `GError` into a message and frees it.
    func consumeError(_ error: UnsafeMutablePointer<GError>?) -> String {
        guard let error else { return "unknown error" }
        defer { g_error_free(error) }
        return error.pointee.message.map { String(cString: $0) } ?? "unknown error"
    }

    /// Connects a `@convention(c)` handler to a GObject signal.
    @discardableResult
    func connectSignal<Handler>(
        _ instance: UnsafeMutableRawPointer,
        _ signal: String,
        _ handler: Handler,
        _ data: UnsafeMutableRawPointer?
    ) -> gulong {
        schemekit_signal_connect(instance, signal, unsafeBitCast(handler, to: GCallback.self), data)
    }
#endif
