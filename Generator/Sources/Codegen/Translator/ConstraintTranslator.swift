import OpenAPIModel

/// Reads the constraints of the schema at one use site (a property, a
/// parameter, a body) into ``ConstraintDeclaration``s for the type generated
/// there: length and `pattern` on `String`s, bounds and `multipleOf` on
/// numbers, item counts on arrays, and the same for each element of an array
/// or each value of a map. Constraints on a type that carries them itself (a
/// structure, an enum, a union) are checked by that type's `validate`.
final class ConstraintTranslator {
    private let document: OpenAPIDocument
    private let mapping: TypeMapping
    /// Pattern source -> its declaration, so each distinct pattern compiles once.
    private var patternsBySource: [String: PatternDeclaration] = [:]
    private var patternNames = NameScope(reserved: ["init", "Type", "self"])
    /// Every pattern, in the order first used.
    private(set) var patterns: [PatternDeclaration] = []

    /// The app's types (``TypeOverrides``): values of them are the app's to
    /// make valid, and are not checked.
    private let overrideTypes: Set<String>

    init(document: OpenAPIDocument, overrides: TypeOverrides = TypeOverrides()) {
        self.document = document
        self.mapping = TypeMapping(document: document, formatOverrides: overrides.formats)
        self.overrideTypes = Set(overrides.typeNames).subtracting(["String", "Int", "Int32", "Int64", "Double", "Float", "Decimal"])
    }

    /// The constraints on the value itself and on each of its elements;
    /// none when they are `assumed` (the use site is marked `x-assumed`) or
    /// a schema they come from is: a guess is never checked before sending.
    func constraints(
        of schema: RefOr<Schema>, type: SwiftType, wireName: String, assumed: Bool = false
    ) -> (value: ConstraintDeclaration?, elements: ConstraintDeclaration?) {
        if assumed || resolvedChain(schema).contains(where: { AssumedExtension.isMarked($0.extensions) }) { return (nil, nil) }
        let isSecret = SecretNames.isSecretLike(wireName) || resolvedChain(schema).contains { $0.format == "password" }
        switch Self.unwrapped(type) {
        case .array(let element):
            let chain = resolvedChain(schema)
            var value = ConstraintDeclaration(isSecret: isSecret)
            value.minItems = chain.lazy.compactMap(\.minItems).first
            value.maxItems = chain.lazy.compactMap(\.maxItems).first
            let items = chain.lazy.compactMap(\.items).first
            let elements = items.flatMap { scalarConstraints(of: $0, type: element, isSecret: isSecret, wireName: wireName) }
            return (value.isEmpty ? nil : value, elements)
        case .dictionary(let element):
            guard case .schema(let values)? = resolvedChain(schema).lazy.compactMap(\.additionalProperties).first else { return (nil, nil) }
            return (nil, scalarConstraints(of: values, type: element, isSecret: isSecret, wireName: wireName))
        default:
            return (scalarConstraints(of: schema, type: type, isSecret: isSecret, wireName: wireName), nil)
        }
    }

    /// Constraints on a string or number value; nil for other types, and for
    /// named types that check themselves.
    private func scalarConstraints(of schema: RefOr<Schema>, type: SwiftType, isSecret: Bool, wireName: String) -> ConstraintDeclaration? {
        let chain = resolvedChain(schema)
        if chain.contains(where: { AssumedExtension.isMarked($0.extensions) }) { return nil }
        if case .named(let name) = Self.unwrapped(type), overrideTypes.contains(name) { return nil }
        guard let kind = scalarKind(of: chain) else { return nil }
        var result = ConstraintDeclaration(isSecret: isSecret)
        switch kind {
        case .string:
            result.minLength = chain.lazy.compactMap(\.minLength).first
            result.maxLength = chain.lazy.compactMap(\.maxLength).first
            if let source = chain.lazy.compactMap(\.pattern).first, RegularExpressionSupport.compiles(source) {
                result.pattern = pattern(source, suggestedName: Self.patternName(type: type, wireName: wireName))
            }
        case .number:
            result.minimum = chain.lazy.compactMap(\.minimum).first
            result.exclusiveMinimum = chain.lazy.compactMap(\.exclusiveMinimum).first
            result.maximum = chain.lazy.compactMap(\.maximum).first
            result.exclusiveMaximum = chain.lazy.compactMap(\.exclusiveMaximum).first
            result.multipleOf = chain.lazy.compactMap(\.multipleOf).first.flatMap { $0 > 0 ? $0 : nil }
        }
        return result.isEmpty ? nil : result
    }

