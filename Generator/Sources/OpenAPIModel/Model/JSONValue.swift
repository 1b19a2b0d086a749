/// A JSON value from the spec: examples, defaults, enum members, `const`,
/// and `x-` extensions. Object keys keep their document order.
public indirect enum JSONValue: Sendable, Hashable, CustomStringConvertible {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// An integer.
    case int(Int)
    /// A non-integer number (or an integer too large for `Int`).
    case double(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, in document order.
    case object(OrderedMap<JSONValue>)

    /// The JSON Schema type name of the value (`integer`, `string`, ...).
    public var jsonTypeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .int: return "integer"
        case .double(let value): return value.rounded() == value && value.isFinite ? "integer" : "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }

    /// The string, when the value is one.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// Compact JSON text.
    public var description: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .int(let value): return String(value)
        case .double(let value): return value.isFinite ? String(value) : "\"\(value)\""
        case .string(let value): return Self.quote(value)
        case .array(let values): return "[" + values.map(\.description).joined(separator: ",") + "]"
        case .object(let map): return "{" + map.map { Self.quote($0.key) + ":" + $0.value.description }.joined(separator: ",") + "}"
        }
    }

    /// A JSON string literal.
    public static func quote(_ string: String) -> String {
        var result = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case let c where c.value < 0x20:
                let hex = String(c.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
