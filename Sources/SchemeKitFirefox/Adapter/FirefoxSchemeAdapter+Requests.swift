#if Firefox
    package import Foundation
    import HTTPTypes
    package import SchemeKit
    import SchemeKitBrowserSupport

    extension FirefoxSchemeAdapter: LoopbackOriginClient {}

    extension FirefoxSchemeAdapter: BrowserRequestAdapter {
        /// Whether a request every handler passed on comes back to the adapter (not the registry's 404).
        package var receivesPassedRequests: Bool { configuration.whenPassed != .notFound }

        /// ``FirefoxAdapterConfiguration/requestTimeout``.
        package var requestTimeout: Duration? { configuration.requestTimeout }

        /// The handler chain failed: `network.failRequest`.
        package func failRequest(_ requestId: String, handlerError error: any Error) {
            failRequest(requestId, error: error)
        }

        /// The body is over ``maximumBodySize``: `network.failRequest`, the error names the setting.
        package func failRequest(_ requestId: String, bodyTooLarge size: Int) {
            failRequest(requestId, error: EngineError(.bodyTooLarge, bodyTooLargeMessage(size)))
        }

        /// A request the intercept holds: starts its registry task (after fetching its body, if any).
        func intercepted(_ event: BiDiRequestEvent, timestamp: Double?) {
            let requestId = event.request
            guard let registryURL = configuration.origins.registryURL(for: event.url) else {
                // Not ours (a pattern Firefox matched more widely): let it go.
                send("network.continueRequest", ["request": .string(requestId)])
                return
            }
            let record = SchemeRequestRecord(
                url: event.url, registryURL: registryURL, method: event.method, resourceType: event.destination)
            state.withLock { state in
                state.statistics.intercepted += 1
                state.inflight[requestId] = Inflight(
                    task: nil, context: event.context, navigation: event.navigation, timestamp: timestamp, timer: nil,
                    record: record)
            }
            if let size = event.bodySize, size > 0 {
                Task { [self] in
                    do {
                        let body = try await requestBody(of: requestId, size: size)
                        startTask(event, registryURL: registryURL, body: .bytes(body))
                    } catch let error as EngineError {
                        failRequest(requestId, error: error)
                    } catch {
                        failRequest(requestId, error: EngineError(.protocolError, "\(error)"))
                    }
                }
            } else {
                startTask(event, registryURL: registryURL, body: .empty)
            }
        }

        /// The body of a held request, from the adapter's data collector.
        private func requestBody(of requestId: String, size: Int) async throws -> Data {
            let (collector, collectorError) = state.withLock { ($0.collector, $0.collectorError) }
            guard let collector else {
                throw EngineError(
                    .protocolError,
                    "this Firefox cannot hand request bodies to the adapter (network.addDataCollector: \(collectorError ?? "not started"))"
                )
            }
            // Firefox counts a binary body by its base64 length (measured, ESR 153: a 65,536-byte
            // `Uint8Array` has a `bodySize` of 87,384): check that first, the decoded size below.
            guard size <= encodedRequestBodyLimit else { throw requestBodyTooLarge(size) }
            let result = try await connection.send(
                "network.getData",
                ["dataType": "request", "request": .string(requestId), "collector": .string(collector), "disown": true])
            guard let bytes = result["bytes"] else {
                throw EngineError(.malformedMessage, "network.getData: no bytes")
            }
            let body: Data
            do {
                body = try BiDiBytes.decode(bytes)
            } catch {
                throw EngineError(.malformedMessage, "network.getData: \(error)")
            }
            guard body.count <= requestBodyLimit else { throw requestBodyTooLarge(body.count) }
            return body
        }

        /// A request body over the limit: the error names the limit and the setting.
        private func requestBodyTooLarge(_ size: Int) -> EngineError {
            EngineError(
                .bodyTooLarge,
                "a request body of \(size) bytes (as Firefox counts it: base64 for binary data) is over the adapter's limit of \(requestBodyLimit) bytes (maximumRequestBodySize, and what one message can carry)"
            )
        }

        private func startTask(_ event: BiDiRequestEvent, registryURL: String, body: SchemeRequestBody) {
            let requestId = event.request
            let request: SchemeRequest
            do {
                request = try makeRequest(event, registryURL: registryURL, body: body)
            } catch {
                failRequest(requestId, error: EngineError(.malformedMessage, "\(error)"))
                return
            }
            startTask(request, requestId: requestId, bodyLimit: maximumBodySize)
        }

        /// ``FirefoxAdapterConfiguration/requestTimeout`` passed: stopped, `network.failRequest`.
        package func requestTimedOut(_ requestId: String) {
            stopRequest(requestId, reason: .timedOut, tellFirefox: true)
        }

        private func makeRequest(_ event: BiDiRequestEvent, registryURL: String, body: SchemeRequestBody) throws
            -> SchemeRequest
        {
            var fields = HTTPFields()
            for header in event.headers {
                guard let name = HTTPField.Name(header.name) else { continue }
                fields.append(HTTPField(name: name, value: header.value))
            }
            // A media element's open-ended range, narrowed to the configured cap and to what one
            // message carries: a body goes back in one message. Any other range (a resumed download,
            // a range reader) is answered as asked.
            if let destination = event.destination, ["video", "audio", "track"].contains(destination) {
                let cap = min(configuration.openEndedRangeCap ?? Int.max, maximumBodySize)
                if let range = fields[.range], let capped = OpenEndedRange.capped(range, cap: cap) {
                    fields[.range] = capped
                }
            }
            guard let method = HTTPRequest.Method(event.method) else {
                throw EngineError(.malformedMessage, "method \(event.method)")
            }
            return try SchemeRequest(registryURL, method: method, headerFields: fields, body: body)
        }

        /// Takes a request out of the in-flight set: `nil` when it already ended.
        private func take(_ requestId: String) -> Inflight? {
            state.withLock { $0.inflight.removeValue(forKey: requestId) }
        }

        private func publish(_ record: SchemeRequestRecord, _ count: (inout EngineAdapterStatistics) -> Void) {
            let dropped = broadcast(record) { count(&$0.statistics) }
            if dropped > 0 { state.withLock { $0.statistics.droppedRecords += dropped } }
        }

        /// Stops a request's task; nothing more is sent for it except, when asked, a `network.failRequest`.
        func stopRequest(_ requestId: String, reason: SchemeRequestRecord.StopReason, tellFirefox: Bool) {
            guard var entry = take(requestId) else { return }
            entry.timer?.cancel()
            entry.task?.stop()
            entry.record.outcome = .stopped(reason: reason)
            entry.record.handler = entry.task?.respondingHandler
            publish(entry.record) { $0.countStop(reason) }
            if tellFirefox { send("network.failRequest", ["request": .string(requestId)]) }
        }

        /// The handler chain passed (every handler declined): the configured policy.
        package func passed(_ requestId: String) {
            guard var entry = take(requestId) else { return }
            entry.timer?.cancel()
            switch configuration.whenPassed {
            case .notFound, .continueRequest:
                entry.record.outcome = .continued
                publish(entry.record) { $0.continued += 1 }
                send("network.continueRequest", ["request": .string(requestId)])
            case .fail:
                let error = EngineError(.protocolError, "no handler answered; failed as the pass policy says")
                entry.record.fail(error)
                publish(entry.record) { $0.countFailure(error) }
                send("network.failRequest", ["request": .string(requestId)])
            }
        }

        /// Fails a request (`network.failRequest`): the page sees a network error.
        func failRequest(_ requestId: String, error: any Error) {
            guard var entry = take(requestId) else { return }
            entry.timer?.cancel()
            entry.task?.stop()  // allowed from inside the task's own sink
            entry.record.fail(error)
            publish(entry.record) { $0.countFailure(error) }
            send("network.failRequest", ["request": .string(requestId)])
        }

        /// The task finished: answer with what was collected.
        package func complete(_ requestId: String, response: SchemeResponse, body: Data) {
            // Off the task's lock: reading the task's responder takes it.
            Task { [self] in
                let handler = state.withLock { $0.inflight[requestId]?.task }?.respondingHandler
                guard var entry = take(requestId) else { return }
                entry.timer?.cancel()
                entry.record.status = response.status.code
                entry.record.bytes = body.count
                entry.record.handler = handler
                var headers: [BiDiValue] = []
                for field in response.headerFields {
                    let value = VirtualOriginMapping.browserValue(
                        of: field, registryURL: entry.record.registryURL, browserURL: entry.record.url)
                    headers.append(BiDiHeader(name: field.name.rawName, value: value).bidiValue)
                }
                var params: [String: BiDiValue] = [
                    "request": .string(requestId), "statusCode": .int(response.status.code),
                    "reasonPhrase": .string(response.status.reasonPhrase), "headers": .array(headers),
                ]
                params["body"] = ["type": "base64", "value": .binary(body)]
                do {
                    try await connection.send("network.provideResponse", .object(params))
                    publish(entry.record) { statistics in
                        statistics.answered += 1
                        statistics.bytesAnswered += body.count
                    }
                } catch let error as EngineError where error.protocolCode == "no such request" {
                    entry.record.outcome = .stopped(reason: .rejected)
                    publish(entry.record) { $0.countStop(.rejected) }
                } catch let error as EngineError where error.code == .messageTooLarge {
                    let failure = EngineError(.bodyTooLarge, bodyTooLargeMessage(body.count))
                    entry.record.fail(failure)
                    publish(entry.record) { $0.countFailure(failure) }
                    send("network.failRequest", ["request": .string(requestId)])
                } catch let error as EngineError where error.code == .disconnected || error.code == .malformedMessage {
                    entry.record.outcome = .stopped(reason: .disconnected)
                    publish(entry.record) { $0.countStop(.disconnected) }
                } catch {
                    // Firefox refused the answer: fail the request so the page does not wait for it.
                    let failure = error as? EngineError ?? EngineError(.protocolError, "\(error)")
                    entry.record.fail(failure)
                    publish(entry.record) { $0.countFailure(failure) }
                    send("network.failRequest", ["request": .string(requestId)])
                }
            }
        }

        /// Why a body of `size` bytes cannot go: the limit, and the setting that raises it.
        func bodyTooLargeMessage(_ size: Int) -> String {
            "a response body of \(size) bytes does not fit in one WebDriver BiDi message: the WebSocket's maximum message size is \(connection.maximumMessageSize) bytes, which carries at most \(maximumBodySize) bytes of body (base64); raise maximumMessageSize (headless-render: --max-message-size)"
        }

        /// Sends a command whose answer does not matter (the request may be gone already).
        func send(_ method: String, _ params: BiDiValue) {
            let connection = self.connection
            Task { _ = try? await connection.send(method, params) }
        }
    }
#endif
