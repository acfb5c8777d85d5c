// Built only with the package trait `WebKitGTK` (it needs WebKitGTK 6.0's headers and libraries).
#if WebKitGTK
    import CWebKitGTK
    public import Foundation
    import HTTPTypes
    public import SchemeKit
    import SchemeKitBrowserSupport
    import Synchronization

    /// Serves a `SchemeRegistry`'s schemes to WebKitGTK views: the engine adapter.
    ///
    /// For each scheme of the registry it calls `webkit_web_context_register_uri_scheme` and marks the
    /// scheme secure and CORS-enabled on the context's `WebKitSecurityManager`, so `fetch()` and XHR
    /// from `app://` pages work. Each `WebKitURISchemeRequest` becomes a guarded `SchemeTask`:
    /// - method, headers and body (when WebKit gives one) become a `SchemeRequest`;
    /// - the handler runs off the main context (in a Swift task); its body writes go straight into a
    ///   thread-safe buffer from the handler's thread, and the main context (the executor the adapter
    ///   was given) is only asked to answer the request with the head and to complete a read WebKit
    ///   is waiting on;
    /// - the head becomes a `WebKitURISchemeResponse` (status, content type, headers, length) whose body
    ///   streams through a bounded `GInputStream` (`bufferCapacity`): the handler waits while WebKit
    ///   has not read, so a file is never held in memory whole;
    /// - a cancelled read, the stream closed or finalised early, or the view destroyed, stops the task;
    /// - a failure before the head answers with `webkit_uri_scheme_request_finish_error`.
    ///
    /// Create it, and use it, on the GLib main context:
    ///
    /// ```swift
    /// let adapter = try await glib.executor.run {
    ///     WebKitSchemeAdapter(registry: registry, executor: glib.executor)   // WebKit's default context
    /// }
    /// ```
    ///
    /// `@unchecked Sendable`: the WebKit pointers are only used on the main context; the live-sink
    /// table sits behind a mutex.
    public final class WebKitSchemeAdapter: @unchecked Sendable {
        /// The registry answering requests.
        package let registry: SchemeRegistry
        /// The main context the adapter calls WebKit on.
        package let executor: GLibExecutor
        /// Body bytes buffered per response before the handler waits. Default: 256 KiB.
        package let bufferCapacity: Int
        /// The largest request body (a `POST`'s, in bytes) a handler can read. Bodies are read as the
        /// handler asks, at most 256 KiB ahead of it, so a slow handler pauses the upload; past this
        /// size reading stops and the handler's read throws `EngineError` with code `bodyTooLarge`
        /// (naming this setting), which fails its task. Default: 32 MiB.
        package let maximumRequestBodySize: Int
        /// The web context the schemes are registered on.
        public nonisolated(unsafe) let context: OpaquePointer

        struct State {
            var live: [ObjectIdentifier: LiveSink] = [:]
            var media: [ObjectIdentifier: WebKitMediaStream] = [:]
            var statistics = EngineAdapterStatistics()
            /// The loopback https origin, once ``httpsNetworkSession(origins:requestTimeout:)`` made it.
            var loopback: LoopbackOriginServer?
            /// What counts its requests.
            var httpsClient: HTTPSOriginClient?
        }

        struct LiveSink {
            var sink: WebKitSchemeSink
            /// The address of the request's view (identity only).
            var view: UInt?
        }

        let state = Locked(State())

        /// Registers every scheme of `registry` on `context`, and media for them. Call on the GLib
        /// main context, before any view of `context` loads a page (web processes read the media
        /// set-up when they start).
        ///
        /// Every scheme is registered secure, CORS-enabled and display-isolated: only pages of the
        /// registry's own schemes can show (or play) its resources.
        ///
        /// ## Media
        /// WebKitGTK plays `<video>`/`<audio>` only from http(s), blob, data and file URLs. With
        /// `mediaExtension` (the dynamic library product `SchemeKitWebKitGTKMedia`), each web process
        /// of `context` loads that extension, which registers a seekable GStreamer source for the
        /// registry's schemes; its reads come back here and run through the registry like any request
        /// (a seek is a `Range: bytes=N-` request). The adapter also adds the schemes to the
        /// environment variable `WEBKIT_GST_ALLOWED_URI_PROTOCOLS`, which WebKit 2.50.2 and later
        /// check before handing a URL to GStreamer (process-wide: set while no other thread reads the
        /// environment).
        ///
        /// - Parameters:
        ///   - registry: The handlers. Schemes registered later are not seen: build the registry first.
        ///   - context: The `WebKitWebContext` (WebKit allows one registration per scheme and context).
        ///     Default: `nil`, WebKit's default context (the one views use unless given another).
        ///   - executor: The executor of the main context `context` lives on.
        ///   - bufferCapacity: Bytes buffered per response before the handler waits. Default: 256 KiB.
        ///   - maximumRequestBodySize: The largest request body a handler can read (see
        ///     `maximumRequestBodySize`). Default: 32 MiB.
        ///   - mediaExtension: The built `libSchemeKitWebKitGTKMedia.so`, or `nil` for no media on the
        ///     registry's schemes. Default: ``defaultMediaExtension``, found next to the executable
        ///     (where SwiftPM builds it when the executable depends on the product).
        public init(
            registry: SchemeRegistry,
            context: OpaquePointer? = nil,
            executor: GLibExecutor,
            bufferCapacity: Int = 256 << 10,
            maximumRequestBodySize: Int = 32 << 20,
            mediaExtension: URL? = WebKitSchemeAdapter.defaultMediaExtension
        ) {
            let context = context ?? webkit_web_context_get_default()!
            self.registry = registry
            self.context = context
            self.executor = executor
            self.bufferCapacity = max(8 << 10, bufferCapacity)
            self.maximumRequestBodySize = max(0, maximumRequestBodySize)
            let security = webkit_web_context_get_security_manager(context)
            for scheme in registry.schemes {
                webkit_web_context_register_uri_scheme(
                    context, scheme.rawValue, WebKitSchemeAdapter.requestCallback,
                    Unmanaged.passRetained(self).toOpaque(),
                    { data in Unmanaged<WebKitSchemeAdapter>.fromOpaque(data!).release() })
                webkit_security_manager_register_uri_scheme_as_secure(security, scheme.rawValue)
                webkit_security_manager_register_uri_scheme_as_cors_enabled(security, scheme.rawValue)
                webkit_security_manager_register_uri_scheme_as_display_isolated(security, scheme.rawValue)
            }
            if let mediaExtension {
                mediaEnabled = enableMedia(extension: mediaExtension)
            }
            if let scheme = registry.schemes.first {
                let blank = Self.blankURL(scheme: scheme.rawValue)
                Self.blankPages.withLock { pages in
                    if pages[UInt(bitPattern: context)] == nil { pages[UInt(bitPattern: context)] = blank }
                }
            }
            // WebKit registers exit handlers while setting a context up: keep GTK's ahead of them.
            GLibMainThread.registerExitHandlerAgain()
        }

        /// The blank page of the first adapter made for each web context (by its address), for
        /// ``WebViewSession``'s default.
        private static let blankPages = Locked<[UInt: String]>([:])

        /// The blank page views of `context` should show between holders: the first adapter's
        /// ``blankURL(scheme:host:)`` for its first scheme, so that a pooled view stays in the
        /// web process of the app's site; `about:blank` when no adapter serves that context.
        static func defaultBlankURL(for context: OpaquePointer) -> String {
            blankPages.withLock { $0[UInt(bitPattern: context)] } ?? "about:blank"
        }

        /// The path of the empty page the adapter answers itself on every scheme it serves (no handler,
        /// no record): `/.schemekit/blank`.
        ///
        /// A view reset to `about:blank` that then loads `app://…` changes site, and WebKit moves it to
        /// a new web process (about a second here); reset to `app://localhost/.schemekit/blank` instead
        /// and the next `app://` load stays in the warm process (see ``WebViewSession/make(executor:width:height:warm:blankURL:context:)``).
        package static let blankPath = "/.schemekit/blank"

        /// The blank page URL for `scheme` and `host`: `scheme://host/.schemekit/blank`.
        public static func blankURL(scheme: String, host: String = "localhost") -> String {
            "\(scheme)://\(host)\(blankPath)"
        }

        /// A record for each request from now on, as it ends (media ranges included).
        ///
        /// - Parameter bufferLimit: How many records the sequence holds unread; past it the oldest is
        ///   dropped (requests are never held up by a slow reader). Default: 1024.
        /// - Returns: A sequence that runs until the caller stops iterating.
        public func records(bufferLimit: Int = 1024) -> AsyncStream<SchemeRequestRecord> {
            recordFeed.subscribe(bufferLimit: bufferLimit)
        }

        /// The records of the requests that ended, for ``records(bufferLimit:)`` and renders.
        package let recordFeed = SchemeRequestRecordFeed()

        /// Publishes `started` as it ends: `outcome` (with `error` when failed), the head's `status`
        /// (0 when none was written), the body `bytes` handed to WebKit, and `task`'s responder.
        func publish(
            _ started: SchemeRequestRecord, ending outcome: SchemeRequestRecord.Outcome, error: (any Error)?,
            status: Int, bytes: Int, task: SchemeTask? = nil, handler: String? = nil
        ) {
            var record = started
            record.outcome = outcome
            record.error = error
            record.status = status == 0 ? nil : status
            record.bytes = bytes
            record.handler = task?.respondingHandler ?? handler
            state.withLock { state in
                switch outcome {
                case .answered:
                    state.statistics.answered += 1
                    state.statistics.bytesAnswered += bytes
                case .continued: state.statistics.continued += 1
                case .failed: state.statistics.countFailure(error)
                case .stopped(let reason): state.statistics.countStop(reason)
                }
            }
            let dropped = recordFeed.publish(record)
            if dropped > 0 { state.withLock { $0.statistics.droppedRecords += dropped } }
        }

        /// The counters so far, the same as the browser adapters': `EngineAdapterStatistics`.
        ///
        /// On WebKitGTK, `intercepted` counts the scheme requests WebKit handed over and the media
        /// ranges a `<video>` or `<audio>` element read; a stopped request is always
        /// `canceledByPage` (WebKit canceled it); `failed` includes request bodies over
        /// `maximumRequestBodySize` (`bodyTooLarge`) and requests whose URI or method could not be
        /// read (`malformedEvents`); `continued`, `pageClosed`, `timedOut` and `rejected` stay 0.
        public var statistics: EngineAdapterStatistics { state.withLock { $0.statistics } }

        /// A request that never reached the registry because its URI or method could not be read.
        func malformedRequest() {
            state.withLock { $0.statistics.countMalformedRequest() }
        }

        /// Body writes that reached a response stream after WebKit had stopped reading it (0 when the
        /// guarded lifecycle holds).
        package var writesAfterStop: Int { lateWrites.load(ordering: .relaxed) }

        let lateWrites = Atomic<Int>(0)

        /// Requests not yet finished, failed or stopped.
        package var liveRequestCount: Int { state.withLock { $0.live.count } }

        /// Stops every live request of `view` (call when you destroy a view; done for you when the
        /// view is finalised). Call on the main context.
        package func stopRequests(of view: UnsafeMutableRawPointer) {
            let address = UInt(bitPattern: view)
            let sinks = state.withLock { state in state.live.values.filter { $0.view == address }.map(\.sink) }
            for sink in sinks { sink.stoppedByEngine() }
        }

        /// Whether media on the registry's schemes is set up: the media extension was found and
        /// handed to the web context.
        package private(set) var mediaEnabled = false

        /// Media ranges (`<video>`, `<audio>` reads) not yet finished, failed or stopped.
        package var liveMediaStreamCount: Int { state.withLock { $0.media.count } }

        func mediaStreamStarted(_ stream: WebKitMediaStream) {
            state.withLock { state in
                state.media[ObjectIdentifier(stream)] = stream
                state.statistics.intercepted += 1
            }
        }

        func mediaStreamEnded(_ stream: WebKitMediaStream) {
            state.withLock { _ = $0.media.removeValue(forKey: ObjectIdentifier(stream)) }
        }

        /// The sinks of the requests not yet ended (for tests that check what is left behind).
        var liveSinks: [WebKitSchemeSink] { state.withLock { $0.live.values.map(\.sink) } }

        func finished(_ sink: WebKitSchemeSink) {
            state.withLock { _ = $0.live.removeValue(forKey: ObjectIdentifier(sink)) }
        }

        // MARK: Bridging a request

        private static let requestCallback: WebKitURISchemeRequestCallback = { request, data in
            let adapter = Unmanaged<WebKitSchemeAdapter>.fromOpaque(data!).takeUnretainedValue()
            adapter.handle(request!)
        }

        private func handle(_ request: OpaquePointer) {
            let uri = String(cString: webkit_uri_scheme_request_get_uri(request))
            if let path = webkit_uri_scheme_request_get_path(request), String(cString: path) == Self.blankPath {
                return Self.answerBlank(request)
            }
            let method = webkit_uri_scheme_request_get_http_method(request).map { String(cString: $0) } ?? "GET"
            var fields = HTTPFields()
            if let headers = webkit_uri_scheme_request_get_http_headers(request) {
                withUnsafeMutablePointer(to: &fields) { pointer in
                    soup_message_headers_foreach(
                        headers,
                        { name, value, data in
                            guard let name, let value,
                                let fieldName = HTTPField.Name(String(cString: name))
                            else { return }
                            data!.assumingMemoryBound(to: HTTPFields.self).pointee.append(
                                HTTPField(name: fieldName, value: String(cString: value)))
                        }, pointer)
                }
            }
            var body = SchemeRequestBody.empty
            var bodyReader: RequestBodyReader?
            if let stream = webkit_uri_scheme_request_get_http_body(request) {
                let reader = RequestBodyReader(stream, executor: executor, limit: maximumRequestBodySize)
                reader.start()
                body = .stream(reader.body)
                bodyReader = reader
            }
            let schemeRequest: SchemeRequest
            do {
                schemeRequest = try Self.schemeRequest(uri: uri, method: method, headerFields: fields, body: body)
            } catch {
                bodyReader?.stop()
                malformedRequest()
                let gerror = g_error_new_literal(
                    schemekit_io_error_quark(), gint(G_IO_ERROR_INVALID_ARGUMENT.rawValue), String(describing: error))
                webkit_uri_scheme_request_finish_error(request, gerror)
                g_error_free(gerror)
                return
            }
            let sink = WebKitSchemeSink(
                request: request, url: uri, schemeRequest: schemeRequest, bodyReader: bodyReader, adapter: self)
            let view = webkit_uri_scheme_request_get_web_view(request).map { UnsafeMutableRawPointer($0) }
            let address = view.map { UInt(bitPattern: $0) }
            state.withLock { state in
                state.live[ObjectIdentifier(sink)] = LiveSink(sink: sink, view: address)
                state.statistics.intercepted += 1
            }
            if let view { watch(view) }
            let task = registry.task(for: schemeRequest, sink: sink)
            sink.bind(task)
            task.start()
        }

        /// The ``SchemeKit/SchemeRequest`` for what WebKit gave: its URI, method, headers and body.
        ///
        /// The method is kept as given (`PROPFIND` reaches the registry, whose handlers answer 405 to
        /// what they do not support); the URI, without the fragment WebKit leaves on it (a browser
        /// never requests one), is parsed by ``SchemeKit/SchemeRequest/init(_:method:headerFields:body:)``.
        ///
        /// - Throws: `EngineError` (invalid request) naming the method when it is not an HTTP
        ///   token, or the URI when it does not parse.
        static func schemeRequest(
            uri: String, method: String, headerFields: HTTPFields, body: SchemeRequestBody
        ) throws -> SchemeRequest {
            guard let method = HTTPRequest.Method(method) else {
                throw EngineError.invalidRequest("\(uri): the method \"\(method)\" is not an HTTP token")
            }
            do {
                return try SchemeRequest(
                    SchemeRequest.droppingFragment(uri), method: method, headerFields: headerFields, body: body)
            } catch {
                throw EngineError.invalidRequest("\(uri): \(error.description)")
            }
        }

        private static func answerBlank(_ request: OpaquePointer) {
            let html = "<!doctype html><title></title>"
            let stream = g_memory_input_stream_new()!
            g_memory_input_stream_add_data(
                UnsafeMutableRawPointer(stream).assumingMemoryBound(to: GMemoryInputStream.self), g_strdup(html),
                gssize(html.utf8.count), g_free)
            webkit_uri_scheme_request_finish(request, stream, gint64(html.utf8.count), "text/html")
            g_object_unref(stream)
        }

        /// Stops a view's requests when it is finalised (a weak reference notification).
        private var watched: Set<UnsafeMutableRawPointer> = []

        private func watch(_ view: UnsafeMutableRawPointer) {
            guard watched.insert(view).inserted else { return }
            let box = Unmanaged.passRetained(ViewWatch(adapter: self, view: view)).toOpaque()
            g_object_weak_ref(
                view.assumingMemoryBound(to: GObject.self),
                { data, _ in
                    let watch = Unmanaged<ViewWatch>.fromOpaque(data!).takeRetainedValue()
                    watch.adapter.watched.remove(watch.view)
                    watch.adapter.stopRequests(of: watch.view)
                }, box)
        }

        private final class ViewWatch {
            let adapter: WebKitSchemeAdapter
            let view: UnsafeMutableRawPointer
            init(adapter: WebKitSchemeAdapter, view: UnsafeMutableRawPointer) {
                self.adapter = adapter
                self.view = view
            }
        }
    }
#endif
