/// An engine adapter's feed of ``SchemeRequestRecord``s: every subscriber gets each record
/// published after it subscribed, and no request ever waits for a reader.
///
/// Contract: ``subscribe(bufferLimit:)`` buffers at most `bufferLimit` unread records per
/// subscriber, dropping the oldest; ``publish(_:)`` returns how many subscribers dropped one for
/// it. A subscription ends when its reader stops iterating (or its task is cancelled).
package final class SchemeRequestRecordFeed: Sendable {
    /// Collects the records published while it is registered, as they are published (no
    /// buffer, nothing dropped): what a render reports of its own requests.
    package final class Collector: Sendable {
        fileprivate let records = Locked<[SchemeRequestRecord]>([])

        /// The records collected so far, in the order they were published.
        package var collected: [SchemeRequestRecord] { records.withLock { $0 } }
    }

    private struct Subscribers {
        var byKey: [Int: AsyncStream<SchemeRequestRecord>.Continuation] = [:]
        var nextKey = 0
        var collectors: [ObjectIdentifier: Collector] = [:]
    }

    private let subscribers = Locked(Subscribers())

    /// Creates a feed with no subscriber.
    package init() {}

    /// A new subscription to the records published from now on, holding at most `bufferLimit`
    /// unread (at least 1).
    package func subscribe(bufferLimit: Int) -> AsyncStream<SchemeRequestRecord> {
        let (stream, continuation) = AsyncStream<SchemeRequestRecord>.makeStream(
            bufferingPolicy: .bufferingNewest(max(1, bufferLimit)))
        let key = subscribers.withLock { subscribers in
            defer { subscribers.nextKey += 1 }
            subscribers.byKey[subscribers.nextKey] = continuation
            return subscribers.nextKey
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.subscribers.withLock { $0.byKey.removeValue(forKey: key) }
        }
        return stream
    }

    /// Starts collecting the records published from now on, until ``stopCollecting(_:)``.
    package func startCollecting() -> Collector {
        let collector = Collector()
        subscribers.withLock { $0.collectors[ObjectIdentifier(collector)] = collector }
        return collector
    }

    /// Stops `collector` and returns what it collected.
    package func stopCollecting(_ collector: Collector) -> [SchemeRequestRecord] {
        _ = subscribers.withLock { $0.collectors.removeValue(forKey: ObjectIdentifier(collector)) }
        return collector.collected
    }

    /// Sets `record`'s duration (from its start to now), then yields it to every subscriber and
    /// appends it to every collector; returns how many full buffers dropped their oldest record
    /// for it.
    @discardableResult
    package func publish(_ record: SchemeRequestRecord) -> Int {
        var record = record
        record.duration = .now - record.started
        let (continuations, collectors) = subscribers.withLock { (Array($0.byKey.values), Array($0.collectors.values)) }
        for collector in collectors { collector.records.withLock { $0.append(record) } }
        var dropped = 0
        for continuation in continuations {
            if case .dropped = continuation.yield(record) { dropped += 1 }
        }
        return dropped
    }

    /// Ends every subscription: each reader gets the records it has not read yet, then the end.
    package func finish() {
        let continuations = subscribers.withLock { subscribers in
            defer { subscribers.byKey = [:] }
            return Array(subscribers.byKey.values)
        }
        for continuation in continuations { continuation.finish() }
    }
}
