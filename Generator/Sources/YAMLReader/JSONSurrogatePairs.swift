/// JSON writes a character outside the Basic Multilingual Plane as a
/// surrogate pair of escapes (`"\ud83d\udc4d"`, Twilio's spec does), which
/// libyaml refuses: YAML's `\u` takes a code point, and a surrogate is
/// none. In a JSON document's strings each such pair becomes the one escape
/// YAML reads (`\U0001f44d`), so a JSON spec reads as JSON means it.
///
/// Only JSON text is rewritten (a document whose first character is `{` or
/// `[`), and only inside its double-quoted strings: in YAML's plain and
/// single-quoted scalars a backslash is itself. The pair takes 12 bytes and
/// its replacement 10, so a column after it on the same line is off by two.
enum JSONSurrogatePairs {
    /// `bytes` with every escaped surrogate pair inside a string written as
    /// one `\U` escape; the same array when there is none (the usual case).
    static func joined(_ bytes: [UInt8]) -> [UInt8] {
        guard let first = bytes.first(where: { !isSpace($0) }), first == UInt8(ascii: "{") || first == UInt8(ascii: "["),
            contains(bytes, escapeOf: 0xD)
        else { return bytes }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = 0
        var inString = false
        while index < bytes.count {
            let byte = bytes[index]
            if !inString {
                if byte == UInt8(ascii: "\"") { inString = true }
                result.append(byte)
                index += 1
                continue
            }
            if byte == UInt8(ascii: "\"") {
                inString = false
                result.append(byte)
                index += 1
                continue
            }
            guard byte == UInt8(ascii: "\\"), index + 1 < bytes.count else {
                result.append(byte)
                index += 1
                continue
            }
            if let high = unit(bytes, at: index), (0xD800...0xDBFF).contains(high),
                let low = unit(bytes, at: index + 6), (0xDC00...0xDFFF).contains(low)
            {
                let scalar = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
                result.append(contentsOf: Array("\\U".utf8))
                let hex = String(scalar, radix: 16)
                result.append(contentsOf: Array((String(repeating: "0", count: 8 - hex.count) + hex).utf8))
                index += 12
                continue
            }
            // Any other escape: its two bytes as they are (an escaped quote
            // does not end the string).
            result.append(byte)
            result.append(bytes[index + 1])
            index += 2
        }
        return result
    }

    /// The code unit of a `\uXXXX` escape at `index`, if one is there.
    private static func unit(_ bytes: [UInt8], at index: Int) -> Int? {
        guard index + 6 <= bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else { return nil }
        var value = 0
        for byte in bytes[(index + 2)..<(index + 6)] {
            guard let digit = hexValue(byte) else { return nil }
            value = value << 4 | digit
        }
        return value
    }

    private static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return Int(byte - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return Int(byte - UInt8(ascii: "A")) + 10
        default: return nil
        }
    }

    /// Whether `\u` followed by `d` or `D` appears anywhere: a quick test
    /// that spares every other document the rewrite.
    private static func contains(_ bytes: [UInt8], escapeOf digit: UInt8) -> Bool {
        var index = 0
        while index + 2 < bytes.count {
            if bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u"),
                bytes[index + 2] == UInt8(ascii: "d") || bytes[index + 2] == UInt8(ascii: "D")
            {
                return true
            }
            index += 1
        }
        return false
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0xEF || byte == 0xBB || byte == 0xBF
    }
}
