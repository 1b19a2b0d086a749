import Foundation

/// How one field of an `application/x-www-form-urlencoded` body is written:
/// the spec's Encoding object for that property (`style`, `explode`,
/// `allowReserved`, `contentType`). Generated clients build it; the runtime
/// alone reads it.
public struct FormFieldEncoding: Sendable, Hashable {
    /// `form` (the default), `spaceDelimited`, `pipeDelimited` or `deepObject`.
    package let style: ParameterEncoding.QueryStyle
    /// `explode`; OpenAPI's default is true for `form`.
    package let explode: Bool
    /// Whether RFC 3986 reserved characters go as they are (`ParameterEncoding.reservedAllowed`).
    package let allowReserved: Bool
    /// A media type for the field: a JSON one sends the value's JSON text.
    package let contentType: String?

    /// An encoding; the defaults are OpenAPI's.
    public init(style: ParameterEncoding.QueryStyle = .form, explode: Bool? = nil, allowReserved: Bool = false, contentType: String? = nil) {
        self.style = style
        self.explode = explode ?? (style == .form)
        self.allowReserved = allowReserved
        self.contentType = contentType
    }
}

extension ParameterEncoding {
    /// The reserved characters (RFC 3986) that `allowReserved: true` sends
    /// unescaped in a query or form value: `:/?[]@!$'()*,;`. `&`, `=`, `+`
    /// and `#` stay escaped even then: in a query they would end the value,
    /// start another one, read as a space, or end the URL, and no server
    /// would read back what was sent.
    package static let reservedAllowed = queryValueSafe.union(":/?[]@!$'()*,;".utf8)

    /// The `name=value` pairs (percent-encoded) of a query parameter or a
    /// form field, for every value its schema allows.
    ///
    /// Scalars and flat arrays and objects follow OpenAPI's `style` and
    /// `explode` (`id=3&id=4`, `id=3,4`, `color=R,100,G,200`, `R=100&G=200`).
    /// Where OpenAPI defines no form (anything in `deepObject`, and any
    /// value nested in an array or object), the value is written with the
    /// bracket convention Rails, Rack, PHP, `qs` and Stripe read:
    /// `filter[color]=red`, `line_items[0][price]=p_1`, arrays indexed from
    /// zero (`expand[0]=a&expand[1]=b`). Indices rather than `[]`: an
    /// element that is an object spans several pairs, and only an index
    /// says which pairs belong to one element. Brackets are percent-encoded
    /// (`%5B`, `%5D`), as browsers send them; every such server decodes
    /// them first.
    package static func items(name: String, value: JSONValue, style: QueryStyle = .form, explode: Bool = true, allowReserved: Bool = false) -> [String] {
        let valueSafe = allowReserved ? reservedAllowed : queryValueSafe
        let key = escape(name, allowing: queryNameSafe)
        func text(_ scalar: JSONValue) -> String { escape(scalar.parameterText ?? "", allowing: valueSafe) }
        switch value {
        case .null:
            return []
        case .array(let elements) where style != .deepObject && elements.allSatisfy(\.isScalar):
            let texts = elements.map(text)
            // Exploded, each value a parameter of its own, whatever the delimiter.
            if explode { return texts.map { "\(key)=\($0)" } }
            return ["\(key)=" + texts.joined(separator: delimiter(style))]
        case .object(let members) where style != .deepObject:
            let sorted = JSONValue.sortedMembers(members).filter { $0.value != .null }
            if explode {
                // Each member a parameter of its own; a nested member in brackets under its name.
                return sorted.flatMap { member in
                    member.value.isScalar
                        ? ["\(escape(member.key, allowing: queryNameSafe))=\(text(member.value))"]
                        : bracketItems(prefix: escape(member.key, allowing: queryNameSafe), value: member.value, valueSafe: valueSafe)
                }
            }
            guard sorted.allSatisfy({ $0.value.isScalar }) else { return bracketItems(prefix: key, value: value, valueSafe: valueSafe) }
            return ["\(key)=" + sorted.flatMap { [escape($0.key, allowing: valueSafe), text($0.value)] }.joined(separator: delimiter(style))]
        case .array, .object:
            return bracketItems(prefix: key, value: value, valueSafe: valueSafe)
        default:
            return ["\(key)=\(text(value))"]
        }
    }

    /// What joins the values of an unexploded array or object: `,`, or the
    /// escaped space or pipe of the delimited styles.
    private static func delimiter(_ style: QueryStyle) -> String {
        switch style {
        case .spaceDelimited: return "%20"
        case .pipeDelimited: return "%7C"
        case .form, .deepObject: return ","
        }
    }

    /// `prefix[a][0][b]=v` pairs for every scalar inside `value`; `prefix`
    /// is already escaped. An empty array or object writes nothing, as a
    /// browser's form does.
    static func bracketItems(prefix: String, value: JSONValue, valueSafe: Set<UInt8>) -> [String] {
        switch value {
        case .null:
            return []
        case .array(let elements):
            return elements.enumerated().flatMap { index, element in
                bracketItems(prefix: "\(prefix)%5B\(index)%5D", value: element, valueSafe: valueSafe)
            }
        case .object(let members):
            return JSONValue.sortedMembers(members).flatMap { member in
                bracketItems(prefix: "\(prefix)%5B\(escape(member.key, allowing: queryNameSafe))%5D", value: member.value, valueSafe: valueSafe)
            }
        default:
            return ["\(prefix)=\(escape(value.parameterText ?? "", allowing: valueSafe))"]
        }
    }

    /// The pairs of an `application/x-www-form-urlencoded` body: each
    /// member of the object `body` as its field's encoding says, or by
    /// default `form` with `explode` for scalars and arrays of scalars (OpenAPI's
    /// default) and brackets for objects and nested arrays (OpenAPI's
    /// default would spread an object's members as fields of their own,
    /// losing its name; the bracket form is what form-reading servers
    /// read). A field whose `contentType` is JSON carries its JSON text.
    package static func formItems(_ body: JSONValue, encodings: [String: FormFieldEncoding] = [:]) throws -> [String] {
        guard case .object(let members) = body else {
            throw ParameterEncodingError(reason: "an application/x-www-form-urlencoded body must be an object")
        }
        var items: [String] = []
        for (key, member) in JSONValue.sortedMembers(members) where member != .null {
            let encoding = encodings[key]
            if let contentType = encoding?.contentType, contentType.isJSONMediaType {
                let json = String(decoding: try JSONCoding.makeEncoder().encode(member), as: UTF8.self)
                items.append("\(escape(key, allowing: queryNameSafe))=\(escape(json, allowing: encoding?.allowReserved == true ? reservedAllowed : queryValueSafe))")
                continue
            }
            let style = encoding?.style ?? (member.isScalar || member.isArrayOfScalars ? .form : .deepObject)
            items += self.items(name: key, value: member, style: style, explode: encoding?.explode ?? true, allowReserved: encoding?.allowReserved ?? false)
        }
        return items
    }
}

extension JSONValue {
    /// Whether the value is a string, number, boolean or null.
    var isScalar: Bool {
        switch self {
        case .array, .object: return false
        default: return true
        }
    }

    /// Whether the value is an array whose elements are all scalars.
    var isArrayOfScalars: Bool {
        if case .array(let elements) = self { return elements.allSatisfy(\.isScalar) }
        return false
    }
}

extension String {
    /// `application/json`, `application/problem+json`, `text/json`, with or without parameters.
    package var isJSONMediaType: Bool {
        let type = split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        return type == "application/json" || type == "text/json" || type.hasSuffix("+json")
    }
}
