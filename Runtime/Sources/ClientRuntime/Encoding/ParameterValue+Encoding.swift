import Foundation

extension JSONValue {
    /// The JSON a value encodes to, with the date rules of ``JSONCoding``.
    public init<Value: Encodable>(encoding value: Value) throws {
        if let json = value as? JSONValue {
            self = json
            return
        }
        // The common parameter types without an encoder round trip (every
        // path, query, header and cookie parameter comes through here).
        switch value {
        case let text as String:
            self = .string(text)
            return
        case let flag as Bool:
            self = .bool(flag)
            return
        case let number as Int:
            self = .int(number)
            return
        case let number as Int32:
            self = .int(Int(number))
            return
        case let number as Int64:
            self = .int(Int(number))
            return
        case let texts as [String]:
            self = .array(texts.map(JSONValue.string))
            return
        case let identifier as LowercaseUUID:
            self = .string(identifier.uuidString)
            return
        default:
            break
        }
        let data = try JSONCoding.makeEncoder().encode(value)
        self = try JSONDecoder().decode(JSONValue.self, from: data)
    }

    /// The text of a scalar as it goes into a URL or header: strings as they
    /// are, numbers and booleans as JSON writes them; nil for arrays and objects.
    var parameterText: String? {
        switch self {
        case .null: return ""
        case .bool(let value): return value ? "true" : "false"
        case .int(let value): return String(value)
        case .double(let value): return value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        case .string(let value): return value
        case .array, .object: return nil
        }
    }
}

/// A parameter whose value cannot be written in the parameter's style.
public struct ParameterEncodingError: Error, Sendable, CustomStringConvertible {
    /// What was wrong.
    public let reason: String

    /// `cannot encode parameter: ...`.
    public var description: String { "cannot encode parameter: \(reason)" }
}

extension ParameterValue {
    /// Shapes any `Encodable` value (strings, numbers, dates, UUIDs, open
    /// enums, arrays of them, flat objects) as a parameter.
    public init<Value: Encodable>(encoding value: Value) throws {
        try self.init(json: JSONValue(encoding: value))
    }

    /// Shapes a JSON value as a parameter; object members are sorted by key
    /// so the encoding is stable.
    public init(json: JSONValue) throws {
        switch json {
        case .array(let items):
            self = .array(try items.map { item in
                guard let text = item.parameterText else { throw ParameterEncodingError(reason: "nested arrays and objects have no parameter form") }
                return text
            })
        case .object(let members):
            self = .object(try JSONValue.sortedMembers(members).map { key, member in
                guard let text = member.parameterText else { throw ParameterEncodingError(reason: "'\(key)' is nested; only flat objects have a parameter form") }
                return (key, text)
            })
        default:
            self = .primitive(json.parameterText ?? "")
        }
    }

    /// The `simple`-style text of a header or cookie value: objects as
    /// `k,v,k2,v2`, or `k=v,k2=v2` with `explode`.
    public func headerText(explode: Bool) -> String {
        switch self {
        case .primitive(let text): return text
        case .array(let items): return items.joined(separator: ",")
        case .object(let pairs):
            return explode ? pairs.map { "\($0.0)=\($0.1)" }.joined(separator: ",") : pairs.flatMap { [$0.0, $0.1] }.joined(separator: ",")
        }
    }
}

/// A parameter the spec defines with `content: application/json` instead of
/// a `schema`: sent as its JSON text (`filter={"status":"open"}`, escaped).
public struct JSONParameter<Value: Encodable & Sendable>: Encodable, Sendable {
    /// The value.
    public let value: Value

    /// Wraps a value.
    public init(_ value: Value) {
        self.value = value
    }

    /// Encodes the JSON text of the value as a string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(String(decoding: try JSONCoding.makeEncoder().encode(value), as: UTF8.self))
    }
}
