import Foundation

/// A `format: uuid` value as generated clients carry it: a `UUID` that goes
/// on the wire in lower case, as RFC 9562 asks, and reads either case.
///
/// Foundation's `UUID` encodes upper case, and servers that compare
/// identifiers as strings (idempotency keys, cache keys, signatures) then see
/// a different value from the one they issued. The type mapping gives every
/// `uuid` field, parameter, element, map value and union member this type,
/// so the rule holds wherever the value sits, including inside `Nullable`,
/// arrays and dictionaries, without special cases in the encoders.
///
/// ```swift
/// let id = LowercaseUUID()                      // a new random one
/// let same = LowercaseUUID(transaction.id.uuid) // from a Foundation UUID
/// let parsed = try LowercaseUUID("6F1C2A4E-...") // throws unless it is a UUID
/// ```
///
/// Parsing throws ``InvalidValueError`` rather than returning nil, so a
/// mistyped id never turns into an argument left out of a call.
public struct LowercaseUUID: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// The value as a Foundation `UUID`.
    public var uuid: UUID

    /// Wraps a Foundation `UUID`.
    public init(_ uuid: UUID) {
        self.uuid = uuid
    }

    /// A new random (version 4) UUID.
    public init() {
        self.uuid = UUID()
    }

    /// Parses the 36-character form (`8-4-4-4-12` hexadecimal digits, either
    /// case); throws ``InvalidValueError`` for anything else.
    public init(_ text: String) throws(InvalidValueError) {
        guard let uuid = Self.parse(text) else {
            throw InvalidValueError(typeName: "LowercaseUUID", expected: "8-4-4-4-12 hexadecimal digits", inputLength: text.count)
        }
        self.uuid = uuid
    }

    /// Parses the 36-character form; nil for anything else (the runtime's
    /// decoders, which throw their own errors).
    init?(parsing text: String) {
        guard let uuid = Self.parse(text) else { return nil }
        self.uuid = uuid
    }

    /// The 36-character lower-case form, as it goes on the wire.
    public var uuidString: String {
        func digit(_ nibble: UInt8) -> UInt8 { nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10 }
        return withUnsafeBytes(of: uuid.uuid) { bytes in
            String(unsafeUninitializedCapacity: 36) { buffer in
                var index = 0
                for (offset, byte) in bytes.enumerated() {
                    if offset == 4 || offset == 6 || offset == 8 || offset == 10 {
                        buffer[index] = UInt8(ascii: "-")
                        index += 1
                    }
                    buffer[index] = digit(byte >> 4)
                    buffer[index + 1] = digit(byte & 0x0F)
                    index += 2
                }
                return index
            }
        }
    }

    /// The lower-case form.
    public var description: String { uuidString }

    /// Orders by the lower-case form (the order a server sorting the strings sees).
    public static func < (lhs: LowercaseUUID, rhs: LowercaseUUID) -> Bool {
        withUnsafeBytes(of: lhs.uuid.uuid) { left in
            withUnsafeBytes(of: rhs.uuid.uuid) { right in left.lexicographicallyPrecedes(right) }
        }
    }

    /// Reads a UUID string in either case.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let uuid = Self.parse(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: Self.invalidDescription(text))
        }
        self.uuid = uuid
    }

    /// What a decoding error says of a string that is not a UUID (its length,
    /// not the text: an identifier can be a secret).
    static func invalidDescription(_ text: String) -> String {
        "Expected a UUID (8-4-4-4-12 hexadecimal digits), found \(text.count) characters that are not one"
    }

    /// Writes the lower-case form.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(uuidString)
    }

    /// Parses from the UTF-8 bytes (Foundation's parser on Linux goes
    /// through `sscanf`, several times slower).
    private static func parse(_ text: String) -> UUID? {
        var text = text
        return text.withUTF8 { parse(utf8: $0) }
    }

    /// Parses the 36 bytes of a UUID's text, either case; nil for anything
    /// else. The response decoder reads a string's bytes in place with it.
    static func parse(utf8: UnsafeBufferPointer<UInt8>) -> UUID? {
        guard utf8.count == 36 else { return nil }
        var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let parsed = withUnsafeMutableBytes(of: &value) { bytes -> Bool in
            var input = 0
            for output in 0..<16 {
                if output == 4 || output == 6 || output == 8 || output == 10 {
                    guard utf8[input] == UInt8(ascii: "-") else { return false }
                    input += 1
                }
                guard let high = hexValue(utf8[input]), let low = hexValue(utf8[input + 1]) else { return false }
                bytes[output] = high << 4 | low
                input += 2
            }
            return true
        }
        return parsed ? UUID(uuid: value) : nil
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
