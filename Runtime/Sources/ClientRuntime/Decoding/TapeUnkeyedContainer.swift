/// A JSON array read as an unkeyed container, element after element. An
/// element that fails to decode is not consumed, as with Foundation's decoder.
struct TapeUnkeyedContainer: UnkeyedDecodingContainer {
    let decoder: TapeDecoder
    /// The array's entry.
    let array: Int
    /// How much of the decoder's path is this container's.
    let depth: Int
    /// Keys of nested containers, after that part of the path.
    let extra: [any CodingKey]
    /// The number of elements.
    let count: Int?
    /// The position of the next element.
    private(set) var currentIndex = 0
    /// The entry of the next element.
    private var cursor: Int

    init(decoder: TapeDecoder, array: Int, depth: Int, extra: [any CodingKey]) {
        self.decoder = decoder
        self.array = array
        self.depth = depth
        self.extra = extra
        self.count = Int(decoder.tape.entries[array].length)
        self.cursor = array + 1
    }

    var codingPath: [any CodingKey] { decoder.path(depth: depth, extra: extra) }

    var isAtEnd: Bool { currentIndex >= count! }

    /// The path of the next element.
    private var elementPath: [any CodingKey] { codingPath + [IndexKey(intValue: currentIndex)] }
    /// Where the next element is, for the decoder's helpers.
    private var elementPlace: ValuePath { ValuePath(depth: depth, extra: extra, key: IndexKey(intValue: currentIndex)) }

    /// The next element's entry; throws `valueNotFound` past the end.
    private func element(_ type: Any.Type) throws -> Int {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(type, DecodingError.Context(codingPath: elementPath, debugDescription: "Unkeyed container is at end."))
        }
        return cursor
    }

    private mutating func advance() {
        cursor = Int(decoder.tape.entries[cursor].end)
        currentIndex += 1
    }

    mutating func decodeNil() throws -> Bool {
        guard decoder.isNull(try element(Never.self)) else { return false }
        advance()
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool {
        let value = try decoder.bool(at: element(type), path: elementPlace)
        advance()
        return value
    }

    mutating func decode(_ type: String.Type) throws -> String {
        let value = try decoder.string(at: element(type), path: elementPlace)
        advance()
        return value
    }

    mutating func decode(_ type: Double.Type) throws -> Double {
        let value = try decoder.floatingPoint(Double.self, at: element(type), path: elementPlace)
        advance()
        return value
    }

    mutating func decode(_ type: Float.Type) throws -> Float {
        let value = try decoder.float(at: element(type), path: elementPlace)
        advance()
        return value
    }

    mutating func decode(_ type: Int.Type) throws -> Int {
        let value = try decoder.integer(Int.self, at: element(type), path: elementPlace)
        advance()
        return value
    }

    mutating func decode(_ type: Int8.Type) throws -> Int8 {
        let value = try decoder.narrowInteger(Int8.self, at: element(type), path: elementPlace)
        advance()
        return value
    }

    mutating func decode(_ type: Int16.Type) throws -> Int16 {
        let value = try decoder.narrowInteger(Int16.self, at: element(type), path: elementPlace)
        advance()
        return value
    }

    mutating func decode(_ type: Int32.Type) throws -> Int32 {
        let value = try decoder.integer(Int32.self, at: element(type), path: elementPlace)
        advance()
        return value
    }

    mutating func decode(_ type: Int64.Type) throws -> Int64 {
        let value = try decoder.integer(Int64.self, at: element(type), path: elementPlace)
        advance()
        return value
    }

    mutating func decode(_ type: UInt.Type) throws -> UInt {
        let value = try decoder.narrowInteger(UInt.self, at: element(type), path: elementPlace)
        advance()
        return value
    }

    mutating func decode(_ type: UInt8.Type) throws -> UInt8 {
        let value = try decoder.narrowInteger(UInt8.self, at: element(type), path: elementPlace)
        advance()
        return value
    }

    mutating func decode(_ type: UInt16.Type) throws -> UInt16 {
        let value = try decoder.narrowInteger(UInt16.self, at: element(type), path: elementPlace)
        advance()
        return value
    }

    mutating func decode(_ type: UInt32.Type) throws -> UInt32 {
        let value = try decoder.narrowInteger(UInt32.self, at: element(type), path: elementPlace)
        advance()
        return value
    }

    mutating func decode(_ type: UInt64.Type) throws -> UInt64 {
        let value = try decoder.integer(UInt64.self, at: element(type), path: elementPlace)
        advance()
        return value
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let value = try decoder.decode(T.self, at: element(type), depth: depth, extra: extra, key: IndexKey(intValue: currentIndex))
        advance()
        return value
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let index = try element([String: Any].self)
        try decoder.expect(.object, at: index, path: elementPlace)
        let container = TapeKeyedContainer<NestedKey>(decoder: decoder, object: index, depth: depth, extra: extra + [IndexKey(intValue: currentIndex)])
        advance()
        return KeyedDecodingContainer(container)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let index = try element([Any].self)
        try decoder.expect(.array, at: index, path: elementPlace)
        let container = TapeUnkeyedContainer(decoder: decoder, array: index, depth: depth, extra: extra + [IndexKey(intValue: currentIndex)])
        advance()
        return container
    }

    mutating func superDecoder() throws -> any Decoder {
        let index = try element(Any.self)
        let decoder = TapeDecoder(tape: decoder.tape, current: index, path: elementPath)
        advance()
        return decoder
    }
}
