import CWebKitGTK
import Foundation
import HTTPTypes
import SchemeKit
import Synchronization

/// The engine side of one `WebKitURISchemeRequest`: turns the guarded task's writes into a
/// `WebKitURISchemeResponse` whose body streams through a ``SchemeInputStream``.
///
/// Every sink method runs on the GLib main context (its ``executor``); ``waitForCapacity()`` runs on
/// the handler's thread and only touches the pipe. `@unchecked Sendable`: the request pointer and
/// `head`, `start` state are confined to the main context.
final class WebKitSchemeSink: SchemeTaskSink, @unchecked Sendable {
    let executor: (any SchemeTaskExecutor)?
    private let glib: GLibExecutor
    private let adapter: WebKitSchemeAdapter
    /// The WebKit request, referenced until the head (or an error) answers it.
    private var request: OpaquePointer?
    private let url: String
    private let path: String
    private let method: String
    private let started = ContinuousClock.now
    private var status = 0
    /// Set on the main context with the head; read by ``waitForCapacity()`` on the handler's thread.
    private let pipeBox = Mutex<SchemeBodyPipe?>(nil)
    private var pipe: SchemeBodyPipe? { pipeBox.withLock { $0 } }
    private let task = Mutex<SchemeTask?>(nil)
    private let logged = Atomic<Bool>(false)
    private let bufferCapacity: Int

    init(request: OpaquePointer, schemeRequest: SchemeRequest, adapter: WebKitSchemeAdapter) {
        g_object_ref(UnsafeMutableRawPointer(request))
        self.request = request
        self.adapter = adapter
        self.glib = adapter.executor
        self.executor = adapter.executor
        self.url = schemeRequest.url.absoluteString
        self.path = schemeRequest.path
        self.method = schemeRequest.method.rawValue
        self.bufferCapacity = adapter.bufferCapacity
    }

    /// Binds the task this sink serves, for stops coming from the stream.
    func bind(_ task: SchemeTask) {
        self.task.withLock { $0 = task }
    }

    func receive(_ response: SchemeResponse) {
        guard let request else { return }
        status = response.status.code
        let pipe = SchemeBodyPipe(capacity: bufferCapacity, executor: glib) { [weak self] in
            self?.stoppedByEngine()
        }
        pipeBox.withLock { $0 = pipe }
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

    func receive(_ data: Data) {
        if let pipe, !pipe.push(data) { adapter.lateWrites.add(1, ordering: .relaxed) }
    }

    func finish() {
        pipe?.finish()
        record("finished")
    }

    func fail(_ error: any Error) {
        if let request {
            let gerror = g_error_new_literal(
                schemekit_io_error_quark(), gint(G_IO_ERROR_FAILED.rawValue), String(describing: error))
            webkit_uri_scheme_request_finish_error(request, gerror)
            g_error_free(gerror)
            release()
        } else {
            pipe?.fail(String(describing: error))
        }
        record("failed")
    }

    func waitForCapacity() async {
        await pipe?.waitForCapacity()
    }

    /// The engine gave up on the request (cancelled read, stream closed or finalised, view gone).
    func stoppedByEngine() {
        let task = self.task.withLock { $0 }
        task?.stop()
        glib.execute {
            self.pipe?.stop()
            self.release()
            self.record("stopped")
        }
    }

    private func release() {
        guard let request else { return }
        self.request = nil
        g_object_unref(UnsafeMutableRawPointer(request))
    }

    private func record(_ outcome: String) {
        guard !logged.exchange(true, ordering: .relaxed) else { return }
        let handler = task.withLock { $0?.respondingHandler } ?? "-"
        let elapsed = ContinuousClock.now - started
        let entry = SchemeRequestLogEntry(
            url: url, path: path, method: method, status: status, bytes: pipe?.bytesPushed ?? 0,
            handler: handler,
            milliseconds: Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000,
            outcome: outcome
        )
        adapter.append(entry)
        adapter.finished(self)
    }
}
