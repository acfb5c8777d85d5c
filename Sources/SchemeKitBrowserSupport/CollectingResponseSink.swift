#if Chromium || Firefox
    import Foundation
    package import SchemeKit

    /// The engine side of one request a browser holds: collects the head and the body up to a limit,
    /// then hands them to the adapter (``CollectedResponseReceiver``), which answers the browser in
    /// one message (CDP's `Fetch.fulfillRequest`, BiDi's `network.provideResponse`).
    ///
    /// Contract: runs inline under the task's lock, so it only records; anything that stops the task
    /// is done by the receiver off that lock. A declared length (`expectedContentLength`) or a body
    /// over `limit` fails the request once (``CollectedResponseReceiver/failRequest(_:bodyTooLarge:)``),
    /// drops what was collected, and ignores everything after it, the task's failure included.
    package struct CollectingResponseSink<Receiver: CollectedResponseReceiver>: SchemeTaskSink {
        /// The adapter that answers the browser.
        package let receiver: Receiver
        /// The browser's id of the request.
        package let requestId: String
        /// The largest body, in bytes, one message to the browser can carry.
        package let limit: Int
        /// The receiver's ``CollectedResponseReceiver/receivesPassedRequests``, read once.
        package let receivesPassed: Bool
        private let collected = Locked(Collected())

        private struct Collected {
            var head: SchemeResponse?
            var body = Data()
            var overflowed = false
        }

        /// A sink for `requestId` that collects at most `limit` bytes of body.
        package init(receiver: Receiver, requestId: String, limit: Int) {
            self.receiver = receiver
            self.requestId = requestId
            self.limit = limit
            self.receivesPassed = receiver.receivesPassedRequests
        }

        /// Keeps the head; a declared length over `limit` fails the request at once.
        package func receive(_ response: SchemeResponse) {
            let tooLarge = collected.withLock { collected in
                collected.head = response
                if let length = response.expectedContentLength, length > Int64(limit) {
                    collected.overflowed = true
                    return true
                }
                if let length = response.expectedContentLength, length > 0 {
                    collected.body.reserveCapacity(Int(length))
                }
                return false
            }
            if tooLarge {
                receiver.failRequest(
                    requestId, bodyTooLarge: response.expectedContentLength.map { Int(clamping: $0) } ?? limit + 1)
            }
        }

        /// Appends a chunk; the chunk that takes the body over `limit` fails the request and drops it.
        package func receive(_ body: SchemeBody) {
            let size: Int? = collected.withLock { collected in
                guard !collected.overflowed else { return nil }
                guard collected.body.count + body.count <= limit else {
                    collected.overflowed = true
                    let size = collected.body.count + body.count
                    collected.body = Data()
                    return size
                }
                body.withUnsafeBytes { collected.body.append(contentsOf: $0) }
                return nil
            }
            if let size { receiver.failRequest(requestId, bodyTooLarge: size) }
        }

        /// Hands the head (200 when none was written) and the body to the receiver, unless over the limit.
        package func finish() {
            let (head, body, overflowed) = collected.withLock { collected in
                defer { collected.body = Data() }
                return (collected.head, collected.body, collected.overflowed)
            }
            guard !overflowed else { return }
            receiver.complete(requestId, response: head ?? SchemeResponse(status: .ok), body: body)
        }

        /// Every handler passed (only when the pass policy is not the registry's 404).
        package func passed() {
            receiver.passed(requestId)
        }

        /// Fails the request with the handler's error, unless it already failed for its size.
        package func fail(_ error: any Error) {
            let overflowed = collected.withLock { $0.overflowed }
            guard !overflowed else { return }
            receiver.failRequest(requestId, handlerError: error)
        }
    }
#endif
