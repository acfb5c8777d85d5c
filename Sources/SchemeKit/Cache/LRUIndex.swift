/// Values by key in least-recently-used order, with O(1) lookup, touch, insert and removal.
///
/// A doubly linked list threaded through a dictionary: each node names its older and newer
/// neighbour by key. A plain value type with no locking; the storages keep it behind a `Locked`.
struct LRUIndex<Key: Hashable, Value> {
    fileprivate struct Node {
        var value: Value
        var older: Key?
        var newer: Key?
    }

    private var nodes: [Key: Node] = [:]
    /// The least recently used key.
    private(set) var oldest: Key?
    /// The most recently used key.
    private(set) var newest: Key?

    /// The number of entries.
    var count: Int { nodes.count }

    /// The value for `key`, without changing its position.
    subscript(key: Key) -> Value? {
        nodes[key]?.value
    }

    /// Inserts or replaces the value for `key` and makes it the most recently used.
    mutating func set(_ value: Value, forKey key: Key) {
        if nodes[key] != nil {
            nodes[key]!.value = value
            touch(key)
        } else {
            nodes[key] = Node(value: value, older: newest, newer: nil)
            if let newest { nodes[newest]!.newer = key }
            newest = key
            if oldest == nil { oldest = key }
        }
    }

    /// Changes the value for `key` in place, without changing its position.
    mutating func update(_ key: Key, _ body: (inout Value) -> Void) {
        guard nodes[key] != nil else { return }
        body(&nodes[key]!.value)
    }

    /// Makes `key` the most recently used; returns its value.
    @discardableResult
    mutating func touch(_ key: Key) -> Value? {
        guard let node = nodes[key] else { return nil }
        guard newest != key else { return node.value }
        unlink(key, node)
        nodes[key] = Node(value: node.value, older: newest, newer: nil)
        if let newest { nodes[newest]!.newer = key }
        newest = key
        if oldest == nil { oldest = key }
        return node.value
    }

    /// Removes `key`; returns its value.
    @discardableResult
    mutating func remove(_ key: Key) -> Value? {
        guard let node = nodes[key] else { return nil }
        unlink(key, node)
        nodes[key] = nil
        return node.value
    }

    /// Removes everything.
    mutating func removeAll() {
        nodes = [:]
        oldest = nil
        newest = nil
    }

    /// Every key and value, least recently used first.
    var entriesOldestFirst: [(key: Key, value: Value)] {
        var result: [(key: Key, value: Value)] = []
        result.reserveCapacity(nodes.count)
        var cursor = oldest
        while let key = cursor, let node = nodes[key] {
            result.append((key, node.value))
            cursor = node.newer
        }
        return result
    }

    private mutating func unlink(_ key: Key, _ node: Node) {
        if let older = node.older { nodes[older]!.newer = node.newer } else { oldest = node.newer }
        if let newer = node.newer { nodes[newer]!.older = node.older } else { newest = node.older }
    }
}

extension LRUIndex: Sendable where Key: Sendable, Value: Sendable {}
extension LRUIndex.Node: Sendable where Key: Sendable, Value: Sendable {}
