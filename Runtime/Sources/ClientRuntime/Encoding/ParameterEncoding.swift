/// A parameter value, shaped as OpenAPI serialises it.
public enum ParameterValue: Sendable, Hashable {
    /// A single value, already rendered as text (`42`, `true`, `2024-05-01`).
    case primitive(String)
    /// A list of values.
    case array([String])
    /// An object's properties, in order.
    case object([(String, String)])

    /// Compares element-wise.
    public static func == (lhs: ParameterValue, rhs: ParameterValue) -> Bool {
        switch (lhs, rhs) {
        case (.primitive(let a), .primitive(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)): return a.map(\.0) == b.map(\.0) && a.map(\.1) == b.map(\.1)
        default: return false
        }
    }

    /// Hashes the contents.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .primitive(let value): hasher.combine(value)
        case .array(let values): hasher.combine(values)
        case .object(let pairs):
            for (key, value) in pairs {
                hasher.combine(key)
                hasher.combine(value)
            }
        }
    }
}

/// OpenAPI parameter serialisation (`style` and `explode`) for query strings,
/// form bodies and paths, with RFC 3986 percent-encoding.
public enum ParameterEncoding {
    /// The query `style`s.
    public enum QueryStyle: String, Sendable {
        /// `form` (the default): `id=3&id=4`, or `id=3,4` without explode.
        case form
        /// `spaceDelimited`: `id=3%204`.
        case spaceDelimited
        /// `pipeDelimited`: `id=3|4`.
        case pipeDelimited
        /// `deepObject`: `filter[color]=red`.
        case deepObject
    }

    /// The `name=value` pairs (already percent-encoded) a flat query
    /// parameter becomes; generated code calls
    /// `items(name:value:style:explode:allowReserved:)`, which takes any value.
    public static func queryItems(name: String, value: ParameterValue, style: QueryStyle = .form, explode: Bool = true) -> [String] {
        let key = escape(name, allowing: queryNameSafe)
        switch (value, style) {
        case (.primitive(let text), _):
            return ["\(key)=\(escape(text, allowing: queryValueSafe))"]
        case (.array(let items), .form):
            if explode { return items.map { "\(key)=\(escape($0, allowing: queryValueSafe))" } }
            return ["\(key)=" + items.map { escape($0, allowing: queryValueSafe) }.joined(separator: ",")]
        case (.array(let items), .spaceDelimited), (.array(let items), .pipeDelimited):
            // Exploded, each value a parameter of its own, as `form` writes it.
            if explode { return items.map { "\(key)=\(escape($0, allowing: queryValueSafe))" } }
            return ["\(key)=" + items.map { escape($0, allowing: queryValueSafe) }.joined(separator: style == .spaceDelimited ? "%20" : "%7C")]
        case (.array(let items), .deepObject):
            // Indexed brackets, as `items(name:value:style:explode:allowReserved:)` writes them.
            return items.enumerated().map { "\(key)%5B\($0.offset)%5D=\(escape($0.element, allowing: queryValueSafe))" }
        case (.object(let pairs), .deepObject):
            return pairs.map { "\(key)%5B\(escape($0.0, allowing: queryNameSafe))%5D=\(escape($0.1, allowing: queryValueSafe))" }
        case (.object(let pairs), _) where explode:
            return pairs.map { "\(escape($0.0, allowing: queryNameSafe))=\(escape($0.1, allowing: queryValueSafe))" }
        case (.object(let pairs), _):
            let separator = style == .spaceDelimited ? "%20" : style == .pipeDelimited ? "%7C" : ","
            return ["\(key)=" + pairs.flatMap { [escape($0.0, allowing: queryValueSafe), escape($0.1, allowing: queryValueSafe)] }.joined(separator: separator)]
        }
    }

    /// A query string from parameters in order, nil values left out: `a=1&b=x%20y`.
    public static func query(_ items: [[String]]) -> String {
        items.flatMap { $0 }.joined(separator: "&")
    }

    /// A path segment (`simple` style): a value with `/`, `?`, `#` and spaces escaped.
    public static func pathSegment(_ value: ParameterValue) -> String {
        pathValue(name: "", value: value, style: "simple", explode: false)
    }

    /// A path parameter in its `style` (`simple`, `label`, `matrix`) and
    /// `explode` form: `3,4`, `.3.4`, `;id=3;id=4`, `role=admin,name=a`.
    public static func pathValue(name: String, value: ParameterValue, style: String, explode: Bool) -> String {
        let escapedName = escape(name, allowing: pathSafe)
        func item(_ text: String) -> String { escape(text, allowing: pathSafe) }
        switch (value, style) {
        case (.primitive(let text), "label"): return "." + item(text)
        case (.primitive(let text), "matrix"): return ";\(escapedName)=" + item(text)
        case (.primitive(let text), _): return item(text)
        case (.array(let items), "label"): return "." + items.map(item).joined(separator: explode ? "." : ",")
        case (.array(let items), "matrix"):
            return explode ? items.map { ";\(escapedName)=" + item($0) }.joined() : ";\(escapedName)=" + items.map(item).joined(separator: ",")
        case (.array(let items), _): return items.map(item).joined(separator: ",")
        case (.object(let pairs), "label"):
            return "." + (explode ? pairs.map { item($0.0) + "=" + item($0.1) }.joined(separator: ".") : pairs.flatMap { [item($0.0), item($0.1)] }.joined(separator: ","))
        case (.object(let pairs), "matrix"):
            return explode ? pairs.map { ";" + item($0.0) + "=" + item($0.1) }.joined() : ";\(escapedName)=" + pairs.flatMap { [item($0.0), item($0.1)] }.joined(separator: ",")
        case (.object(let pairs), _):
            return explode ? pairs.map { item($0.0) + "=" + item($0.1) }.joined(separator: ",") : pairs.flatMap { [item($0.0), item($0.1)] }.joined(separator: ",")
        }
    }

    /// RFC 3986 unreserved characters.
    static let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)
    static let pathSafe = unreserved.union(":@!$'()*+;=".utf8)
    static let queryNameSafe = unreserved
    static let queryValueSafe = unreserved.union(":@/?!$'()*;".utf8)

    /// Percent-encodes every byte of `text` outside `allowed`.
    static func escape(_ text: String, allowing allowed: Set<UInt8>) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if allowed.contains(byte) {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                result += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return result
    }
}
