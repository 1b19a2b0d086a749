/// The value of a scalar node, resolved by the YAML 1.2 core schema.
///
/// Plain (unquoted) scalars become `null`, booleans, integers or floats when
/// they look like one (`~`, `true`, `0x1F`, `1.5e3`, `.inf`); quoted and block
/// scalars stay strings. An explicit standard tag (`!!str`, `!!int`, ...) wins.
/// YAML 1.1's `yes`/`no`/`on`/`off` stay strings, as in YAML 1.2 and JSON.
public enum YAMLScalar: Sendable, Hashable {
    /// `null`, `~`, `Null`, `NULL` or an empty plain scalar.
    case null
    /// `true` or `false` in any of the core schema's spellings.
    case bool(Bool)
    /// A decimal, octal (`0o`) or hexadecimal (`0x`) integer that fits `Int`.
    case int(Int)
    /// A float, or an integer too large for `Int`.
    case double(Double)
    /// Anything else.
    case string(String)

    /// Resolves the text of an untagged plain scalar.
    public static func resolvePlain(_ text: String) -> YAMLScalar {
        guard let first = text.utf8.first else { return .null }
        switch first {
        case UInt8(ascii: "~"), UInt8(ascii: "n"), UInt8(ascii: "N"):
            if text == "~" || text == "null" || text == "Null" || text == "NULL" { return .null }
        case UInt8(ascii: "t"), UInt8(ascii: "T"):
            if text == "true" || text == "True" || text == "TRUE" { return .bool(true) }
        case UInt8(ascii: "f"), UInt8(ascii: "F"):
            if text == "false" || text == "False" || text == "FALSE" { return .bool(false) }
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."):
            if let number = resolveNumber(text) { return number }
        default:
            break
        }
        return .string(text)
    }

    /// Resolves a scalar that carries the standard tag `tag`; `nil` when the
    /// text does not fit the tag.
    public static func resolveTagged(_ text: String, tag: String) -> YAMLScalar? {
        switch tag {
        case "tag:yaml.org,2002:str": return .string(text)
        case "tag:yaml.org,2002:null": return .null
        case "tag:yaml.org,2002:bool":
            if case .bool(let value) = resolvePlain(text) { return .bool(value) }
            return nil
        case "tag:yaml.org,2002:int":
            if case .int(let value) = resolvePlain(text) { return .int(value) }
            return nil
        case "tag:yaml.org,2002:float":
            switch resolvePlain(text) {
            case .int(let value): return .double(Double(value))
            case .double(let value): return .double(value)
            default: return nil
            }
        default:
            return .string(text)
        }
    }

    private static func resolveNumber(_ text: String) -> YAMLScalar? {
        var body = Substring(text)
        var negative = false
        if body.first == "-" || body.first == "+" {
            negative = body.first == "-"
            body = body.dropFirst()
        }
        switch body {
        case ".inf", ".Inf", ".INF": return .double(negative ? -.infinity : .infinity)
        case ".nan", ".NaN", ".NAN": return text.first == "." ? .double(.nan) : nil
        default: break
        }
        if text.first != "-", text.first != "+", body.count > 2 {
            let prefix = body.prefix(2)
            if prefix == "0x" || prefix == "0o" {
                let radix = prefix == "0x" ? 16 : 8
                let digits = body.dropFirst(2)
                if let value = Int(digits, radix: radix) { return .int(value) }
                // Valid digits but too large for Int: a Double, like large decimals.
                guard digits.allSatisfy({ $0.isHexDigit && Int(String($0), radix: radix) != nil }) else { return nil }
                return .double(digits.reduce(0.0) { $0 * Double(radix) + Double(Int(String($1), radix: radix)!) })
            }
        }
        guard !body.isEmpty, body.utf8.allSatisfy({ isNumberByte($0) }) else { return nil }
        if body.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            if let value = Int(text) { return .int(value) }
            return Double(text).map(YAMLScalar.double)
        }
        guard isCoreFloat(body) else { return nil }
        return Double(text).map(YAMLScalar.double)
    }

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"),
            UInt8(ascii: "+"), UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }

    /// `(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`, the core schema float.
    private static func isCoreFloat(_ body: Substring) -> Bool {
        var bytes = body.utf8[...]
        let digitsBefore = bytes.prefix(while: isDigit).count
        bytes = bytes.dropFirst(digitsBefore)
        var digitsAfter = 0
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            digitsAfter = bytes.prefix(while: isDigit).count
            bytes = bytes.dropFirst(digitsAfter)
        }
        guard digitsBefore > 0 || digitsAfter > 0 else { return false }
        if let e = bytes.first, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
            let exponent = bytes.prefix(while: isDigit).count
            guard exponent > 0 else { return false }
            bytes = bytes.dropFirst(exponent)
        }
        return bytes.isEmpty
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}
