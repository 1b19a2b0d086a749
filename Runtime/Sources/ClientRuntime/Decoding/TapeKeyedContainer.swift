/// A JSON object read as a keyed container: keys are found by comparing
/// their UTF-8 bytes with the object's, starting where the last lookup
/// ended, so reading the properties in the order the server sent them
/// finds each at once and builds no dictionary.
struct TapeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: TapeDecoder
    /// The object's entry.
    let object: Int
    /// How much of the decoder's path is this container's.
    let depth: Int
    /// Keys of nested containers, after that part of the path.
    let extra: [any CodingKey]

    var codingPath: [any CodingKey] { decoder.path(depth: depth, extra: extra) }

    var allKeys: [Key] {
        let tape = decoder.tape
        var keys: [Key] = []
        var index = object + 1
        let end = Int(tape.entries[object].end)
        while index < end {
            if let name = tape.string(of: tape.entries[index]), let key = Key(stringValue: name) { keys.append(key) }
            index = Int(tape.entries[index + 1].end)
        }
        return keys
    }

    @_specialize(where Key == DynamicCodingKey)
    func contains(_ key: Key) -> Bool { find(key) != nil }

    /// The entry of `key`'s value, or nil when the object has no such key.
    @_specialize(where Key == DynamicCodingKey)
    func find(_ key: Key) -> Int? { find(named: key.stringValue) }

    /// The entry of the value of the key named `name`, searched from where
    /// the last lookup ended.
    private func find(named name: String) -> Int? {
        let tape = decoder.tape
        let first = object + 1
        let end = Int(tape.entries[object].end)
        guard first < end else { return nil }
        var name = name
        return name.withUTF8 { wanted -> Int? in
            let hint = Int(tape.hints[object])
            let start = hint > first && hint < end ? hint : first
            var index = start
            repeat {
                let value = index + 1
                let next = Int(tape.entries[value].end)
                if tape.string(of: tape.entries[index], equals: wanted) {
                    tape.hints[object] = UInt32(next)
                    return value
                }
                index = next < end ? next : first
            } while index != start
            return nil
        }
    }

    /// The entry of `key`'s value; throws `keyNotFound` when it is absent.
    private func value(for key: Key) throws -> Int {
        guard let index = find(key) else {
            throw DecodingError.keyNotFound(
                key, DecodingError.Context(codingPath: codingPath, debugDescription: "No value associated with key \(key.stringValue)."))
        }
        return index
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        decoder.isNull(try value(for: key))
    }

    @_specialize(where Key == DynamicCodingKey)
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        try decoder.bool(at: value(for: key), path: ValuePath(depth: depth, extra: extra, key: key))
    }

    @_specialize(where Key == DynamicCodingKey)
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        guard let index = find(key), !decoder.isNull(index) else { return nil }
        return try decoder.bool(at: index, path: ValuePath(depth: depth, extra: extra, key: key))
    }

    @_specialize(where Key == DynamicCodingKey)
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try decoder.string(at: value(for: key), path: ValuePath(depth: depth, extra: extra, key: key))
    }

    @_specialize(where Key == DynamicCodingKey)
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        guard let index = find(key), !decoder.isNull(index) else { return nil }
        return try decoder.string(at: index, path: ValuePath(depth: depth, extra: extra, key: key))
    }

    @_specialize(where Key == DynamicCodingKey)
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        try decoder.floatingPoint(Double.self, at: value(for: key), path: ValuePath(depth: depth, extra: extra, key: key))
    }

    @_specialize(where Key == DynamicCodingKey)
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        guard let index = find(key), !decoder.isNull(index) else { return nil }
        return try decoder.floatingPoint(Double.self, at: index, path: ValuePath(depth: depth, extra: extra, key: key))
    }

    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
        try decoder.float(at: value(for: key), path: ValuePath(depth: depth, extra: extra, key: key))
    }

    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
        guard let index = find(key), !decoder.isNull(index) else { return nil }
        return try decoder.float(at: index, path: ValuePath(depth: depth, extra: extra, key: key))
    }

    @_specialize(where Key == DynamicCodingKey)
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
        try decoder.integer(Int.self, at: value(for: key), path: ValuePath(depth: depth, extra: extra, key: key))
    }

    @_specialize(where Key == DynamicCodingKey)
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        guard let index = find(key), !decoder.isNull(index) else { return nil }
        return try decoder.integer(Int.self, at: index, path: ValuePath(depth: depth, extra: extra, key: key))
    }

    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 {
        try decoder.narrowInteger(Int8.self, at: value(for: key), path: ValuePath(depth: depth, extra: extra, key: key))
    }

    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? {
        guard let index = find(key), !decoder.isNull(index) else { return nil }
        return try decoder.narrowInteger(Int8.self, at: index, path: ValuePath(depth: depth, extra: extra, key: key))
    }

    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
        try decoder.narrowInteger(Int16.self, at: value(for: key), path: ValuePath(depth: depth, extra: extra, key: key))
    }

    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
        guard let index = find(key), !decoder.isNull(index) else { return nil }
        return try decoder.narrowInteger(Int16.self, at: index, path: ValuePath(depth: depth, extra: extra, key: key))
    }

    @_specialize(where Key == DynamicCodingKey)
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
        try decoder.integer(Int32.self, at: value(for: key), path: ValuePath(depth: depth, extra: extra, key: key))
    }

    @_specialize(where Key == DynamicCodingKey)
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
        guard let index = find(key), !decoder.isNull(index) else { return nil }
        return try decoder.integer(Int32.self, at: index, path: ValuePath(depth: depth, extra: extra, key: key))
    }

    @_specialize(where Key == DynamicCodingKey)
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
        try decoder.integer(Int64.self, at: value(for: key), path: ValuePath(depth: depth, extra: extra, key: key))
    }

    @_specialize(where Key == DynamicCodingKey)
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
        guard let index = find(key), !decoder.isNull(index) else { return nil }
        return try decoder.integer(Int64.self, at: index, path: ValuePath(depth: depth, extra: extra, key: key))
    }

    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt {
        try decoder.narrowInteger(UInt.self, at: value(for: key), path: ValuePath(depth: depth, extra: extra, key: key))
    }

    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? {
        guard let index = find(key), !decoder.isNull(index) else { return nil }
        return try decoder.narrowInteger(UInt.self, at: index, path: ValuePath(depth: depth, extra: extra, key: key))
    }

    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
        try decoder.narrowInteger(UInt8.self, at: value(for: key), path: ValuePath(depth: depth, extra: extra, key: key))
    }

    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
        guard let index = find(key), !decoder.isNull(index) else { return nil }
        return try decoder.narrowInteger(UInt8.self, at: index, path: ValuePath(depth: depth, extra: extra, key: key))
    }

    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
        try decoder.narrowInteger(UInt16.self, at: value(for: key), path: ValuePath(depth: depth, extra: extra, key: key))
    }

    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
        guard let index = find(key), !decoder.isNull(index) else { return nil }
        return try decoder.narrowInteger(UInt16.self, at: index, path: ValuePath(depth: depth, extra: extra, key: key))
    }

    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
        try decoder.narrowInteger(UInt32.self, at: value(for: key), path: ValuePath(depth: depth, extra: extra, key: key))
    }

    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
        guard let index = find(key), !decoder.isNull(index) else { return nil }
        return try decoder.narrowInteger(UInt32.self, at: index, path: ValuePath(depth: depth, extra: extra, key: key))
    }

    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
        try decoder.integer(UInt64.self, at: value(for: key), path: ValuePath(depth: depth, extra: extra, key: key))
    }

    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
        guard let index = find(key), !decoder.isNull(index) else { return nil }
        return try decoder.integer(UInt64.self, at: index, path: ValuePath(depth: depth, extra: extra, key: key))
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decoder.decode(T.self, at: value(for: key), depth: depth, extra: extra, key: key)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let index = find(key), !decoder.isNull(index) else { return nil }
        return try decoder.decode(T.self, at: index, depth: depth, extra: extra, key: key)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        let index = try value(for: key)
        try decoder.expect(.object, at: index, path: ValuePath(depth: depth, extra: extra, key: key))
        return KeyedDecodingContainer(TapeKeyedContainer<NestedKey>(decoder: decoder, object: index, depth: depth, extra: extra + [key]))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let index = try value(for: key)
        try decoder.expect(.array, at: index, path: ValuePath(depth: depth, extra: extra, key: key))
        return TapeUnkeyedContainer(decoder: decoder, array: index, depth: depth, extra: extra + [key])
    }

    func superDecoder() throws -> any Decoder {
        let key = IndexKey(stringValue: "super")
        return TapeDecoder(tape: decoder.tape, current: find(named: "super") ?? decoder.tape.nullEntry, path: codingPath + [key])
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        TapeDecoder(tape: decoder.tape, current: find(key) ?? decoder.tape.nullEntry, path: codingPath + [key])
    }
}
