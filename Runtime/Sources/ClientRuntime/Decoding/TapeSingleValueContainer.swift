/// One JSON value read as a single-value container.
struct TapeSingleValueContainer: SingleValueDecodingContainer {
    let decoder: TapeDecoder
    /// The value's entry.
    let value: Int
    /// How much of the decoder's path is this value's.
    let depth: Int

    var codingPath: [any CodingKey] { decoder.path(depth: depth, extra: []) }

    func decodeNil() -> Bool { decoder.isNull(value) }

    func decode(_ type: Bool.Type) throws -> Bool {
        try decoder.bool(at: value, path: ValuePath(depth: depth, extra: [], key: nil))
    }

    func decode(_ type: String.Type) throws -> String {
        try decoder.string(at: value, path: ValuePath(depth: depth, extra: [], key: nil))
    }

    func decode(_ type: Double.Type) throws -> Double {
        try decoder.floatingPoint(Double.self, at: value, path: ValuePath(depth: depth, extra: [], key: nil))
    }

    func decode(_ type: Float.Type) throws -> Float {
        try decoder.float(at: value, path: ValuePath(depth: depth, extra: [], key: nil))
    }

    func decode(_ type: Int.Type) throws -> Int {
        try decoder.integer(Int.self, at: value, path: ValuePath(depth: depth, extra: [], key: nil))
    }

    func decode(_ type: Int8.Type) throws -> Int8 {
        try decoder.narrowInteger(Int8.self, at: value, path: ValuePath(depth: depth, extra: [], key: nil))
    }

    func decode(_ type: Int16.Type) throws -> Int16 {
        try decoder.narrowInteger(Int16.self, at: value, path: ValuePath(depth: depth, extra: [], key: nil))
    }

    func decode(_ type: Int32.Type) throws -> Int32 {
        try decoder.integer(Int32.self, at: value, path: ValuePath(depth: depth, extra: [], key: nil))
    }

    func decode(_ type: Int64.Type) throws -> Int64 {
        try decoder.integer(Int64.self, at: value, path: ValuePath(depth: depth, extra: [], key: nil))
    }

    func decode(_ type: UInt.Type) throws -> UInt {
        try decoder.narrowInteger(UInt.self, at: value, path: ValuePath(depth: depth, extra: [], key: nil))
    }

    func decode(_ type: UInt8.Type) throws -> UInt8 {
        try decoder.narrowInteger(UInt8.self, at: value, path: ValuePath(depth: depth, extra: [], key: nil))
    }

    func decode(_ type: UInt16.Type) throws -> UInt16 {
        try decoder.narrowInteger(UInt16.self, at: value, path: ValuePath(depth: depth, extra: [], key: nil))
    }

    func decode(_ type: UInt32.Type) throws -> UInt32 {
        try decoder.narrowInteger(UInt32.self, at: value, path: ValuePath(depth: depth, extra: [], key: nil))
    }

    func decode(_ type: UInt64.Type) throws -> UInt64 {
        try decoder.integer(UInt64.self, at: value, path: ValuePath(depth: depth, extra: [], key: nil))
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try decoder.decode(T.self, at: value, depth: depth, extra: [], key: nil)
    }
}
