// Built only with the package trait `WebKitGTK` (it needs WebKitGTK 6.0's headers and libraries).
#if WebKitGTK
    import CWebKitGTK
    import Foundation
    import HTTPTypes
    import SchemeKit
    import Synchronization

    /// The engine side of one `WebKitURISchemeRequest`: turns the guarded task's writes into a
    /// `WebKitURISchemeResponse` whose body streams through a ``SchemeInputStream``.
    ///
    /// The sink is called inline, on the handler's thread, under the task's lock (no ``executor``):
    /// body writes, the finish and a failure after the head go straight into the thread-safe
    /// ``SchemeBodyPipe``, which touches the main context only to complete a read WebKit is waiting
    /// on. Only what must call WebKit hops to the GLib main context, as one job each: answering the
    /// request with the head (`webkit_uri_scheme_request_finish_with_response`) or with an error
    /// before any head, and the bookkeeping of a stop. `@unchecked Sendable`: `request` is confined to
    /// the main context; the rest is immutable or behind `shared`.
    final class WebKitSchemeSink: SchemeTaskSink, @unchecked Sendable {
        private struct Shared {
            var pipe: SchemeBodyPipe?
            var status = 0
            var task: SchemeTask?
        }

        private let glib: GLibExecutor
        private let adapter: WebKitSchemeAdapter
        /// The WebKit request, referenced until the head (or an error, or a stop) answers it. Main
        /// context only.
        private var request: OpaquePointer?
        /// The request's URL.
        let url: String
        /// What the sink will publish when the task ends.
        private let startedRecord: SchemeRequestRecord
        private let shared = Locked(Shared())
        private let logged = Atomic<Bool>(false)
        private let bufferCapacity: Int
        /// The reader of the request's body, if it has one: stopped when the task ends or is stopped.
        private let bodyReader: RequestBodyReader?

        init(
            request: OpaquePointer, url: String, schemeRequest: SchemeRequest, bodyReader: RequestBodyReader?,
            adapter: WebKitSchemeAdapter
        ) {
            g_object_ref(UnsafeMutableRawPointer(request))
            self.request = request
            self.adapter = adapter
            self.glib = adapter.executor
            self.url = url
            self.startedRecord = SchemeRequestRecord(url: url, registryURL: url, method: schemeRequest.method.rawValue)
            self.bufferCapacity = adapter.bufferCapacity
            self.bodyReader = bodyReader
        }

        /// Binds the task this sink serves, for stops coming from the stream.
        func bind(_ task: SchemeTask) {
            shared.withLock { $0.task = task }
        }

        private var pipe: SchemeBodyPipe? { shared.withLock { $0.pipe } }

        /// The head (handler's thread): the pipe exists from now on, so the body can flow into it at
        /// once; WebKit gets the response (and the stream) on the main context.
        func receive(_ response: SchemeResponse) {
            let pipe = SchemeBodyPipe(capacity: bufferCapacity, executor: glib) { [weak self] in
                self?.stoppedByEngine()
            }
            shared.withLock {
                $0.pipe = pipe
                $0.status = response.status.code
            }
            glib.execute { self.answer(with: response, body: pipe) }
        }

        /// Answers the WebKit request with `response` and a stream reading `pipe`. Main context.
        private func answer(with response: SchemeResponse, body pipe: SchemeBodyPipe) {
            // Stopped meanwhile (the view went away before this job ran): the stop job drops the request.
            // The task is read out of `shared` first: `isStopped` takes the task's lock, which a
            // handler thread may hold while it waits for `shared` (lock order: task, then `shared`).
            let task = shared.withLock { $0.task }
            guard let request, task?.isStopped != true else { return }
            let stream = SchemeInputStream.make(reading: pipe)
            let answer = webkit_uri_scheme_response_new(stream, gint64(response.expectedContentLength ?? -1))
            g_object_unref(UnsafeMutableRawPointer(stream))
            webkit_uri_scheme_response_set_status(answer, guint(response.status.code), response.status.reasonPhrase)
            if let contentType = response.headerFields[.contentType] {
                webkit_uri_scheme_response_set_content_type(answer, contentType)
            }
            let headers = soup_message_headers_new(SOUP_MESSAGE_HEADERS_RESPONSE)
            for field in response.headerFields {
                soup_message_headers_append(headers, field.name.canonicalName, field.value)
            }
            webkit_uri_scheme_response_set_http_headers(answer, headers)
            webkit_uri_scheme_request_finish_with_response(request, answer)
            g_object_unref(UnsafeMutableRawPointer(answer))
            release()
        }

        func receive(_ body: SchemeBody) {
            if let pipe, !pipe.push(body.data) { adapter.lateWrites.add(1, ordering: .relaxed) }
        }

        func finish() {
            pipe?.finish()
            record(.answered)
        }

        func fail(_ error: any Error) {
            if let pipe {
                pipe.fail(String(describing: error))
            } else {
                let message = String(describing: error)
                glib.execute {
                    guard let request = self.request else { return }
                    let gerror = g_error_new_literal(
                        schemekit_io_error_quark(), gint(G_IO_ERROR_FAILED.rawValue), message)
                    webkit_uri_scheme_request_finish_error(request, gerror)
                    g_error_free(gerror)
                    self.release()
                }
            }
            record(.failed, error: error)
        }

        func waitForCapacity() async {
            await pipe?.waitForCapacity()
        }

        /// The engine gave up on the request (cancelled read, stream closed or finalised, view gone).
        /// Stops the task first — once that returns, no write reaches this sink — then, on the main
        /// context, stops the pipe, drops the request and logs the stop.
        func stoppedByEngine() {
            let task = shared.withLock { $0.task }
            task?.stop()
            bodyReader?.stop()
            glib.execute {
                self.pipe?.stop()
                self.release()
                self.record(.stopped(reason: .canceledByPage))
            }
        }

        /// Main context.
        private func release() {
            guard let request else { return }
            self.request = nil
            g_object_unref(UnsafeMutableRawPointer(request))
        }

        private func record(_ outcome: SchemeRequestRecord.Outcome, error: (any Error)? = nil) {
            guard !logged.exchange(true, ordering: .relaxed) else { return }
            // The task ended: nothing reads the request body any more.
            bodyReader?.stop()
            // The task ended: let go of it, which breaks the task → sink → task cycle.
            let (task, status, pipe) = shared.withLock { shared in
                defer { shared.task = nil }
                return (shared.task, shared.status, shared.pipe)
            }
            adapter.publish(
                startedRecord, ending: outcome, error: error, status: status, bytes: pipe?.bytesPushed ?? 0, task: task)
            adapter.finished(self)
        }
    }
#endif
