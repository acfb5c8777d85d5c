#if Firefox
    import Foundation
    import SchemeKit

    /// The engine side of one held request: collects the head and the body, then hands them to the
    /// adapter (BiDi has no streaming answer).
    ///
    /// Runs inline under the task's lock, so it only records; anything that stops the task is done
    /// by the adapter off that lock.
    struct ProvideResponseSink: SchemeTaskSink {
        let adapter: FirefoxSchemeAdapter
        let requestId: String
        let limit: Int
        let receivesPassed: Bool
        private let collected = Locked(Collected())

        struct Collected {
            var head: SchemeResponse?
            var body = Data()
            var overflowed = false
        }

        init(adapter: FirefoxSchemeAdapter, requestId: String, limit: Int) {
            self.adapter = adapter
            self.requestId = requestId
            self.limit = limit
            self.receivesPassed = adapter.configuration.whenPassed != .notFound
        }

        func receive(_ response: SchemeResponse) {
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
            if tooLarge { overflow(response.expectedContentLength.map { Int(clamping: $0) } ?? limit + 1) }
        }

        func receive(_ body: SchemeBody) {
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
            if let size { overflow(size) }
        }

        func finish() {
            let (head, body, overflowed) = collected.withLock { collected in
                defer { collected.body = Data() }
                return (collected.head, collected.body, collected.overflowed)
            }
            guard !overflowed else { return }
            adapter.complete(requestId, response: head ?? SchemeResponse(status: .ok), body: body)
        }

        /// Every handler passed (only when the pass policy is not the registry's 404).
        func passed() {
            adapter.passed(requestId)
        }

        func fail(_ error: any Error) {
            let overflowed = collected.withLock { $0.overflowed }
            guard !overflowed else { return }
            adapter.failRequest(requestId, error: FirefoxError(.protocolError, "handler failed: \(error)"))
        }

        private func overflow(_ size: Int) {
            adapter.failRequest(requestId, error: FirefoxError(.bodyTooLarge, adapter.bodyTooLargeMessage(size)))
        }
    }
#endif
