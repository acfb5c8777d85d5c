#if Chromium
    import Foundation
    import SchemeKit

    /// The engine side of one paused request: collects the head and the body, then hands them to
    /// the adapter (CDP has no streaming fulfil).
    ///
    /// Runs inline under the task's lock, so it only records; anything that stops the task is done
    /// by the adapter off that lock.
    struct FetchResponseSink: SchemeTaskSink {
        let adapter: ChromiumSchemeAdapter
        let requestId: String
        let limit: Int
        let receivesPassed: Bool
        private let collected = Locked(Collected())

        struct Collected {
            var head: SchemeResponse?
            var body = Data()
            var overflowed = false
        }

        init(adapter: ChromiumSchemeAdapter, requestId: String, limit: Int) {
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
                return false
            }
            if tooLarge { overflow(response.expectedContentLength.map(Int.init) ?? limit + 1) }
        }

        func receive(_ body: SchemeBody) {
            let data = body.data
            let size: Int? = collected.withLock { collected in
                guard !collected.overflowed else { return nil }
                guard collected.body.count + data.count <= limit else {
                    collected.overflowed = true
                    collected.body = Data()
                    return collected.body.count + data.count
                }
                collected.body.append(data)
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
            adapter.failRequest(
                requestId, reason: "Failed", error: ChromiumError(.protocolError, "handler failed: \(error)"))
        }

        private func overflow(_ size: Int) {
            adapter.failRequest(
                requestId, reason: "Failed", error: ChromiumError(.bodyTooLarge, adapter.bodyTooLargeMessage(size)))
        }
    }
#endif
