/// String-keyed entries in document order, with keyed look-up.
///
/// OpenAPI maps (paths, properties, responses, components) are ordered in the
/// file, and generated code must follow that order to be deterministic, so
/// the model never uses `Dictionary` for them.
public struct OrderedMap<Value> {
    /// The keys, in order.
    public private(set) var keys: [String] = []
    /// The values, in the order of `keys`.
    public private(set) var values: [Value] = []
    private var positions: [String: Int] = [:]

    /// An empty map.
    public init() {}

    /// The number of entries.
    public var count: Int { keys.count }
    /// Whether there are no entries.
    public var isEmpty: Bool { keys.isEmpty }

    /// The value for `key`; setting appends a new key or replaces the value in place.
    public subscript(key: String) -> Value? {
        get { positions[key].map { values[$0] } }
        set {
            if let position = positions[key] {
                if let newValue {
                    values[position] = newValue
                } else {
                    keys.remove(at: position)
                    values.remove(at: position)
                    positions = Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, $0) })
                }
            } else if let newValue {
                positions[key] = keys.count
                keys.append(key)
                values.append(newValue)
            }
        }
    }
}

extension OrderedMap: Sendable where Value: Sendable {}
extension OrderedMap: Equatable where Value: Equatable {
    /// Equal when the same keys map to equal values in the same order.
    public static func == (lhs: OrderedMap, rhs: OrderedMap) -> Bool { lhs.keys == rhs.keys && lhs.values == rhs.values }
}
extension OrderedMap: Hashable where Value: Hashable {
    /// Hashes keys and values in order.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(keys)
        hasher.combine(values)
    }
}

extension OrderedMap: Sequence {
    /// Iterates `(key, value)` pairs in document order.
    public func makeIterator() -> AnyIterator<(key: String, value: Value)> {
        var index = 0
        return AnyIterator {
            guard index < keys.count else { return nil }
            defer { index += 1 }
            return (key: keys[index], value: values[index])
        }
    }
}
