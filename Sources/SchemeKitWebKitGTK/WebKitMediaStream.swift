// Built only with the package trait `WebKitGTK` (it needs WebKitGTK 6.0's headers and libraries).
#if WebKitGTK
    import CWebKitGTK
    import Foundation
    import HTTPTypes
    import SchemeKit
    import Synchronization

    /// One range the web process's media source asked for: a registry task whose head and body go to
    /// the range's response socket, written by a thread of the stream's own (never a pool thread).
    ///
    /// - The body is buffered up to the adapter's buffer capacity; past it the
    ///   handler waits (``waitForCapacity()``) until the socket takes the bytes.
    /// - The web process closes the socket to stop the range (a seek, the element stopped, the view or
    ///   the web process gone): the next write fails and the task is stopped.
    final class WebKitMediaStream: SchemeTaskSink, @unchecked Sendable {
        private struct State {
            var queue: [Data] = []
            var queued = 0
            var ended = false
            var broken = false
            var stopped = false
            var status = 0
            var bytes = 0
            var task: SchemeTask?
            var waiters: [CheckedContinuation<Void, Never>] = []
        }

        /// The queue between the handler and the writer thread, which waits on it.
        private let state = ConditionLock(State())
        private let socket: Int32
        private let offset: UInt64
        private let capacity: Int
        /// What the stream will publish when the task ends.
        private let startedRecord: SchemeRequestRecord
        private let adapter: WebKitSchemeAdapter

        private init(url: String, offset: UInt64, socket: Int32, adapter: WebKitSchemeAdapter) {
            self.startedRecord = SchemeRequestRecord(url: url, registryURL: url, method: "GET")
            self.offset = offset
            self.socket = socket
            self.adapter = adapter
            self.capacity = adapter.bufferCapacity
        }

        /// Runs the range `offset`… of `uri` through the adapter's registry, answering on `socket`
        /// (which the stream closes).
        static func start(uri: String, offset: UInt64, socket: Int32, adapter: WebKitSchemeAdapter) {
            var fields = HTTPFields()
            if offset > 0 { fields[.range] = "bytes=\(offset)-" }
            let request: SchemeRequest
            do {
                request = try SchemeRequest(SchemeRequest.droppingFragment(uri), method: .get, headerFields: fields)
            } catch {
                adapter.malformedRequest()
                let head = WebKitMediaBridge.responseHead(
                    status: 400, totalSize: -1, offset: 0, message: "SchemeKit: \(error.description)")
                _ = head.withUnsafeBytes { schemekit_send_all(socket, $0.baseAddress, $0.count) }
                close(socket)
                return
            }
            let stream = WebKitMediaStream(
                url: uri, offset: offset, socket: socket, adapter: adapter)
            adapter.mediaStreamStarted(stream)
            let task = adapter.registry.task(for: request, sink: stream)
            stream.state.withLock { $0.task = task }
            let writer = Thread { stream.writeLoop() }
            writer.name = "SchemeKit media stream"
            writer.start()
            task.start()
        }

        // MARK: SchemeTaskSink

        func receive(_ response: SchemeResponse) {
            let (total, start) = Self.extent(of: response, offset: offset)
            let status = response.status.code
            let message =
                (200..<300).contains(status) ? "" : "\(status) \(response.status.reasonPhrase): \(startedRecord.url)"
            enqueue(WebKitMediaBridge.responseHead(status: status, totalSize: total, offset: start, message: message)) {
                $0.status = status
            }
        }

        func receive(_ body: SchemeBody) {
            let data = body.data
            enqueue(data) { $0.bytes += data.count }
        }

        func finish() {
            end(.answered)
        }

        func fail(_ error: any Error) {
            let head = WebKitMediaBridge.responseHead(
                status: 500, totalSize: -1, offset: 0, message: "SchemeKit: \(String(describing: error))")
            state.withLock { state in
                // Before a head, the web process reads this error head; after one, the early end of file.
                if state.status == 0 {
                    state.queue.append(head)
                    state.queued += head.count
                }
            }
            end(.failed, error: error)
        }

        func waitForCapacity() async {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { state in
                    if state.queued < capacity || state.broken || state.ended { return true }
                    state.waiters.append(continuation)
                    return false
                }
                if ready { continuation.resume() }
            }
        }

        // MARK: Internals

        /// The resource's total size and the body's first offset, from `Content-Range` (206) or
        /// `Content-Length` (200).
        static func extent(of response: SchemeResponse, offset: UInt64) -> (total: Int64, start: Int64) {
            if response.status.code == 206, let range = response.headerFields[.contentRange],
                let slash = range.lastIndex(of: "/")
            {
                let total = Int64(range[range.index(after: slash)...]) ?? -1
                let spec = range.dropFirst("bytes ".count).prefix { $0 != "-" }
                return (total, Int64(spec) ?? Int64(offset))
            }
            if response.status.code == 200 {
                let length =
                    response.expectedContentLength ?? response.headerFields[.contentLength].flatMap { Int64($0) }
                return (length ?? -1, 0)
            }
            return (-1, 0)
        }

        private func enqueue(_ data: Data, _ update: (inout State) -> Void) {
            let late = state.withLock { state in
                if state.stopped { return true }
                update(&state)
                if !state.broken {
                    state.queue.append(data)
                    state.queued += data.count
                }
                return false
            }
            if late { adapter.lateWrites.add(1, ordering: .relaxed) }
        }

        private func end(_ outcome: SchemeRequestRecord.Outcome, error: (any Error)? = nil) {
            let waiters = state.withLock { state in
                state.ended = true
                defer { state.waiters = [] }
                return state.waiters
            }
            for waiter in waiters { waiter.resume() }
            record(outcome, error: error)
        }

        /// Writes queued bytes until the task ends (then closes the socket) or the socket breaks (then
        /// stops the task).
        private func writeLoop() {
            while true {
                var closedByPeer = false
                var batch: (chunks: [Data], ended: Bool)?
                let take = { (state: inout State) -> (chunks: [Data], ended: Bool) in
                    defer { state.queue = [] }
                    return (state.queue, state.ended)
                }
                while batch == nil {
                    batch = state.wait(timeout: .milliseconds(500)) { state in
                        state.queue.isEmpty && !state.ended && !state.broken ? nil : take(&state)
                    }
                    // While the handler is slow, look every half second whether the web process has
                    // closed the range, so that a stop does not wait for the handler's next write.
                    if batch == nil, schemekit_peer_closed(socket) != 0 {
                        closedByPeer = true
                        batch = state.withLock(take)
                    }
                }
                let (chunks, ended) = batch!
                var failed = closedByPeer
                for chunk in chunks where !failed {
                    failed = chunk.withUnsafeBytes { schemekit_send_all(socket, $0.baseAddress, $0.count) } != 0
                }
                let (waiters, task): ([CheckedContinuation<Void, Never>], SchemeTask?) = state.withLock { state in
                    state.queued -= chunks.reduce(0) { $0 + $1.count }
                    if failed { state.broken = true }
                    guard failed || state.queued < capacity else { return ([], nil) }
                    defer { state.waiters = [] }
                    return (state.waiters, failed && !state.ended ? state.task : nil)
                }
                for waiter in waiters { waiter.resume() }
                if let task {
                    // The web process closed the range: stop the handler; nothing reaches the sink after.
                    task.stop()
                    state.withLock { state in
                        state.stopped = true
                        state.queue = []
                    }
                    record(.stopped(reason: .canceledByPage))
                }
                let done = state.withLock { ($0.ended || $0.broken) && $0.queue.isEmpty }
                if done || (ended && chunks.isEmpty) { break }
            }
            close(socket)
        }

        private let logged = Atomic<Bool>(false)

        private func record(_ outcome: SchemeRequestRecord.Outcome, error: (any Error)? = nil) {
            guard !logged.exchange(true, ordering: .relaxed) else { return }
            let (status, bytes, task) = state.withLock { state -> (Int, Int, SchemeTask?) in
                defer { state.task = nil }
                return (state.status, state.bytes, state.task)
            }
            adapter.publish(startedRecord, ending: outcome, error: error, status: status, bytes: bytes, task: task)
            adapter.mediaStreamEnded(self)
        }
    }
#endif
