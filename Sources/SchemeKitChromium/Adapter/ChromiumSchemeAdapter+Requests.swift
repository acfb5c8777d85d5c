#if Chromium
    package import Foundation
    import HTTPTypes
    package import SchemeKit
    import SchemeKitBrowserSupport

    extension ChromiumSchemeAdapter: LoopbackOriginClient {}

    extension ChromiumSchemeAdapter: BrowserRequestAdapter {
        /// Whether a request every handler passed on comes back to the adapter (not the registry's 404).
        package var receivesPassedRequests: Bool { configuration.whenPassed != .notFound }

        /// ``ChromiumAdapterConfiguration/requestTimeout``.
        package var requestTimeout: Duration? { configuration.requestTimeout }

        /// The handler chain failed: `Fetch.failRequest` with `Failed`; the record holds the
        /// handler's own error.
        package func failRequest(_ requestId: String, handlerError error: any Error) {
            failRequest(requestId, reason: "Failed", error: error)
        }

        /// The body is over ``bodyLimit``: `Fetch.failRequest` with `Failed`, the error names the setting.
        package func failRequest(_ requestId: String, bodyTooLarge size: Int) {
            failRequest(requestId, reason: "Failed", error: EngineError(.bodyTooLarge, bodyTooLargeMessage(size)))
        }

        /// The transport's body limit (and, over a WebSocket, what one message can carry).
        var bodyLimit: Int {
            let configured =
                connection.wireFormat == .json ? configuration.maximumJSONBodySize : configuration.maximumCBORBodySize
            return min(configured, connection.transportBodyLimit ?? Int.max)
        }

        /// Why a body of `size` bytes cannot go: the limit, and the setting that raises it.
        func bodyTooLargeMessage(_ size: Int) -> String {
            if let message = connection.maximumMessageSize, let carried = connection.transportBodyLimit,
                carried <= bodyLimit
            {
                return
                    "a body of at least \(size) bytes does not fit in one DevTools message: the WebSocket's maximum message size is \(message) bytes, which carries at most \(carried) bytes of body (base64); raise maximumMessageSize (headless-render: --max-message-size)"
            }
            let setting = connection.wireFormat == .json ? "maximumJSONBodySize" : "maximumCBORBodySize"
            return
                "a body of at least \(size) bytes is over the \(bodyLimit)-byte limit of this transport; raise ChromiumAdapterConfiguration.\(setting) (headless-render: --max-message-size)"
        }

        /// Starts a registry task for a paused request.
        func pause(_ paused: CDP.RequestPaused, sessionId: String?) {
            let requestId = paused.requestId
            let registryURL: String
            switch connection.fetchInterception.decision(for: paused.request.url, adapter: ObjectIdentifier(self)) {
            case .serve(let url): registryURL = url
            case .ignore: return  // another adapter's on this connection
            case .continue:
                // No adapter's (a pattern Chromium matched more widely): let it go.
                send(CDP.ContinueRequest(requestId: requestId))
                return
            }
            let record = SchemeRequestRecord(
                url: paused.request.url, registryURL: registryURL, method: paused.request.method,
                resourceType: paused.resourceType)
            state.withLock { state in
                state.statistics.intercepted += 1
                state.inflight[requestId] = Inflight(
                    task: nil, networkId: paused.networkId, frameId: paused.frameId, timer: nil, record: record)
                if let networkId = paused.networkId { state.byNetworkId[networkId] = requestId }
            }
            let request: SchemeRequest
            do {
                request = try makeRequest(paused, registryURL: registryURL)
            } catch {
                failRequest(requestId, reason: "Failed", error: EngineError(.malformedMessage, "\(error)"))
                return
            }
            startTask(request, requestId: requestId, bodyLimit: bodyLimit)
        }

        /// ``ChromiumAdapterConfiguration/requestTimeout`` passed: stopped, `Fetch.failRequest` with `TimedOut`.
        package func requestTimedOut(_ requestId: String) {
            stopRequest(requestId, reason: .timedOut, tellChromium: true)
        }

        /// A `Fetch.requestPaused` that cannot be read: dropping it would leave the page's request
        /// paused forever. It is failed at once (`Fetch.failRequest`) when its `requestId` can be
        /// read, counted in ``undecodablePausedEvents``, and logged as a failed record with code
        /// `EngineError.Code.malformedMessage` on ``records(bufferLimit:)``.
        func undecodablePause(_ event: CDPEvent, error: any Error) {
            let requestId = event.params["requestId"]?.stringValue
            let failure = EngineError(
                .malformedMessage,
                "an undecodable Fetch.requestPaused (requestId \(requestId ?? "unreadable")) was failed: \(error)")
            let request = event.params["request"]
            var record = SchemeRequestRecord(
                url: request?["url"]?.stringValue ?? "", registryURL: "", method: request?["method"]?.stringValue ?? "",
                resourceType: event.params["resourceType"]?.stringValue)
            record.fail(failure)
            state.withLock { $0.undecodablePausedEvents += 1 }
            publish(record) { statistics in
                if requestId != nil { statistics.countMalformedRequest() }
            }
            if let requestId { send(CDP.FailRequest(requestId: requestId, errorReason: "Failed")) }
        }

        private func makeRequest(_ paused: CDP.RequestPaused, registryURL: String) throws -> SchemeRequest {
            var fields = HTTPFields()
            for (name, value) in paused.request.headers {
                guard let fieldName = HTTPField.Name(name) else { continue }
                fields.append(HTTPField(name: fieldName, value: value))
            }
            // A media element's open-ended range, narrowed to the configured cap, and over a WebSocket
            // to what one message carries: a body goes back in one message. Any other range (a
            // resumed download, a range reader) is answered as asked.
            if paused.resourceType == "Media" {
                let cap = [configuration.openEndedRangeCap, connection.transportBodyLimit].compactMap { $0 }.min()
                if let cap, let range = fields[.range], let capped = Self.capOpenEndedRange(range, cap: cap) {
                    fields[.range] = capped
                }
            }
            var body = SchemeRequestBody.empty
            if let entries = paused.request.postDataEntries, !entries.isEmpty {
                var data = Data()
                for entry in entries {
                    if let bytes = entry.bytes, let decoded = Data(base64Encoded: bytes) { data.append(decoded) }
                }
                body = .bytes(data)
            } else if let text = paused.request.postData {
                body = .bytes(Data(text.utf8))
            }
            guard let method = HTTPRequest.Method(paused.request.method) else {
                throw EngineError(.malformedMessage, "method \(paused.request.method)")
            }
            return try SchemeRequest(registryURL, method: method, headerFields: fields, body: body)
        }

        /// `bytes=N-` → `bytes=N-(N+cap-1)`; `nil` for any other range (the rule the browser
        /// adapters share, ``OpenEndedRange``).
        static func capOpenEndedRange(_ value: String, cap: Int) -> String? {
            OpenEndedRange.capped(value, cap: cap)
        }

        /// Takes a request out of the in-flight set: `nil` when it already ended.
        private func take(_ requestId: String) -> Inflight? {
            state.withLock { state in
                guard let entry = state.inflight.removeValue(forKey: requestId) else { return nil }
                if let networkId = entry.networkId { state.byNetworkId[networkId] = nil }
                return entry
            }
        }

        private func publish(_ record: SchemeRequestRecord, _ count: (inout EngineAdapterStatistics) -> Void) {
            let dropped = broadcast(record) { count(&$0.statistics) }
            if dropped > 0 { state.withLock { $0.statistics.droppedRecords += dropped } }
        }

        /// Stops a request's task; nothing more is sent for it except, when asked, a `Fetch.failRequest`.
        func stopRequest(_ requestId: String, reason: SchemeRequestRecord.StopReason, tellChromium: Bool) {
            guard var entry = take(requestId) else { return }
            entry.timer?.cancel()
            entry.task?.stop()
            entry.record.outcome = .stopped(reason: reason)
            entry.record.handler = entry.task?.respondingHandler
            publish(entry.record) { $0.countStop(reason) }
            if tellChromium {
                send(CDP.FailRequest(requestId: requestId, errorReason: reason == .timedOut ? "TimedOut" : "Aborted"))
            }
        }

        /// The handler chain passed (every handler declined): the configured policy.
        package func passed(_ requestId: String) {
            guard var entry = take(requestId) else { return }
            entry.timer?.cancel()
            switch configuration.whenPassed {
            case .notFound, .continueRequest:
                entry.record.outcome = .continued
                publish(entry.record) { $0.continued += 1 }
                send(CDP.ContinueRequest(requestId: requestId))
            case .fail(let reason):
                let error = EngineError(.protocolError, "no handler answered; failed as \(reason)")
                entry.record.fail(error)
                publish(entry.record) { $0.countFailure(error) }
                send(CDP.FailRequest(requestId: requestId, errorReason: reason))
            }
        }

        /// Fails a request in Chromium (`Fetch.failRequest`), stopping its task if it still runs.
        func failRequest(_ requestId: String, reason: String, error: any Error) {
            guard var entry = take(requestId) else { return }
            entry.timer?.cancel()
            entry.task?.stop()  // allowed from inside the task's own sink
            entry.record.fail(error)
            publish(entry.record) { $0.countFailure(error) }
            send(CDP.FailRequest(requestId: requestId, errorReason: reason))
        }

        /// The task finished: fulfil with what was collected (or apply the pass policy).
        package func complete(_ requestId: String, response: SchemeResponse, body: Data) {
            // Off the task's lock: reading the task's responder takes it.
            Task { [self] in
                let handler = state.withLock { $0.inflight[requestId]?.task }?.respondingHandler
                guard var entry = take(requestId) else { return }
                entry.timer?.cancel()
                entry.record.status = response.status.code
                entry.record.bytes = body.count
                entry.record.handler = handler
                var headers: [CDPValue] = []
                for field in response.headerFields {
                    let value = VirtualOriginMapping.browserValue(
                        of: field, registryURL: entry.record.registryURL, browserURL: entry.record.url)
                    headers.append(.object(["name": .string(field.name.rawName), "value": .string(value)]))
                }
                var params: [String: CDPValue] = [
                    "requestId": .string(requestId), "responseCode": .int(response.status.code),
                    "responseHeaders": .array(headers),
                ]
                if !body.isEmpty { params["body"] = .binary(body) }
                do {
                    try await connection.send("Fetch.fulfillRequest", .object(params))
                    publish(entry.record) { statistics in
                        statistics.answered += 1
                        statistics.bytesAnswered += body.count
                    }
                } catch let error as EngineError where error.protocolCode == "-32602" || error.code == .disconnected {
                    entry.record.outcome = .stopped(reason: .rejected)
                    publish(entry.record) { $0.countStop(.rejected) }
                } catch {
                    // Chromium refused the answer (a message too large for the WebSocket, say):
                    // fail the request so the page does not wait for it.
                    let failure = error as? EngineError ?? EngineError(.protocolError, "\(error)")
                    entry.record.fail(failure)
                    publish(entry.record) { $0.countFailure(failure) }
                    send(CDP.FailRequest(requestId: requestId, errorReason: "Failed"))
                }
            }
        }

        /// Sends a command whose answer does not matter (the request may be gone already).
        func send<Command: CDPCommand>(_ command: Command) {
            let connection = self.connection
            Task { _ = try? await connection.send(command) }
        }
    }
#endif
