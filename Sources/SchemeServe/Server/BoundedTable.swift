// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    /// A dictionary that holds at most ``byteLimit`` bytes of values and ``countLimit`` entries:
    /// one value may take an eighth of the bytes at most (a larger one is not kept), and a store
    /// that would pass either limit starts over from empty (what it holds is cheap to make again).
    /// A plain value; its owner confines it.
    struct BoundedTable<Key: Hashable, Value> {
        /// The most bytes of values held.
        let byteLimit: Int
        /// The most values held.
        let countLimit: Int
        /// The bytes a value holds.
        private let size: (Value) -> Int
        private var values: [Key: Value] = [:]
        private var bytes = 0

        init(byteLimit: Int, countLimit: Int, size: @escaping (Value) -> Int) {
            self.byteLimit = byteLimit
            self.countLimit = countLimit
            self.size = size
        }

        subscript(key: Key) -> Value? { values[key] }

        /// Keeps `value` under `key` (see the type's discussion for when it is not kept).
        mutating func store(_ value: Value, for key: Key) {
            let added = size(value)
            guard added <= byteLimit / 8 else { return }
            if bytes + added > byteLimit || values.count >= countLimit {
                values.removeAll(keepingCapacity: true)
                bytes = 0
            }
            if let old = values.updateValue(value, forKey: key) { bytes -= size(old) }
            bytes += added
        }

        /// Forgets the value under `key`.
        mutating func remove(_ key: Key) {
            if let old = values.removeValue(forKey: key) { bytes -= size(old) }
        }
    }
#endif
