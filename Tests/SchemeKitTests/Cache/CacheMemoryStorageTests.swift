import Foundation
import Testing

@testable import SchemeKit

struct CacheMemoryStorageTests {
    private func makeStorage(cost: Int = 1000, count: Int = 100) -> (
        MemoryStorage.Backend<Data, CacheTestClock>, CacheTestClock
    ) {
        let clock = CacheTestClock()
        let config = MemoryStorage.Config(totalCostLimit: cost, countLimit: count, expiration: .never)
        return (MemoryStorage.Backend(config: config, clock: clock), clock)
    }

    @Test func defaultsAreDocumented() {
        let config = MemoryStorage.Config()
        #expect(config.totalCostLimit == 64 * 1024 * 1024)
        #expect(config.countLimit == 512)
        #expect(config.expiration == .after(.seconds(300)))
    }

    @Test func storesAndReturnsValues() {
        let (memory, _) = makeStorage()
        memory.store(testBytes(10), forKey: "a")
        #expect(memory.value(forKey: "a") == testBytes(10))
        #expect(memory.value(forKey: "b") == nil)
        #expect(memory.totalSize == 10)
        memory.store(testBytes(20, seed: 2), forKey: "a")
        #expect(memory.value(forKey: "a") == testBytes(20, seed: 2))
        #expect(memory.totalSize == 20)
        memory.remove(forKey: "a")
        #expect(memory.value(forKey: "a") == nil)
        #expect(memory.totalSize == 0)
    }

    @Test func evictsLeastRecentlyUsedByCost() {
        let (memory, _) = makeStorage(cost: 300)
        memory.store(testBytes(100), forKey: "a")
        memory.store(testBytes(100), forKey: "b")
        memory.store(testBytes(100), forKey: "c")
        _ = memory.value(forKey: "a")  // "b" is now the least recently used
        memory.store(testBytes(100), forKey: "d")
        #expect(memory.value(forKey: "b") == nil)
        #expect(memory.value(forKey: "a") != nil)
        #expect(memory.value(forKey: "c") != nil)
        #expect(memory.value(forKey: "d") != nil)
        #expect(memory.totalSize == 300)
        // One large value pushes out as many as needed.
        memory.store(testBytes(250), forKey: "big")
        #expect(memory.count == 1)
        #expect(memory.totalSize == 250)
    }

    @Test func evictsLeastRecentlyUsedByCount() {
        let (memory, _) = makeStorage(count: 3)
        for key in ["a", "b", "c"] { memory.store(testBytes(1), forKey: key) }
        _ = memory.value(forKey: "a")
        memory.store(testBytes(1), forKey: "d")
        #expect(memory.count == 3)
        #expect(memory.value(forKey: "b") == nil)
        #expect(memory.value(forKey: "a") != nil)
    }

    @Test func refusesAValueLargerThanTheLimit() {
        let (memory, _) = makeStorage(cost: 100)
        memory.store(testBytes(50), forKey: "a")
        memory.store(testBytes(101), forKey: "a")
        #expect(memory.value(forKey: "a") == nil)
        #expect(memory.totalSize == 0)
    }

    @Test func expiresWithTheClock() {
        let (memory, clock) = makeStorage()
        memory.store(testBytes(10), forKey: "short", expiration: .seconds(10))
        memory.store(testBytes(10), forKey: "dated", expiration: .date(Date().addingTimeInterval(100)))
        memory.store(testBytes(10), forKey: "forever", expiration: .never)
        clock.advance(by: .seconds(9))
        #expect(memory.value(forKey: "short") != nil)
        clock.advance(by: .seconds(2))
        #expect(memory.value(forKey: "short") == nil)
        #expect(memory.value(forKey: "dated") != nil)
        clock.advance(by: .seconds(100))
        #expect(memory.contains("dated") == false)
        #expect(memory.removeExpired() == 1)
        #expect(memory.value(forKey: "forever") != nil)
        #expect(memory.totalSize == 10)
    }

    @Test func removeAllEmptiesTheTier() {
        let (memory, _) = makeStorage()
        for key in ["a", "b"] { memory.store(testBytes(5), forKey: key) }
        memory.removeAll()
        #expect(memory.count == 0)
        #expect(memory.totalSize == 0)
        #expect(memory.value(forKey: "a") == nil)
    }

    @Test func lruIndexKeepsOrderThroughTouchAndRemove() {
        var index = LRUIndex<String, Int>()
        for (value, key) in ["a", "b", "c", "d"].enumerated() { index.set(value, forKey: key) }
        index.touch("b")
        index.remove("c")
        index.touch("a")
        index.set(9, forKey: "d")
        #expect(index.entriesOldestFirst.map(\.key) == ["b", "a", "d"])
        #expect(index.oldest == "b")
        #expect(index.newest == "d")
        #expect(index["d"] == 9)
        index.remove("b")
        index.remove("d")
        #expect(index.oldest == "a")
        #expect(index.newest == "a")
    }
}
