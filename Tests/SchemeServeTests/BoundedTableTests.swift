// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import Testing

    @testable import SchemeServe

    /// The server's per-loop caches never hold more than their limits.
    struct BoundedTableTests {
        @Test func aTableStaysWithinItsLimits() {
            var table = BoundedTable<Int, [UInt8]>(byteLimit: 80, countLimit: 3, size: \.count)
            table.store([UInt8](repeating: 0, count: 11), for: 0)
            #expect(table[0] == nil, "over an eighth of the bytes: not kept")
            for key in 1...3 { table.store([UInt8](repeating: 0, count: 10), for: key) }
            #expect((1...3).allSatisfy { table[$0] != nil })
            table.store([UInt8](repeating: 1, count: 10), for: 4)
            #expect(table[4] != nil)
            #expect((1...3).allSatisfy { table[$0] == nil }, "full: it started over")
            table.store([UInt8](repeating: 2, count: 10), for: 4)
            #expect(table[4] == [UInt8](repeating: 2, count: 10), "a new value replaces the old one")
            table.remove(4)
            #expect(table[4] == nil)
        }
    }
#endif
