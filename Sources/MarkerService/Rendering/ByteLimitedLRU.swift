/// A least-recently-used map whose entries have a cost in bytes, never holding more than `capacity` bytes.
///
/// Entries live in an array and link to each other by index, so a lookup, an insert and each
/// eviction are O(1) without a node allocation per entry.
struct ByteLimitedLRU<Key: Hashable, Value> {
    fileprivate struct Node {
        var key: Key
        var value: Value
        var cost: Int
        var older: Int?
        var newer: Int?
    }

    /// The most bytes held at once.
    let capacity: Int
    /// Bytes held now.
    private(set) var totalCost = 0

    private var nodes: [Node?] = []
    private var freeSlots: [Int] = []
    private var slots: [Key: Int] = [:]
    private var newest: Int?
    private var oldest: Int?

    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    var count: Int { slots.count }

    /// The value for `key`, which becomes the most recently used.
    mutating func value(for key: Key) -> Value? {
        guard let slot = slots[key] else { return nil }
        moveToNewest(slot)
        return nodes[slot]!.value
    }

    /// Whether `key` is held, without making it more recent.
    func contains(_ key: Key) -> Bool {
        slots[key] != nil
    }

    /// Stores `value` as the most recently used and returns what was evicted to make room.
    ///
    /// A value larger than the whole capacity is not stored (it would evict everything and then itself).
    @discardableResult
    mutating func insert(_ value: Value, for key: Key, cost: Int) -> [(key: Key, value: Value)] {
        var evicted: [(key: Key, value: Value)] = []
        if let existing = slots[key] {
            _ = remove(slot: existing)  // replaced, not evicted
        }
        guard cost <= capacity else { return evicted }
        while totalCost + cost > capacity, let slot = oldest {
            evicted.append(remove(slot: slot))
        }
        let node = Node(key: key, value: value, cost: cost, older: newest, newer: nil)
        let slot: Int
        if let free = freeSlots.popLast() {
            nodes[free] = node
            slot = free
        } else {
            nodes.append(node)
            slot = nodes.count - 1
        }
        if let newest { nodes[newest]!.newer = slot }
        newest = slot
        if oldest == nil { oldest = slot }
        slots[key] = slot
        totalCost += cost
        return evicted
    }

    /// Keys from the most to the least recently used.
    var keysByRecency: [Key] {
        var keys: [Key] = []
        var cursor = newest
        while let slot = cursor {
            keys.append(nodes[slot]!.key)
            cursor = nodes[slot]!.older
        }
        return keys
    }

    private mutating func remove(slot: Int) -> (key: Key, value: Value) {
        let node = unlink(slot)
        nodes[slot] = nil
        freeSlots.append(slot)
        slots[node.key] = nil
        totalCost -= node.cost
        return (node.key, node.value)
    }

    private mutating func moveToNewest(_ slot: Int) {
        guard slot != newest else { return }
        var node = unlink(slot)
        node.older = newest
        node.newer = nil
        nodes[slot] = node
        if let newest { nodes[newest]!.newer = slot }
        newest = slot
        if oldest == nil { oldest = slot }
    }

    /// Takes the node at `slot` out of the recency chain, joining its neighbours.
    private mutating func unlink(_ slot: Int) -> Node {
        let node = nodes[slot]!
        if let older = node.older { nodes[older]!.newer = node.newer } else { oldest = node.newer }
        if let newer = node.newer { nodes[newer]!.older = node.older } else { newest = node.older }
        return node
    }
}

extension ByteLimitedLRU: Sendable where Key: Sendable, Value: Sendable {}
extension ByteLimitedLRU.Node: Sendable where Key: Sendable, Value: Sendable {}
