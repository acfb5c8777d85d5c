import Foundation
import Synchronization

extension MemoryStorage {
    /// Values in memory, by key, least recently used evicted first.
    ///
    /// ## Contract
    /// - After ``store(_:forKey:expiration:)`` the total cost is at most
    ///   ``Config/totalCostLimit`` and the count at most ``Config/countLimit``: the least
    ///   recently used entries (a lookup counts as a use) are evicted to make room.
    /// - An expired entry is never returned; it is dropped when looked up, when room is needed,
    ///   and by ``removeExpired()``. No timer runs: the library owns no background work.
    /// - Thread-safe: every method may be called from any thread; each takes a short lock.
    ///
    /// Time comes from `C`, so tests drive expiry with a manual clock instead of sleeping.
    package final class Backend<Value: CacheCostCalculable, C: Clock>: Sendable where C.Duration == Duration {
        struct Entry {
            var value: Value
            var cost: Int
            var expiresAt: Date?
        }

        struct State {
            var entries = LRUIndex<String, Entry>()
            var totalCost = 0
        }

        /// The limits this backend enforces.
        package let config: Config
        let time: CacheTimeSource<C>
        private let state = Locked(State())

        /// Creates an empty memory tier.
        ///
        /// - Parameters:
        ///   - config: Limits and the default expiration. Default: ``Config/init(totalCostLimit:countLimit:expiration:)``.
        ///   - clock: The clock expiry is measured with.
        package init(config: Config = Config(), clock: C) {
            self.config = config
            self.time = CacheTimeSource(clock: clock)
        }

        /// Stores `value` for `key`, replacing any previous value, and evicts what no longer fits.
        ///
        /// - Parameters:
        ///   - value: The value; not stored when it alone costs more than ``Config/totalCostLimit``
        ///     (a previous value for `key` is removed then).
        ///   - key: The key.
        ///   - expiration: When the entry expires. Default: ``Config/expiration``.
        package func store(_ value: Value, forKey key: String, expiration: CacheExpiration? = nil) {
            let now = time.now()
            let expiresAt = (expiration ?? config.expiration).expiryDate(storedAt: now)
            let cost = max(0, value.cacheCost)
            // Values are released outside the lock: deallocating large buffers takes time.
            var evicted: [Entry] = []
            state.withLock { state in
                if let old = state.entries.remove(key) {
                    state.totalCost -= old.cost
                    evicted.append(old)
                }
                guard cost <= config.totalCostLimit, config.countLimit > 0 else { return }
                state.entries.set(Entry(value: value, cost: cost, expiresAt: expiresAt), forKey: key)
                state.totalCost += cost
                evictIfNeeded(&state, now: now, evicted: &evicted)
            }
            _ = evicted
        }

        /// The value for `key`, or `nil` when absent or expired. A hit makes the entry the most
        /// recently used.
        package func value(forKey key: String) -> Value? {
            entry(forKey: key)?.value
        }

        /// The value for `key` with its expiry date; a hit makes it the most recently used.
        func entry(forKey key: String) -> (value: Value, expiresAt: Date?)? {
            let now = time.now()
            return state.withLock { state -> (value: Value, expiresAt: Date?)? in
                guard let entry = state.entries[key] else { return nil }
                if let expiresAt = entry.expiresAt, expiresAt <= now {
                    state.entries.remove(key)
                    state.totalCost -= entry.cost
                    return nil
                }
                state.entries.touch(key)
                return (entry.value, entry.expiresAt)
            }
        }

        /// Whether a live (unexpired) value exists for `key`; does not count as a use.
        package func contains(_ key: String) -> Bool {
            let now = time.now()
            return state.withLock { state in
                guard let entry = state.entries[key] else { return false }
                return entry.expiresAt.map { $0 > now } ?? true
            }
        }

        /// Removes the value for `key`, if any.
        package func remove(forKey key: String) {
            let removed = state.withLock { state -> Entry? in
                guard let old = state.entries.remove(key) else { return nil }
                state.totalCost -= old.cost
                return old
            }
            _ = removed
        }

        /// Removes every value (on memory pressure, for instance).
        package func removeAll() {
            let old = state.withLock { state -> LRUIndex<String, Entry> in
                defer {
                    state.entries.removeAll()
                    state.totalCost = 0
                }
                return state.entries
            }
            _ = old
        }

        /// Removes every expired value.
        ///
        /// - Returns: The number of values removed.
        @discardableResult
        package func removeExpired() -> Int {
            let now = time.now()
            return state.withLock { state in
                var removed = 0
                for (key, entry) in state.entries.entriesOldestFirst {
                    if let expiresAt = entry.expiresAt, expiresAt <= now {
                        state.entries.remove(key)
                        state.totalCost -= entry.cost
                        removed += 1
                    }
                }
                return removed
            }
        }

        /// The total cost of the values held, in bytes (expired values not yet dropped included).
        package var totalSize: Int { state.withLock { $0.totalCost } }

        /// The number of values held (expired values not yet dropped included).
        package var count: Int { state.withLock { $0.entries.count } }

        private func evictIfNeeded(_ state: inout State, now: Date, evicted: inout [Entry]) {
            guard state.totalCost > config.totalCostLimit || state.entries.count > config.countLimit else { return }
            // Expired entries go first, then the least recently used.
            for (key, entry) in state.entries.entriesOldestFirst {
                if let expiresAt = entry.expiresAt, expiresAt <= now {
                    state.entries.remove(key)
                    state.totalCost -= entry.cost
                    evicted.append(entry)
                }
            }
            while state.totalCost > config.totalCostLimit || state.entries.count > config.countLimit,
                let oldest = state.entries.oldest, let entry = state.entries.remove(oldest)
            {
                state.totalCost -= entry.cost
                evicted.append(entry)
            }
        }
    }
}
