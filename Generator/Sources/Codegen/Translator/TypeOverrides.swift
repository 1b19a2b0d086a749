import OpenAPIModel

/// Types of the app's own that generated code uses in place of the ones the
/// spec would give: by component schema name (`Price` -> `Decimal`) or by
/// `format` (`uuid` -> `Foundation.UUID`, for every scalar of that format).
///
/// An overridden component is not declared; every use of it, and of a
/// scalar of an overridden format, is the app's type, which must be
/// `Codable`, `Hashable` and `Sendable` (the generated `Client` checks it
/// at compile time, naming the type). Its values are not checked against
/// the spec's constraints (the type is the app's to make valid), and a
/// `default` is not written as a literal of it. The JSON it encodes to is
/// what goes on the wire: `Foundation.UUID` writes upper case, where the
/// default `LowercaseUUID` writes lower case.
public struct TypeOverrides: Sendable, Hashable, Codable {
    /// Component schema name -> Swift type.
    public var schemas: [String: String]
    /// `format` -> Swift type.
    public var formats: [String: String]

    /// Creates overrides.
    public init(schemas: [String: String] = [:], formats: [String: String] = [:]) {
        self.schemas = schemas
        self.formats = formats
    }

    private enum CodingKeys: String, CodingKey {
        case schemas, formats
    }

    /// Reads `{"schemas": {...}, "formats": {...}}`, each optional.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        schemas = try container.decodeIfPresent([String: String].self, forKey: .schemas) ?? [:]
        formats = try container.decodeIfPresent([String: String].self, forKey: .formats) ?? [:]
    }

    /// Whether nothing is overridden.
    public var isEmpty: Bool { schemas.isEmpty && formats.isEmpty }

    /// Only the entries whose type is a Swift type name (what reaches
    /// generated code).
    public var valid: TypeOverrides {
        TypeOverrides(schemas: schemas.filter { Self.isTypeName($0.value) }, formats: formats.filter { Self.isTypeName($0.value) })
    }

    /// The app's types, each once, sorted.
    public var typeNames: [String] { Set(schemas.values).union(formats.values).sorted() }

    /// What is wrong with the overrides for `document`, said so a person can
    /// fix it: a schema name the spec does not have, a type name that is not
    /// a Swift type name (letters, digits and `_`, dot-separated:
    /// `Decimal`, `Foundation.UUID`, `MyApp.Money`).
    public func problems(in document: OpenAPIDocument) -> [String] {
        var problems: [String] = []
        for name in schemas.keys.sorted() where document.components.schemas[name] == nil {
            problems.append("schema '\(name)' (the spec's components/schemas has no schema of this name)")
        }
        for (key, type) in schemas.sorted(by: { $0.key < $1.key }).map({ ("schema '\($0.key)'", $0.value) })
            + formats.sorted(by: { $0.key < $1.key }).map({ ("format '\($0.key)'", $0.value) })
        where !Self.isTypeName(type) {
            problems.append("\(key) -> '\(type)' (not a Swift type name: letters, digits and _, dot-separated, such as Foundation.UUID)")
        }
        return problems
    }

    /// Whether `text` is a (possibly module-qualified) Swift type name.
    static func isTypeName(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return !parts.isEmpty && parts.allSatisfy { part in
            guard let first = part.unicodeScalars.first, first == "_" || (first.isASCII && first.properties.isAlphabetic) else { return false }
            return part.unicodeScalars.allSatisfy { $0 == "_" || ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) }
                && !SwiftName.keywords.contains(String(part))
        }
    }
}