    private enum ScalarKind { case string, number }

    /// A plain string (not a date, UUID, URL or bytes) or a number, read
    /// from the schema the way the type mapping reads it; nil for anything
    /// that gets a declaration or another type.
    private func scalarKind(of chain: [Schema]) -> ScalarKind? {
        guard let schema = chain.first(where: { !$0.types.isEmpty }) ?? chain.first else { return nil }
        if mapping.needsDeclaration(schema) { return nil }
        switch mapping.swiftType(for: schema, named: { _ in "" }) {
        case .named("String"): return .string
        case .named("Int"), .named("Int32"), .named("Int64"), .named("Double"), .named("Float"), .named("Decimal"): return .number
        default: return nil
        }
    }

    /// The schema and what it stands for: through `$ref`s, and through an
    /// `allOf` of one member with annotations beside it (how 3.0 documents a
    /// reference). The first schema in the chain that sets a keyword wins.
    private func resolvedChain(_ schema: RefOr<Schema>) -> [Schema] {
        var chain: [Schema] = []
        var next: RefOr<Schema>? = schema
        while let current = next, chain.count < 8 {
            guard let resolved = document.resolve(current) else { break }
            chain.append(resolved)
            next = resolved.allOf.count == 1 && resolved.properties.isEmpty ? resolved.allOf[0] : nil
        }
        return chain
    }

    /// The shared declaration of a pattern, named after its first use.
    private func pattern(_ source: String, suggestedName: String) -> PatternDeclaration {
        if let existing = patternsBySource[source] { return existing }
        let declaration = PatternDeclaration(name: patternNames.claim(suggestedName), source: source)
        patternsBySource[source] = declaration
        patterns.append(declaration)
        return declaration
    }

    /// After the alias the value has (`PhoneNumber` -> `phoneNumber`), else
    /// after the field (`login`).
    private static func patternName(type: SwiftType, wireName: String) -> String {
        var base = wireName
        if case .named(let name) = unwrapped(type), name != "String" { base = String(name.split(separator: ".").last ?? "") }
        return SwiftName.memberName(base, fallback: "pattern")
    }

    /// The type without `?` and `Nullable`.
    static func unwrapped(_ type: SwiftType) -> SwiftType {
        switch type {
        case .optional(let wrapped), .nullable(let wrapped): return unwrapped(wrapped)
        default: return type
        }
    }
}

/// Which field names hold secrets or personal data whose values never
/// appear in a ``ConstraintDeclaration``'s violation message.
enum SecretNames {
    /// Fragments of names (lower case, without `_` and `-`).
    static let fragments = [
        "phone", "msisdn", "otp", "passcode", "password", "passwd", "secret", "token", "apikey", "key", "pin", "code",
        "verifier", "e164", "credential", "authorization", "cookie", "session", "ssn", "iban", "cardnumber", "cvv", "cvc",
    ]

    private static let fragmentBytes = fragments.map { Array($0.utf8) }

    /// Whether a wire name looks like one of a secret (`phone_number`,
    /// `otp`, `refresh_token`, `code_verifier`, `X-API-Key`): masking a
    /// harmless field costs a less helpful message, showing a secret costs
    /// a leak in logs, so the list errs on the side of masking.
    static func isSecretLike(_ wireName: String) -> Bool {
        // A plain byte search: this runs for every property of a spec, and
        // both Foundation's `contains` (through `NSString`) and the standard
        // library's generic `firstRange(of:)` cost more than all the rest
        // of translation on the GitHub spec.
        let folded = Array(wireName.lowercased().utf8.filter { $0 != UInt8(ascii: "_") && $0 != UInt8(ascii: "-") && $0 != UInt8(ascii: ".") })
        return fragmentBytes.contains { fragment in
            guard fragment.count <= folded.count else { return false }
            for start in 0...(folded.count - fragment.count) where folded[start] == fragment[0] {
                if folded[start..<(start + fragment.count)].elementsEqual(fragment) { return true }
            }
            return false
        }
    }
}
