// Built only with the package trait `WebKitGTK` (it needs WebKitGTK 6.0's headers and libraries).
#if WebKitGTK
    public import CWebKitGTK
    import Foundation
    public import SchemeKit
    import Synchronization

    /// A headless WebKitGTK web view in its own `GtkWindow`, usable by one holder at a time: the
    /// `PoolableSession` of the WebKitGTK adapter.
    ///
    /// Every method may be called from any task: WebKit work is submitted to the session's
    /// ``GLibExecutor`` and awaited. Views use WebKit's default `WebKitWebContext` unless given
    /// another; a ``WebKitSchemeAdapter`` registers the schemes on it.
    ///
    /// ## Reset
    /// ``reset()`` stops loading, removes user scripts, style sheets and script message handlers,
    /// restores the session state captured right after the view's first (blank) load — WebKit 6 has no
    /// call that clears history in place, but restoring a one-entry state replaces the list — and
    /// navigates to that entry. It then checks that the view cannot go back; if history survived it
    /// throws, and the pool replaces the view.
    ///
    /// ## Health
    /// ``isHealthy()`` is `false` once the view's web process terminated (`web-process-terminated`).
    public final class WebViewSession: PoolableSession, @unchecked Sendable {
        /// The executor of the main context the view lives on.
        package let executor: GLibExecutor
        /// The `WebKitWebView` (a `GtkWidget`). Use it on the main context only.
        public nonisolated(unsafe) let view: UnsafeMutablePointer<WebKitWebView>
        private nonisolated(unsafe) let window: UnsafeMutablePointer<GtkWidget>
        // Main-context state.
        private var emptyState: OpaquePointer?
        private var terminated = false
        private var closed = false
        private var pendingLoad: CheckedContinuation<Void, any Error>?
        /// The URL ``load(_:)`` was asked for while its load is pending, unless it is an `about:` URL.
        private var pendingTarget: String?
        private var messageHandlers: [String: (handlerID: gulong, callback: @Sendable (JavaScriptValue) -> Void)] = [:]
        /// The view has an ephemeral network session of its own, whose website data a reset clears.
        private let clearsWebsiteDataOnReset: Bool
        /// The view's own network session (a `WebKitNetworkSession`), listed in ``ownNetworkSessions``
        /// while the view lives; `nil` when the caller gave one.
        private let ownNetworkSession: UInt?

        /// The network sessions of the live views that have one of their own, which
        /// ``WebKitSchemeAdapter/clearMemoryCache(networkSession:)`` empties too. Changed and read on
        /// the GLib main thread only (the lock is for the static storage), before a view is destroyed,
        /// so a listed session is alive.
        private static let ownSessions = Locked<Set<UInt>>([])

        /// The network sessions of the live views that have one of their own. Main context only.
        package static var ownNetworkSessions: [UInt] { ownSessions.withLock { Array($0) } }

        private init(
            executor: GLibExecutor, width: Int32, height: Int32, context: OpaquePointer?, networkSession: OpaquePointer?
        ) {
            self.executor = executor
            window = gtk_window_new()
            let gtkWindow = UnsafeMutableRawPointer(window).assumingMemoryBound(to: GtkWindow.self)
            gtk_window_set_default_size(gtkWindow, width, height)
            // Without a session of the caller's, an ephemeral one of the view's own: nothing the page
            // stores (cookies, caches, storage) outlives the view or reaches another one, and a reset
            // clears it.
            let ownSession = networkSession == nil
            let session = networkSession ?? webkit_network_session_new_ephemeral()!
            let widget = schemekit_web_view_new_with_session(context ?? webkit_web_context_get_default(), session)!
            if ownSession { g_object_unref(UnsafeMutableRawPointer(session)) }  // the view holds it
            clearsWebsiteDataOnReset = ownSession
            ownNetworkSession = ownSession ? UInt(bitPattern: session) : nil
            if let ownNetworkSession { _ = Self.ownSessions.withLock { $0.insert(ownNetworkSession) } }
            view = UnsafeMutableRawPointer(widget).assumingMemoryBound(to: WebKitWebView.self)
            gtk_window_set_child(gtkWindow, widget)
            gtk_window_present(gtkWindow)
            // The handlers reach the session through a weak box each connection retains (released
            // when the handler is disconnected or the view finalised): a signal after the session is
            // gone finds `nil`, never freed memory.
            let raw = UnsafeMutableRawPointer(view)
            for (signal, handler) in [
                ("load-changed", unsafeBitCast(WebViewSession.loadChanged, to: GCallback.self)),
                ("load-failed", unsafeBitCast(WebViewSession.loadFailed, to: GCallback.self)),
                ("web-process-terminated", unsafeBitCast(WebViewSession.processTerminated, to: GCallback.self)),
            ] {
                g_signal_connect_data(
                    raw, signal, handler, Unmanaged.passRetained(signalTarget).toOpaque(),
                    { data, _ in Unmanaged<SignalTarget>.fromOpaque(data!).release() }, GConnectFlags(rawValue: 0))
            }
            signalTarget.session = self
        }

        /// Destroys the window (and with it the view) of a session dropped without ``tearDown()``.
        deinit {
            guard !closed else { return }
            let window = UInt(bitPattern: window)
            let view = UInt(bitPattern: view)
            let target = UInt(bitPattern: Unmanaged.passUnretained(signalTarget).toOpaque())
            let emptyState = emptyState.map { UInt(bitPattern: UnsafeMutableRawPointer($0)) }
            let ownNetworkSession = ownNetworkSession
            executor.execute {
                if let ownNetworkSession { _ = Self.ownSessions.withLock { $0.remove(ownNetworkSession) } }
                g_signal_handlers_disconnect_matched(
                    UnsafeMutableRawPointer(bitPattern: view), G_SIGNAL_MATCH_DATA, 0, 0, nil, nil,
                    UnsafeMutableRawPointer(bitPattern: target))
                if let emptyState { webkit_web_view_session_state_unref(OpaquePointer(bitPattern: emptyState)) }
                gtk_window_destroy(UnsafeMutableRawPointer(bitPattern: window)!.assumingMemoryBound(to: GtkWindow.self))
            }
        }

        /// What the view's signal handlers get as `user_data`: the session, weakly. Main context only.
        private final class SignalTarget: @unchecked Sendable {
            weak var session: WebViewSession?
        }

        private let signalTarget = SignalTarget()

        /// Makes a view in a new window, shows it (under Xvfb) and, when `warm`, loads its blank page
        /// so its web process is running when this returns.
        ///
        /// - Parameters:
        ///   - executor: The executor of the default main context (GTK must be initialised there).
        ///   - width: The window width. Default: 1024.
        ///   - height: The window height. Default: 768.
        ///   - warm: Load the blank page before returning. Default: `true`. A cold view (`false`)
        ///     pays its web process start-up on its first load, and ``reset()`` cannot clear its
        ///     history.
        ///   - blankURL: The empty page a fresh and a reset view show. Default: `nil`, which means
        ///     the blank page of the ``WebKitSchemeAdapter`` serving the view's context
        ///     (``WebKitSchemeAdapter/blankURL(scheme:host:)`` for its first scheme), so that a pooled
        ///     view stays in the warm web process of the app's site (a reset to `about:blank` would
        ///     move the next `app://` load to a new web process: 0.2–0.7 s instead of 0.02–0.1 s);
        ///     `about:blank` when no adapter serves the context. Make the adapter first.
        ///   - context: The `WebKitWebContext` of the view. Default: `nil`, WebKit's default context.
        ///   - networkSession: The `WebKitNetworkSession` the view's requests go through, such as
        ///     ``WebKitSchemeAdapter/httpsNetworkSession(origins:requestTimeout:)``'s or a persistent one
        ///     (`webkit_network_session_new(dataDirectory, cacheDirectory)`) for a profile that outlives
        ///     the view. Default: `nil`, an ephemeral session of the view's own, which ``reset()``
        ///     clears: no cookie, cache entry or storage survives from one holder of the view to the
        ///     next, nor reaches another view.
        public static func make(
            executor: GLibExecutor, width: Int = 1024, height: Int = 768, warm: Bool = true,
            blankURL: String? = nil, context: OpaquePointer? = nil, networkSession: OpaquePointer? = nil
        ) async throws -> WebViewSession {
            nonisolated(unsafe) let context = context
            nonisolated(unsafe) let networkSession = networkSession
            let (session, blank) = try await executor.run {
                let session = WebViewSession(
                    executor: executor, width: Int32(width), height: Int32(height), context: context,
                    networkSession: networkSession)
                let viewContext = webkit_web_view_get_context(session.view)!
                return (session, blankURL ?? WebKitSchemeAdapter.defaultBlankURL(for: viewContext))
            }
            guard warm else {
                GLibMainThread.registerExitHandlerAgain()
                return session
            }
            do {
                try await session.load(blank)
                try await executor.run { session.emptyState = webkit_web_view_get_session_state(session.view) }
            } catch {
                await session.tearDown()
                throw error
            }
            // The first views load the libraries (GL, the renderer) that register exit handlers.
            GLibMainThread.registerExitHandlerAgain()
            return session
        }

        // MARK: PoolableSession

        /// Stops loading, removes injected scripts and message handlers, clears history and (for a view
        /// with a network session of its own) every cookie, cache entry and storage the pages left,
        /// shows the blank page.
        ///
        /// - Throws: `EngineError` when the blank page does not load or history survived.
        public nonisolated(nonsending) func reset() async throws {
            try await executor.run { try self.clearState() }
            if clearsWebsiteDataOnReset { try await clearWebsiteData() }
            try await reloadCurrentItem()
            let canGoBack = try await executor.run { webkit_web_view_can_go_back(self.view) != 0 }
            if canGoBack { throw EngineError.loadFailed("back/forward history survived the reset") }
        }

        /// Whether the web process is alive and the session not torn down.
        public nonisolated(nonsending) func isHealthy() async -> Bool {
            (try? await executor.run { !self.terminated && !self.closed }) ?? false
        }

        /// Destroys the window and the view.
        public nonisolated(nonsending) func tearDown() async {
            _ = try? await executor.run { self.close() }
        }

        // MARK: Using the view

        /// Loads `url` and returns when WebKit reports the load finished.
        ///
        /// - Throws: `EngineError` with code `navigationFailed` when the load fails or is replaced by another.
        public func load(_ url: String) async throws {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                executor.execute {
                    guard !self.closed else { return continuation.resume(throwing: EngineError.sessionClosed) }
                    self.pendingLoad?.resume(throwing: EngineError.loadFailed("replaced by a new load"))
                    self.pendingLoad = continuation
                    self.pendingTarget = url.lowercased().hasPrefix("about:") ? nil : url
                    webkit_web_view_load_uri(self.view, url)
                }
            }
        }

        /// Navigates to the back/forward list's current item (no new history entry).
        private func reloadCurrentItem() async throws {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                executor.execute {
                    guard !self.closed else { return continuation.resume(throwing: EngineError.sessionClosed) }
                    self.pendingLoad?.resume(throwing: EngineError.loadFailed("replaced by a new load"))
                    self.pendingLoad = continuation
                    self.pendingTarget = nil
                    let list = webkit_web_view_get_back_forward_list(self.view)
                    if let item = webkit_back_forward_list_get_current_item(list) {
                        webkit_web_view_go_to_back_forward_list_item(self.view, item)
                    } else {
                        webkit_web_view_load_uri(self.view, "about:blank")
                    }
                }
            }
        }

        /// Evaluates `script` in the page and returns its value, awaiting a Promise.
        ///
        /// The contract is the same on every engine (see `JavaScriptValue`): the value as the page's
        /// `JSON.stringify` gives it (a `BigInt` as its digits; `undefined` as `null`). An expression
        /// (`window.report`, `fetch('/x').then(r => r.status)`) runs as the body of an async
        /// function (WebKit's `call_async_javascript_function`), which awaits what it returns; a
        /// script of several statements, which cannot be returned, runs as a script and gives its
        /// completion value as WebKit copies it out of the page (a function or symbol in it, which
        /// WebKit cannot copy, makes it `null`).
        ///
        /// - Throws: `EngineError` with code `evaluationFailed` with the exception's message when the script
        ///   throws, the Promise rejects or the value has a cycle.
        public func evaluate(_ script: String) async throws -> JavaScriptValue {
            do {
                return try await callAsyncFunction("return (\n\(script)\n);")
            } catch let error as EngineError
                where error.code == .evaluationFailed && error.message.contains("SyntaxError")
            {
                do {
                    return try await javaScript { completion in
                        webkit_web_view_evaluate_javascript(
                            self.view, script, -1, nil, nil, nil, GAsyncCompletion.callback, completion)
                    } finish: { result, error in
                        webkit_web_view_evaluate_javascript_finish(self.view, result, error)
                    }
                } catch let error as EngineError
                    where error.code == .evaluationFailed && error.message.contains("Unsupported result type")
                {
                    return .null
                }
            }
        }

        /// Runs `body` as the body of an async JavaScript function and returns its result; a
        /// returned Promise is awaited. The value follows ``evaluate(_:)``'s contract: the page's
        /// `JSON.stringify` of what the body returns.
        ///
        /// - Throws: `EngineError` with code `evaluationFailed` when it throws, the Promise rejects or the
        ///   value has a cycle.
        public func callAsyncFunction(_ body: String) async throws -> JavaScriptValue {
            // The body runs in an inner async arrow function (same `this`, `await` allowed), and
            // what it returns goes through the page's JSON.stringify before WebKit copies it out.
            let wrapped = "return (\(JavaScriptValue.jsonTextFunction)).call(await (async () => {\n\(body)\n})());"
            let text = try await javaScript { completion in
                webkit_web_view_call_async_javascript_function(
                    self.view, wrapped, -1, nil, nil, nil, nil, GAsyncCompletion.callback, completion)
            } finish: { result, error in
                webkit_web_view_call_async_javascript_function_finish(self.view, result, error)
            }
            guard case .string(let json) = text else {
                throw EngineError.javaScript("the value's JSON text did not come back as a string: \(text)")
            }
            return try JavaScriptValue(json: Data(json.utf8))
        }

        /// Writes a PNG of the visible part of the page to `path`.
        public func snapshot(to path: String) async throws {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                executor.execute {
                    let completion = GAsyncCompletion { _, result in
                        var error: UnsafeMutablePointer<GError>?
                        guard let texture = webkit_web_view_get_snapshot_finish(self.view, result, &error) else {
                            return continuation.resume(throwing: EngineError.snapshot(consumeError(error)))
                        }
                        let saved = gdk_texture_save_to_png(texture, path) != 0
                        g_object_unref(UnsafeMutableRawPointer(texture))
                        if saved {
                            continuation.resume()
                        } else {
                            continuation.resume(throwing: EngineError.snapshot("cannot write \(path)"))
                        }
                    }
                    webkit_web_view_get_snapshot(
                        self.view, WEBKIT_SNAPSHOT_REGION_VISIBLE, WEBKIT_SNAPSHOT_OPTIONS_NONE, nil,
                        GAsyncCompletion.callback, completion.retainedPointer())
                }
            }
        }

        /// Injects `source` at document start in the top frame of every page loaded from now on.
        public func addUserScript(_ source: String) async throws {
            try await executor.run {
                let manager = webkit_web_view_get_user_content_manager(self.view)
                let script = webkit_user_script_new(
                    source, WEBKIT_USER_CONTENT_INJECT_TOP_FRAME, WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_START, nil, nil)
                webkit_user_content_manager_add_script(manager, script)
                webkit_user_script_unref(script)
            }
        }

        /// Lets pages post messages with `window.webkit.messageHandlers.<name>.postMessage(value)`;
        /// `callback` gets each value (see `JavaScriptValue`), on the main context.
        public func addScriptMessageHandler(_ name: String, _ callback: @escaping @Sendable (JavaScriptValue) -> Void)
            async throws
        {
            try await executor.run {
                let manager = webkit_web_view_get_user_content_manager(self.view)!
                let id = g_signal_connect_data(
                    UnsafeMutableRawPointer(manager), "script-message-received::\(name)",
                    unsafeBitCast(WebViewSession.scriptMessage, to: GCallback.self),
                    Unmanaged.passRetained(MessageHandler(callback)).toOpaque(),
                    { data, _ in Unmanaged<MessageHandler>.fromOpaque(data!).release() }, GConnectFlags(rawValue: 0))
                webkit_user_content_manager_register_script_message_handler(manager, name, nil)
                self.messageHandlers[name] = (id, callback)
            }
        }

        /// The number of entries behind the current one in the back/forward list.
        package func backHistoryCount() async throws -> Int {
            try await executor.run {
                let list = webkit_web_view_get_back_forward_list(self.view)
                let back = webkit_back_forward_list_get_back_list(list)
                defer { g_list_free(back) }
                return Int(g_list_length(back))
            }
        }

        /// Terminates the web process (to test health checks and crash handling).
        package func terminateWebProcess() async throws {
            try await executor.run { webkit_web_view_terminate_web_process(self.view) }
        }

        // MARK: Main-context internals

        private func javaScript(
            start: @escaping @Sendable (UnsafeMutableRawPointer) -> Void,
            finish:
                @escaping @Sendable (OpaquePointer?, UnsafeMutablePointer<UnsafeMutablePointer<GError>?>) ->
                OpaquePointer?
        ) async throws -> JavaScriptValue {
            try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<JavaScriptValue, any Error>) in
                executor.execute {
                    guard !self.closed else { return continuation.resume(throwing: EngineError.sessionClosed) }
                    let completion = GAsyncCompletion { _, result in
                        var error: UnsafeMutablePointer<GError>?
                        guard let value = finish(result, &error) else {
                            return continuation.resume(throwing: EngineError.javaScript(consumeError(error)))
                        }
                        continuation.resume(returning: WebViewSession.javaScriptValue(value))
                        g_object_unref(UnsafeMutableRawPointer(value))
                    }
                    start(completion.retainedPointer())
                }
            }
        }

        /// A `JSCValue` as a ``SchemeKit/JavaScriptValue``, through `JSON.stringify` (`undefined`,
        /// and what JSON cannot hold, is `null`).
        static func javaScriptValue(_ value: OpaquePointer) -> JavaScriptValue {
            if jsc_value_is_undefined(value) != 0 { return .null }
            guard let text = jsc_value_to_json(value, 0) else { return .null }
            defer { g_free(text) }
            let length = strlen(text)
            return (try? JavaScriptValue(json: UnsafeRawBufferPointer(start: text, count: length))) ?? .null
        }

        /// Clears every kind of website data of the view's network session.
        private func clearWebsiteData() async throws {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                executor.execute {
                    guard !self.closed else { return continuation.resume(throwing: EngineError.sessionClosed) }
                    let session = webkit_web_view_get_network_session(self.view)
                    let manager = webkit_network_session_get_website_data_manager(session)
                    let completion = GAsyncCompletion { _, result in
                        var error: UnsafeMutablePointer<GError>?
                        if webkit_website_data_manager_clear_finish(manager, result, &error) != 0 {
                            continuation.resume()
                        } else {
                            continuation.resume(
                                throwing: EngineError.loadFailed("clearing website data: \(consumeError(error))"))
                        }
                    }
                    webkit_website_data_manager_clear(
                        manager, WEBKIT_WEBSITE_DATA_ALL, 0, nil, GAsyncCompletion.callback,
                        completion.retainedPointer())
                }
            }
        }

        private func clearState() throws {
            guard !closed else { throw EngineError.sessionClosed }
            webkit_web_view_stop_loading(view)
            let manager = webkit_web_view_get_user_content_manager(view)
            webkit_user_content_manager_remove_all_scripts(manager)
            webkit_user_content_manager_remove_all_style_sheets(manager)
            for (name, handler) in messageHandlers {
                webkit_user_content_manager_unregister_script_message_handler(manager, name, nil)
                g_signal_handler_disconnect(UnsafeMutableRawPointer(manager), handler.handlerID)
            }
            messageHandlers = [:]
            if let emptyState { webkit_web_view_restore_session_state(view, emptyState) }
        }

        private func close() {
            guard !closed else { return }
            closed = true
            pendingLoad?.resume(throwing: EngineError.sessionClosed)
            pendingLoad = nil
            let manager = webkit_web_view_get_user_content_manager(view)
            for (name, handler) in messageHandlers {
                webkit_user_content_manager_unregister_script_message_handler(manager, name, nil)
                g_signal_handler_disconnect(UnsafeMutableRawPointer(manager), handler.handlerID)
            }
            messageHandlers = [:]
            g_signal_handlers_disconnect_matched(
                UnsafeMutableRawPointer(view), G_SIGNAL_MATCH_DATA, 0, 0, nil, nil,
                Unmanaged.passUnretained(signalTarget).toOpaque())
            if let emptyState { webkit_web_view_session_state_unref(emptyState) }
            emptyState = nil
            if let ownNetworkSession { _ = Self.ownSessions.withLock { $0.remove(ownNetworkSession) } }
            gtk_window_destroy(UnsafeMutableRawPointer(window).assumingMemoryBound(to: GtkWindow.self))
        }

        private static func session(_ data: UnsafeMutableRawPointer?) -> WebViewSession? {
            Unmanaged<SignalTarget>.fromOpaque(data!).takeUnretainedValue().session
        }

        private static let loadChanged:
            @convention(c) (UnsafeMutableRawPointer?, WebKitLoadEvent, UnsafeMutableRawPointer?) -> Void = {
                view, event, data in
                guard let session = WebViewSession.session(data) else { return }
                if event == WEBKIT_LOAD_COMMITTED, let target = session.pendingTarget {
                    session.pendingTarget = nil
                    // WebKit answers a URL on a port it blocks (1, 6000, …: the Fetch standard's
                    // "bad ports") with about:blank and no load-failed: that is a failed load.
                    let view = view?.assumingMemoryBound(to: WebKitWebView.self)
                    if webkit_web_view_get_uri(view).map({ String(cString: $0) }) == "about:blank" {
                        let reason = "\(target): WebKit refused to load it (a blocked port?)"
                        session.pendingLoad?.resume(throwing: EngineError.loadFailed(reason))
                        session.pendingLoad = nil
                    }
                }
                guard event == WEBKIT_LOAD_FINISHED else { return }
                session.pendingLoad?.resume()
                session.pendingLoad = nil
                session.pendingTarget = nil
            }

        private static let loadFailed:
            @convention(c) (
                UnsafeMutableRawPointer?, WebKitLoadEvent, UnsafePointer<CChar>?, UnsafeMutablePointer<GError>?,
                UnsafeMutableRawPointer?
            )
                -> gboolean = { _, _, uri, error, data in
                    guard let session = WebViewSession.session(data) else { return 0 }
                    let message = error.flatMap { $0.pointee.message.map { String(cString: $0) } } ?? "load failed"
                    let target = uri.map { String(cString: $0) } ?? ""
                    session.pendingLoad?.resume(throwing: EngineError.loadFailed("\(target): \(message)"))
                    session.pendingLoad = nil
                    session.pendingTarget = nil
                    return 0
                }

        private static let processTerminated:
            @convention(c) (UnsafeMutableRawPointer?, WebKitWebProcessTerminationReason, UnsafeMutableRawPointer?) ->
                Void =
                {
                    _, _, data in
                    guard let session = WebViewSession.session(data) else { return }
                    session.terminated = true
                    session.pendingLoad?.resume(throwing: EngineError.webProcessTerminated)
                    session.pendingLoad = nil
                }

        /// The callback of one script message handler, carried as the signal's `user_data`.
        private final class MessageHandler {
            let callback: @Sendable (JavaScriptValue) -> Void
            init(_ callback: @escaping @Sendable (JavaScriptValue) -> Void) { self.callback = callback }
        }

        private static let scriptMessage:
            @convention(c) (OpaquePointer?, OpaquePointer?, UnsafeMutableRawPointer?) -> Void = {
                _, value, data in
                guard let value else { return }
                Unmanaged<MessageHandler>.fromOpaque(data!).takeUnretainedValue().callback(
                    WebViewSession.javaScriptValue(value))
            }
    }
#endif
