import Foundation

/// The `Decoder` of ``ResponseJSONDecoder``. One instance decodes a whole
/// document: decoding a nested value points it at the value's entry and
/// pushes its key on the path, then puts both back, so no decoder, path
/// node or dictionary is made per value.
final class TapeDecoder: Decoder {
    let tape: JSONTape
    /// Where the decoder is: the entry `init(from:)` of the type being
    /// decoded reads, and that entry's coding path. A container remembers
    /// how long the path was when the container was made: decoding is
    /// depth-first, so that part stays in place while the container is in
    /// use.
    struct Position {
        var current: Int
        var stack: [any CodingKey]
    }

    /// The position, in memory of the decoder's own rather than in stored
    /// properties: a class's stored `var` is checked for exclusive access at
    /// run time on every read and write, twice per value decoded; this one
    /// is read and written only by this decoder, on one thread, one access
    /// at a time (a decoder is not `Sendable`), so nothing needs checking.
    private let position: UnsafeMutablePointer<Position>

    private var current: Int {
        get { position.pointee.current }
        set { position.pointee.current = newValue }
    }

    private var stack: [any CodingKey] {
        get { position.pointee.stack }
        _modify { yield &position.pointee.stack }
    }

    let userInfo: [CodingUserInfoKey: Any] = [:]

    init(tape: JSONTape, current: Int = 0, path: [any CodingKey] = []) {
        self.tape = tape
        position = .allocate(capacity: 1)
        position.initialize(to: Position(current: current, stack: path))
    }

    deinit {
        position.deinitialize(count: 1)
        position.deallocate()
    }

    var codingPath: [any CodingKey] { stack }

    /// The path of a container made at `depth`, with the keys of the
    /// nested containers it was reached through.
    func path(depth: Int, extra: [any CodingKey]) -> [any CodingKey] {
        Array(stack.prefix(depth)) + extra
    }

    /// The coding path of the value at `place`, made only when decoding it fails.
    func codingPath(of place: ValuePath) -> [any CodingKey] {
        path(depth: place.depth, extra: place.extra) + (place.key.map { [$0] } ?? [])
    }

