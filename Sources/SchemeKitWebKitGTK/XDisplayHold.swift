// Built only with the package trait `WebKitGTK` (it needs WebKitGTK 6.0's headers and libraries).
#if WebKitGTK
    import Foundation

    /// A connection to the X server `DISPLAY` names, held while GTK opens its own.
    ///
    /// An X server resets when its last client disconnects (Xvfb as `xvfb-run` starts it, without
    /// `-noreset`), and refuses connections while it does. A program started right after another
    /// one left the same server then fails to open the display now and then, more often on a
    /// loaded machine, and GTK cannot be initialised a second time in a process after a failed
    /// attempt. So ``GLibMainThread`` first waits for the server to accept a connection of its
    /// own (libX11's `XOpenDisplay`, loaded at run time, since GTK loads it anyway) and keeps it
    /// open while GTK connects: with a client connected the server cannot reset in between.
    struct XDisplayHold {
        private typealias Open = @convention(c) (UnsafePointer<CChar>?) -> OpaquePointer?
        private typealias Close = @convention(c) (OpaquePointer?) -> Int32

        private let display: OpaquePointer
        private let close: Close

        /// Connects to the X server `DISPLAY` names, trying again for up to `limit` while it
        /// refuses; `nil` without `DISPLAY`, without libX11, or when the server never accepts.
        init?(waitingUpTo limit: Duration, environment: [String: String] = ProcessInfo.processInfo.environment) {
            guard let name = environment["DISPLAY"], !name.isEmpty,
                let library = dlopen("libX11.so.6", RTLD_NOW | RTLD_LOCAL),
                let openSymbol = dlsym(library, "XOpenDisplay"), let closeSymbol = dlsym(library, "XCloseDisplay")
            else { return nil }
            let open = unsafeBitCast(openSymbol, to: Open.self)
            let deadline = ContinuousClock.now + limit
            var pause = 0.01
            var display = open(nil)
            while display == nil, ContinuousClock.now < deadline {
                Thread.sleep(forTimeInterval: pause)
                pause = min(pause * 2, 0.2)
                display = open(nil)
            }
            guard let display else { return nil }
            self.display = display
            self.close = unsafeBitCast(closeSymbol, to: Close.self)
        }

        /// Closes the connection (once GTK has its own). Call once.
        func release() {
            _ = close(display)
        }
    }
#endif
