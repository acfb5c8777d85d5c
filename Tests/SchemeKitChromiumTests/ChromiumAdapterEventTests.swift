#if Chromium
    import Foundation
    import LoopbackTestSupport
    import SchemeKit
    import Testing

    @testable import SchemeKitChromium
    import SchemeKitBrowserSupport

    /// The adapter fed events through a fake transport: no Chromium needed.
    @Suite(.serialized, .timeLimit(.minutes(1)))
    struct ChromiumAdapterEventTests {
        static func adapter(
            wireFormat: ChromiumWireFormat = .json, handler: ClosureHandler = blankPage,
            requestTimeout: Duration? = .seconds(60)
        ) async throws -> (ChromiumSchemeAdapter, ChromiumConnection, FakeChromiumTransport) {
            let (connection, transport) = FakeChromiumTransport.connection(wireFormat: wireFormat)
            let registry = SchemeRegistry()
            try registry.register(handler, for: "app")
            let adapter = ChromiumSchemeAdapter(
                registry: registry, connection: connection,
                configuration: ChromiumAdapterConfiguration(
                    origins: [ChromiumHarness.origin], requestTimeout: requestTimeout))
            try await adapter.start()
            return (adapter, connection, transport)
        }

        static func requestPaused(_ params: CDPValue) -> CDPValue {
            .object(["method": .string("Fetch.requestPaused"), "params": params])
        }

        /// A `Fetch.requestPaused` whose request cannot be read (a URL that is a number) is failed at
        /// once with its `requestId`, and counted: the page's request never hangs.
        @Test func anUndecodableRequestPausedFailsAtOnce() async throws {
            let (adapter, connection, transport) = try await Self.adapter()
            connection.receive(
                Self.requestPaused(
                    .object(["requestId": .string("interception-job-7.0"), "request": .object(["url": .int(5)])])))
            let failed = await eventually {
                transport.sent("Fetch.failRequest").contains {
                    $0["params"]?["requestId"]?.stringValue == "interception-job-7.0"
                }
            }
            #expect(failed, "no Fetch.failRequest for the malformed event")
            #expect(adapter.undecodablePausedEvents == 1)
            #expect(adapter.statistics.failed == 1)
            #expect(adapter.statistics.malformedEvents == 1, "counted as on Firefox")
            #expect(adapter.statistics.inFlight == 0)
            // Without a readable requestId nothing can be failed, but the event is still counted.
            connection.receive(Self.requestPaused(.object(["requestId": .int(3)])))
            #expect(await eventually { adapter.undecodablePausedEvents == 2 })
            #expect(transport.sent("Fetch.failRequest").count == 1)
            await adapter.stop()
        }

        static func validRequest(_ id: String) -> CDPValue {
            requestPaused(
                .object([
                    "requestId": .string(id), "frameId": .string("frame"), "resourceType": .string("Document"),
                    "request": .object([
                        "url": .string("https://app.localhost/\(id).html"), "method": .string("GET"),
                        "headers": .object(["Accept": .string("text/html")]),
                    ]),
                ]))
        }

        /// A record sequence nobody reads holds only its limit: the oldest go, counted in the statistics.
        @Test func aRecordSequenceDropsItsOldestPastTheLimit() async throws {
            let (adapter, connection, transport) = try await Self.adapter()
            let records = adapter.records(bufferLimit: 2)
            for index in 0..<5 { connection.receive(Self.validRequest("r\(index)")) }
            #expect(await eventually { adapter.statistics.answered == 5 })
            #expect(transport.sent("Fetch.fulfillRequest").count == 5)
            #expect(adapter.statistics.droppedRecords == 3)
            var urls: [String] = []
            for await record in records {
                urls.append(record.url)
                if urls.count == 2 { break }
            }
            #expect(Set(urls).count == 2)
            await adapter.stop()
        }

        /// Stopping the adapter ends every record sequence after the records of the requests it
        /// stopped: a reader's `for await` returns instead of waiting for an adapter that is gone.
        @Test func stoppingTheAdapterEndsItsRecordSequences() async throws {
            let hanging = ClosureHandler(name: "hanging") { _, _ in
                try await Task.sleep(for: .seconds(3600))  // a handler that hangs until stopped
                return .handled
            }
            let (adapter, connection, _) = try await Self.adapter(handler: hanging)
            let records = adapter.records()
            connection.receive(Self.validRequest("held"))
            #expect(await eventually { adapter.statistics.inFlight == 1 })
            await adapter.stop()
            let (read, ended) = await readToEnd(records, within: .seconds(30))
            #expect(ended, "the sequence did not end")
            #expect(read.map(\.url) == ["https://app.localhost/held.html"])
            #expect(read.first?.outcome == .stopped(reason: .adapterStopped))
            #expect(adapter.statistics.stopped == 1)
        }

        /// How the browser ends a held request.
        enum Ending: String, CaseIterable {
            case pageCancels, targetDestroyed, timeout, adapterStops
        }

        /// Each way a held request ends is recorded with its `StopReason`, the same names Firefox
        /// and WebKitGTK use, and counted under `stopped` and its own counter.
        @Test(arguments: Ending.allCases)
        func aHeldRequestEndsWithItsStopReason(_ ending: Ending) async throws {
            let hanging = ClosureHandler(name: "hanging") { _, _ in
                try await Task.sleep(for: .seconds(3600))  // a handler that hangs until stopped
                return .handled
            }
            let (adapter, connection, transport) = try await Self.adapter(
                handler: hanging, requestTimeout: ending == .timeout ? .milliseconds(200) : .seconds(60))
            let records = adapter.records()
            connection.receive(
                Self.requestPaused(
                    .object([
                        "requestId": .string("held"), "frameId": .string("frame"), "networkId": .string("net-1"),
                        "resourceType": .string("Fetch"),
                        "request": .object([
                            "url": .string("https://app.localhost/held"), "method": .string("GET"),
                            "headers": .object([:]),
                        ]),
                    ])))
            #expect(await eventually { adapter.statistics.inFlight == 1 })
            switch ending {
            case .pageCancels:
                connection.receive(
                    .object([
                        "method": .string("Network.loadingFailed"),
                        "params": .object(["requestId": .string("net-1"), "canceled": .bool(true)]),
                    ]))
            case .targetDestroyed:
                connection.receive(
                    .object([
                        "method": .string("Target.targetDestroyed"), "params": .object(["targetId": .string("frame")]),
                    ]))
            case .timeout:
                break
            case .adapterStops:
                await adapter.stop()
            }
            let stopped = await records.first { _ in true }
            let expected: SchemeRequestRecord.StopReason =
                switch ending {
                case .pageCancels: .canceledByPage
                case .targetDestroyed: .pageClosed
                case .timeout: .timedOut
                case .adapterStops: .adapterStopped
                }
            #expect(stopped?.outcome == .stopped(reason: expected))
            let statistics = adapter.statistics
            #expect(statistics.stopped == 1)
            #expect(statistics.inFlight == 0)
            #expect(statistics.canceledByPage == (expected == .canceledByPage ? 1 : 0), "\(statistics)")
            #expect(statistics.pageClosed == (expected == .pageClosed ? 1 : 0), "\(statistics)")
            #expect(statistics.timedOut == (expected == .timedOut ? 1 : 0), "\(statistics)")
            // Only a timeout tells Chromium (the page's request fails with TimedOut).
            let told: @Sendable () -> [String?] = {
                transport.sent("Fetch.failRequest").map { $0["params"]?["errorReason"]?.stringValue }
            }
            if ending == .timeout {
                #expect(await eventually { told() == ["TimedOut"] }, "\(told())")
            } else {
                #expect(told().isEmpty)
            }
            if ending != .adapterStops { await adapter.stop() }
        }

        struct CatalogueUnavailable: Error, Equatable {}

        /// A handler that throws fails the page's request (`Fetch.failRequest`), and the record
        /// holds the handler's own error, as on WebKitGTK: not an engine error about it.
        @Test func aHandlerThatThrowsFailsTheRequestWithItsOwnError() async throws {
            let failing = ClosureHandler(name: "failing") { _, _ in throw CatalogueUnavailable() }
            let (adapter, connection, transport) = try await Self.adapter(handler: failing)
            let records = adapter.records()
            connection.receive(Self.validRequest("fails"))
            let failed = await records.first { _ in true }
            #expect(failed?.outcome == .failed)
            #expect(
                failed?.error as? CatalogueUnavailable == CatalogueUnavailable(), "\(String(describing: failed?.error))"
            )
            #expect(adapter.statistics.failed == 1)
            #expect(adapter.statistics.bodyTooLarge == 0)
            #expect(await eventually { transport.sent("Fetch.failRequest").count == 1 })
            await adapter.stop()
        }

        /// An answer the transport refuses to send (a WebSocket's message limit, past the adapter's
        /// own estimate) fails the request in Chromium, so the page does not wait for it, and is
        /// recorded and counted as `bodyTooLarge`.
        @Test func anAnswerTheTransportRefusesFailsTheRequest() async throws {
            let (adapter, connection, transport) = try await Self.adapter()
            transport.refuse(
                "Fetch.fulfillRequest", with: EngineError(.bodyTooLarge, "message over the WebSocket's limit"))
            let records = adapter.records()
            connection.receive(Self.validRequest("refused"))
            let failed = await records.first { _ in true }
            #expect(failed?.outcome == .failed)
            #expect((failed?.error as? EngineError)?.code == .bodyTooLarge, "\(String(describing: failed?.error))")
            #expect(adapter.statistics.failed == 1)
            #expect(adapter.statistics.bodyTooLarge == 1)
            #expect(adapter.statistics.inFlight == 0)
            let failRequests = await eventually {
                transport.sent("Fetch.failRequest").contains { $0["params"]?["requestId"]?.stringValue == "refused" }
            }
            #expect(failRequests, "the page's request was left waiting")
            await adapter.stop()
        }

        /// Over CBOR a body is held whole per request: by default at most 32 MiB, and the request
        /// failing past it says which setting raises the limit.
        @Test func aCBORBodyOver32MiBFailsNamingTheSetting() async throws {
            #expect(ChromiumAdapterConfiguration().maximumCBORBodySize == 32 << 20)
            let big = ClosureHandler(name: "big") { _, writer in
                try await writer.respond(SchemeResponse(status: .ok), body: Data(count: (32 << 20) + 1))
                return .handled
            }
            let (adapter, connection, transport) = try await Self.adapter(wireFormat: .cbor, handler: big)
            let records = adapter.records()
            connection.receive(Self.validRequest("big"))
            var failure: EngineError?
            for await record in records {
                if record.outcome == .failed { failure = record.error as? EngineError }
                break
            }
            #expect(failure?.code == .bodyTooLarge)
            #expect(
                failure?.message.contains("ChromiumAdapterConfiguration.maximumCBORBodySize") == true,
                "\(String(describing: failure))")
            #expect(adapter.statistics.bodyTooLarge == 1)
            #expect(await eventually { transport.sent("Fetch.failRequest").count == 1 })
            #expect(transport.sent("Fetch.fulfillRequest").isEmpty)
            await adapter.stop()
        }
    }
#endif