    // Generated clients key every object by DynamicCodingKey: a specialised
    // entry spares each object a lookup of its container's generic metadata.
    @_specialize(where Key == DynamicCodingKey)
    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        try expect(.object, at: current, path: ValuePath(depth: stack.count, extra: [], key: nil))
        return KeyedDecodingContainer(TapeKeyedContainer<Key>(decoder: self, object: current, depth: stack.count, extra: []))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try expect(.array, at: current, path: ValuePath(depth: stack.count, extra: [], key: nil))
        return TapeUnkeyedContainer(decoder: self, array: current, depth: stack.count, extra: [])
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        TapeSingleValueContainer(decoder: self, value: current, depth: stack.count)
    }

    // MARK: Values

    /// Decodes the value at entry `index`, whose path is the first `depth`
    /// keys of the path, then `extra`, then `key`.
    func decode<T: Decodable>(_ type: T.Type, at index: Int, depth: Int, extra: [any CodingKey], key: (any CodingKey)?) throws -> T {
        let place = ValuePath(depth: depth, extra: extra, key: key)
        // Types Foundation's decoder reads from the JSON value itself, and
        // the common scalars that generic code (arrays, optionals) asks for.
        if T.self == String.self { return try string(at: index, path: place) as! T }
        if T.self == Int.self { return try integer(Int.self, at: index, path: place) as! T }
        if T.self == Int64.self { return try integer(Int64.self, at: index, path: place) as! T }
        if T.self == Int32.self { return try integer(Int32.self, at: index, path: place) as! T }
        if T.self == Double.self { return try floatingPoint(Double.self, at: index, path: place) as! T }
        if T.self == Bool.self { return try bool(at: index, path: place) as! T }
        if T.self == Date.self { return try date(at: index, path: place) as! T }
        if T.self == URL.self { return try url(at: index, path: place) as! T }
        if T.self == Data.self { return try data(at: index, path: place) as! T }
        if T.self == Decimal.self { return try decimal(at: index, path: place) as! T }
        // The runtime's own string formats, parsed from the document's bytes
        // in place: no String is made for a UUID or a day.
        if T.self == LowercaseUUID.self { return try lowercaseUUID(at: index, path: place) as! T }
        if T.self == CalendarDate.self { return try calendarDate(at: index, path: place) as! T }

        let savedCurrent = current
        let savedCount = stack.count
        if savedCount > depth { stack.removeSubrange(depth...) }
        if !extra.isEmpty { stack.append(contentsOf: extra) }
        if let key { stack.append(key) }
        current = index
        defer {
            current = savedCurrent
            // Usually one key: the element's or the member's.
            if stack.count == savedCount + 1 { stack.removeLast() } else if stack.count > savedCount { stack.removeSubrange(savedCount...) }
        }
        return try T(from: self)
    }

    func isNull(_ index: Int) -> Bool { tape.entries[index].kind == .null }

    /// Throws unless entry `index` is of `kind` (an object or an array).
    func expect(_ kind: JSONTape.Kind, at index: Int, path place: ValuePath) throws {
        guard tape.entries[index].kind != kind else { return }
        throw mismatch(kind == .object ? [String: Any].self : [Any].self, at: index, path: codingPath(of: place))
    }

    func bool(at index: Int, path place: ValuePath) throws -> Bool {
        switch tape.entries[index].kind {
        case .true: return true
        case .false: return false
        default: throw mismatch(Bool.self, at: index, path: codingPath(of: place))
        }
    }

    func string(at index: Int, path place: ValuePath) throws -> String {
        let entry = tape.entries[index]
        guard entry.kind == .string else { throw mismatch(String.self, at: index, path: codingPath(of: place)) }
        guard let text = tape.string(of: entry) else {
            throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: codingPath(of: place), debugDescription: "The string is not valid UTF-8."))
        }
        return text
    }

    /// An integer; a number written with a fraction or exponent is accepted
    /// when its value is whole and fits (`1.0`, `1e3`), as Foundation's
    /// decoder does.
    func integer<T: FixedWidthInteger>(_ type: T.Type, at index: Int, path place: ValuePath) throws -> T {
        let entry = tape.entries[index]
        guard entry.kind == .number else { throw mismatch(T.self, at: index, path: codingPath(of: place)) }
        if !entry.flags.contains(.fractional) {
            if let value = Self.parseInteger(T.self, tape.rawBytes(of: entry)) { return value }
        } else if let double = Double(tape.numberText(of: entry)), let value = T(exactly: double) {
            return value
        }
        throw DecodingError.dataCorrupted(
            DecodingError.Context(codingPath: codingPath(of: place), debugDescription: "Parsed JSON number <\(tape.numberText(of: entry))> does not fit in \(T.self)."))
    }

    /// Int8, Int16, UInt, UInt8, UInt16 and UInt32, rare in JSON APIs:
    /// read as an `Int64` or a `UInt64`, then narrowed, so the parser's
    /// integer code is in an app for four widths, not ten.
    func narrowInteger<T: FixedWidthInteger>(_ type: T.Type, at index: Int, path place: ValuePath) throws -> T {
        let entry = tape.entries[index]
        guard entry.kind == .number else { throw mismatch(T.self, at: index, path: codingPath(of: place)) }
        let value: T?
        do {
            value = T.isSigned ? T(exactly: try integer(Int64.self, at: index, path: place)) : T(exactly: try integer(UInt64.self, at: index, path: place))
        } catch {
            value = nil
        }
        guard let value else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: codingPath(of: place), debugDescription: "Parsed JSON number <\(tape.numberText(of: entry))> does not fit in \(T.self)."))
        }
        return value
    }

    /// A `Float`, read as a `Double` (one floating-point parser in an app).
    func float(at index: Int, path place: ValuePath) throws -> Float {
        let entry = tape.entries[index]
        guard entry.kind == .number else { throw mismatch(Float.self, at: index, path: codingPath(of: place)) }
        let value = Float(try floatingPoint(Double.self, at: index, path: place))
        guard value.isFinite else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: codingPath(of: place), debugDescription: "Parsed JSON number <\(tape.numberText(of: entry))> does not fit in Float."))
        }
        return value
    }

    /// Digits with an optional minus sign (checked by the scanner), or nil
    /// when the value overflows `T`.
    private static func parseInteger<T: FixedWidthInteger>(_ type: T.Type, _ bytes: UnsafeBufferPointer<UInt8>) -> T? {
        let negative = bytes[0] == UInt8(ascii: "-")
        var value: T = 0
        for index in (negative ? 1 : 0)..<bytes.count {
            let digit = T(bytes[index] &- UInt8(ascii: "0"))
            let (shifted, overflowed) = value.multipliedReportingOverflow(by: 10)
            let (next, carried) = negative ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
            if overflowed || carried { return nil }
            value = next
        }
        return value
    }

    func floatingPoint<T: BinaryFloatingPoint & LosslessStringConvertible>(_ type: T.Type, at index: Int, path place: ValuePath) throws -> T {
        let entry = tape.entries[index]
        guard entry.kind == .number else { throw mismatch(T.self, at: index, path: codingPath(of: place)) }
        let text = tape.numberText(of: entry)
        guard let value = T(text), value.isFinite else {
            throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: codingPath(of: place), debugDescription: "Parsed JSON number <\(text)> does not fit in \(T.self)."))
        }
        return value
    }

    /// A UUID, read from the string's bytes when it has no escapes; the
    /// same error as ``LowercaseUUID``'s own decoding otherwise.
    private func lowercaseUUID(at index: Int, path place: ValuePath) throws -> LowercaseUUID {
        let entry = tape.entries[index]
        if entry.kind == .string, entry.flags.isEmpty, let uuid = LowercaseUUID.parse(utf8: tape.rawBytes(of: entry)) {
            return LowercaseUUID(uuid)
        }
        let text = try string(at: index, path: place)
        guard let value = LowercaseUUID(parsing: text) else {
            throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: codingPath(of: place), debugDescription: LowercaseUUID.invalidDescription(text)))
        }
        return value
    }

    /// A `YYYY-MM-DD` day, read from the string's bytes when it has no
    /// escapes; the same error as ``CalendarDate``'s own decoding otherwise.
    private func calendarDate(at index: Int, path place: ValuePath) throws -> CalendarDate {
        let entry = tape.entries[index]
        if entry.kind == .string, entry.flags.isEmpty, let date = CalendarDate(utf8: tape.rawBytes(of: entry)) { return date }
        let text = try string(at: index, path: place)
        guard let value = CalendarDate(parsing: text) else {
            throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: codingPath(of: place), debugDescription: CalendarDate.invalidDescription(text)))
        }
        return value
    }

    /// An RFC 3339 date-time, by the rules of ``JSONCoding``.
    private func date(at index: Int, path place: ValuePath) throws -> Date {
        let text = try string(at: index, path: place)
        guard let date = JSONCoding.parseDateTime(text) else {
            throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: codingPath(of: place), debugDescription: "'\(text)' is not an RFC 3339 date-time"))
        }
        return date
    }

    private func url(at index: Int, path place: ValuePath) throws -> URL {
        let text = try string(at: index, path: place)
        guard let url = URL(string: text) else {
            throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: codingPath(of: place), debugDescription: "Invalid URL string."))
        }
        return url
    }

    /// Base64, Foundation's default for `Data`.
    private func data(at index: Int, path place: ValuePath) throws -> Data {
        let text = try string(at: index, path: place)
        guard let data = Data(base64Encoded: text) else {
            throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: codingPath(of: place), debugDescription: "Encountered Data is not valid Base64."))
        }
        return data
    }

    /// A number read from its text, without a trip through `Double`.
    private func decimal(at index: Int, path place: ValuePath) throws -> Decimal {
        let entry = tape.entries[index]
        guard entry.kind == .number, let value = Decimal(string: tape.numberText(of: entry), locale: Locale(identifier: "en_US_POSIX")) else {
            throw mismatch(Decimal.self, at: index, path: codingPath(of: place))
        }
        return value
    }

    /// `valueNotFound` for a null, `typeMismatch` for another kind, worded
    /// as Foundation's decoder words them.
    func mismatch(_ type: Any.Type, at index: Int, path: [any CodingKey]) -> DecodingError {
        let found: String
        switch tape.entries[index].kind {
        case .null:
            return .valueNotFound(type, DecodingError.Context(codingPath: path, debugDescription: "Cannot get value of type \(type) -- found null value instead"))
        case .object: found = "a dictionary"
        case .array: found = "an array"
        case .string: found = "a string"
        case .number: found = "number"
        case .true, .false: found = "bool"
        }
        return .typeMismatch(type, DecodingError.Context(codingPath: path, debugDescription: "Expected to decode \(type) but found \(found) instead."))
    }
}

/// Where a value is: the first `depth` keys of the decoder's path, then
/// `extra`, then `key`. What the decoder's helpers take in place of a coding
/// path, made into one (``TapeDecoder/codingPath(of:)``) only when decoding
/// fails: no array is built for a value that decodes, and, unlike a closure
/// that builds it, no copy of each helper is specialized per call site (a
/// few kilobytes of an app's code).
struct ValuePath {
    let depth: Int
    let extra: [any CodingKey]
    let key: (any CodingKey)?
}

/// The key of an array element (`Index 3`), or of a container's super decoder.
///
/// An enum that holds the index, not its name: every element decoded makes
/// one, and only a failure reads its name. It fits an existential's inline
/// buffer, so passing it as `any CodingKey` allocates nothing.
enum IndexKey: CodingKey {
    case index(Int)
    case named(String)

    init(intValue: Int) { self = .index(intValue) }

    init(stringValue: String) { self = .named(stringValue) }

    var intValue: Int? {
        if case .index(let index) = self { return index }
        return nil
    }

    var stringValue: String {
        switch self {
        case .index(let index): return "Index \(index)"
        case .named(let name): return name
        }
    }
}
