import Foundation

/// Scans a JSON document (RFC 8259) into ``JSONTape`` entries, checking its
/// syntax by the RFC's grammar: any value at the top level (a leading UTF-8
/// byte order mark is skipped); no comments, trailing commas, leading zeros
/// or non-finite numbers.
struct JSONTapeScanner {
    /// The deepest nesting accepted (Foundation's decoder stops at 512 too).
    static let maximumDepth = 512

    private let bytes: UnsafePointer<UInt8>
    private let count: Int
    private var offset = 0
    private var entries: [JSONTape.Entry] = []

    /// Scans `count` bytes at `bytes`, which must be followed by a 0 byte.
    init(bytes: UnsafePointer<UInt8>, count: Int) {
        self.bytes = bytes
        self.count = count
        entries.reserveCapacity(max(16, count / 16))
    }

    /// The entries of the one value the document holds.
    mutating func scanDocument() throws(JSONSyntaxError) -> [JSONTape.Entry] {
        // A UTF-8 byte order mark, which RFC 8259 lets a reader ignore.
        if count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { offset = 3 }
        try value(depth: 0)
        skipWhitespace()
        guard offset == count else { throw JSONSyntaxError(reason: "unexpected text after the JSON value", offset: offset) }
        return entries
    }

    private mutating func skipWhitespace() {
        while true {
            switch bytes[offset] {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): offset += 1
            default: return
            }
        }
    }

    private mutating func value(depth: Int) throws(JSONSyntaxError) {
        skipWhitespace()
        guard offset < count else { throw JSONSyntaxError(reason: "unexpected end of the document", offset: offset) }
        switch bytes[offset] {
        case UInt8(ascii: "{"): try container(depth: depth, isObject: true)
        case UInt8(ascii: "["): try container(depth: depth, isObject: false)
        case UInt8(ascii: "\""): try string()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
        case UInt8(ascii: "t"): try literal("true", .true)
        case UInt8(ascii: "f"): try literal("false", .false)
        case UInt8(ascii: "n"): try literal("null", .null)
        default: throw JSONSyntaxError(reason: "unexpected character '\(Character(Unicode.Scalar(bytes[offset])))'", offset: offset)
        }
    }

    private mutating func container(depth: Int, isObject: Bool) throws(JSONSyntaxError) {
        guard depth < Self.maximumDepth else {
            throw JSONSyntaxError(reason: "nested deeper than \(Self.maximumDepth) levels", offset: offset)
        }
        let index = entries.count
        entries.append(JSONTape.Entry(kind: isObject ? .object : .array, flags: [], start: UInt32(offset), length: 0, end: 0))
        let close = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
        offset += 1
        skipWhitespace()
        var items: UInt32 = 0
        if bytes[offset] == close {
            offset += 1
        } else {
            while true {
                if isObject {
                    skipWhitespace()
                    guard bytes[offset] == UInt8(ascii: "\"") else { throw JSONSyntaxError(reason: "expected a key in quotes", offset: offset) }
                    try string()
                    skipWhitespace()
                    guard bytes[offset] == UInt8(ascii: ":") else { throw JSONSyntaxError(reason: "expected ':' after the key", offset: offset) }
                    offset += 1
                }
                try value(depth: depth + 1)
                items += 1
                skipWhitespace()
                if bytes[offset] == UInt8(ascii: ",") {
                    offset += 1
                    continue
                }
                guard bytes[offset] == close else {
                    throw JSONSyntaxError(reason: isObject ? "expected ',' or '}'" : "expected ',' or ']'", offset: offset)
                }
                offset += 1
                break
            }
        }
        entries[index].length = items
        entries[index].end = UInt32(entries.count)
    }

    private mutating func string() throws(JSONSyntaxError) {
        let start = offset + 1
        var index = start
        var flags: JSONTape.Flags = []
        while true {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") { break }
            if byte == UInt8(ascii: "\\") {
                flags.insert(.escaped)
                switch bytes[index + 1] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                    UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    index += 2
                case UInt8(ascii: "u"):
                    guard index + 5 < count, (2...5).allSatisfy({ JSONStringUnescaper.hexValue(bytes[index + $0]) != nil }) else {
                        throw JSONSyntaxError(reason: "invalid \\u escape", offset: index)
                    }
                    index += 6
                default:
                    throw JSONSyntaxError(reason: "invalid escape in a string", offset: index)
                }
                continue
            }
            if byte < 0x20 {
                if index >= count { throw JSONSyntaxError(reason: "unterminated string", offset: offset) }
                throw JSONSyntaxError(reason: "unescaped control character in a string", offset: index)
            }
            if byte >= 0x80 { flags.insert(.nonASCII) }
            index += 1
        }
        entries.append(JSONTape.Entry(kind: .string, flags: flags, start: UInt32(start), length: UInt32(index - start), end: UInt32(entries.count + 1)))
        offset = index + 1
    }

    private mutating func number() throws(JSONSyntaxError) {
        let start = offset
        var index = offset
        var flags: JSONTape.Flags = []
        func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if isDigit(bytes[index]) { throw JSONSyntaxError(reason: "a number may not start with 0", offset: start) }
        } else {
            guard isDigit(bytes[index]) else { throw JSONSyntaxError(reason: "invalid number", offset: start) }
            while isDigit(bytes[index]) { index += 1 }
        }
        if bytes[index] == UInt8(ascii: ".") {
            flags.insert(.fractional)
            index += 1
            guard isDigit(bytes[index]) else { throw JSONSyntaxError(reason: "expected digits after the decimal point", offset: index) }
            while isDigit(bytes[index]) { index += 1 }
        }
        if bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            flags.insert(.fractional)
            index += 1
            if bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard isDigit(bytes[index]) else { throw JSONSyntaxError(reason: "expected digits in the exponent", offset: index) }
            while isDigit(bytes[index]) { index += 1 }
        }
        entries.append(JSONTape.Entry(kind: .number, flags: flags, start: UInt32(start), length: UInt32(index - start), end: UInt32(entries.count + 1)))
        offset = index
    }

    private mutating func literal(_ word: StaticString, _ kind: JSONTape.Kind) throws(JSONSyntaxError) {
        let length = word.utf8CodeUnitCount
        guard offset + length <= count, memcmp(bytes + offset, word.utf8Start, length) == 0 else {
            throw JSONSyntaxError(reason: "unexpected character '\(Character(Unicode.Scalar(bytes[offset])))'", offset: offset)
        }
        entries.append(JSONTape.Entry(kind: kind, flags: [], start: UInt32(offset), length: UInt32(length), end: UInt32(entries.count + 1)))
        offset += length
    }
}
