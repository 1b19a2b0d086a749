/// Resolves the escapes of a JSON string (`\n`, `\"`, `\u00e9`, surrogate
/// pairs `\ud83d\ude00`).
enum JSONStringUnescaper {
    /// The string the escaped bytes (between the quotes, already checked by
    /// the scanner) stand for; nil when the result is not valid Unicode (a
    /// lone surrogate, or bytes that are not UTF-8).
    static func unescape(_ raw: UnsafeBufferPointer<UInt8>) -> String? {
        var output: [UInt8] = []
        output.reserveCapacity(raw.count)
        var index = 0
        while index < raw.count {
            let byte = raw[index]
            guard byte == UInt8(ascii: "\\") else {
                output.append(byte)
                index += 1
                continue
            }
            let escape = raw[index + 1]
            index += 2
            switch escape {
            case UInt8(ascii: "b"): output.append(0x08)
            case UInt8(ascii: "f"): output.append(0x0C)
            case UInt8(ascii: "n"): output.append(0x0A)
            case UInt8(ascii: "r"): output.append(0x0D)
            case UInt8(ascii: "t"): output.append(0x09)
            case UInt8(ascii: "u"):
                guard var scalar = codeUnit(raw, at: index) else { return nil }
                index += 4
                if (0xD800...0xDBFF).contains(scalar) {
                    // A high surrogate must be followed by `\u` and a low one.
                    guard index + 6 <= raw.count, raw[index] == UInt8(ascii: "\\"), raw[index + 1] == UInt8(ascii: "u"),
                        let low = codeUnit(raw, at: index + 2), (0xDC00...0xDFFF).contains(low)
                    else { return nil }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    index += 6
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    return nil
                }
                guard let unicode = Unicode.Scalar(scalar) else { return nil }
                output.append(contentsOf: UTF8.encode(unicode)!)
            default: output.append(escape)  // `"`, `\` and `/` stand for themselves.
            }
        }
        return output.withUnsafeBufferPointer { JSONTape.validated($0) }
    }

    /// The four hexadecimal digits at `index` as a number.
    private static func codeUnit(_ raw: UnsafeBufferPointer<UInt8>, at index: Int) -> UInt32? {
        guard index + 4 <= raw.count else { return nil }
        var value: UInt32 = 0
        for offset in 0..<4 {
            guard let digit = hexValue(raw[index + offset]) else { return nil }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// The value of one hexadecimal digit.
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
