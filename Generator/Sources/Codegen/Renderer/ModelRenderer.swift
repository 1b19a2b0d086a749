/// Renders ``TypeDeclaration``s as Swift: structs (or final classes for
/// recursive types) with coding keys, open enums, `oneOf` enums, aliases.
struct ModelRenderer {
    /// `public`, `package` or `internal`.
    let access: AccessLevel
    /// Renders constraint checks.
    let validation: ValidationRenderer

    func render(_ declaration: TypeDeclaration, into writer: inout SwiftWriter) {
        writer.documentation(declaration.documentation)
        if declaration.isDeprecated { writer.line("@available(*, deprecated)") }
        switch declaration.kind {
        case .alias(let type):
            writer.line("\(access) typealias \(declaration.name) = \(type)")
        case .structure(let shape):
            renderStructure(declaration, shape, into: &writer)
        case .openEnum(let shape):
            renderOpenEnum(declaration, shape, into: &writer)
        case .union(let shape):
            renderUnion(declaration, shape, into: &writer)
        }
    }

    private func renderNested(_ declaration: TypeDeclaration, into writer: inout SwiftWriter) {
        for nested in declaration.nested {
            writer.line("")
            render(nested, into: &writer)
        }
    }

    // MARK: Structures

    private func renderStructure(_ declaration: TypeDeclaration, _ shape: StructureShape, into writer: inout SwiftWriter) {
        let keyword = shape.isRecursive ? "final class" : "struct"
        let binding = shape.isMutable ? "var" : "let"
        let conformances = declaration.isValidatable ? "Codable, Hashable, Sendable, Validatable" : "Codable, Hashable, Sendable"
        writer.block("\(access) \(keyword) \(declaration.name): \(conformances)") { writer in
            for property in shape.properties {
                writer.documentation(property.documentation)
                if property.isDeprecated {
                    // Stored under another name, so that the initialiser and
                    // coding do not use a deprecated symbol (and warn).
                    writer.line("@available(*, deprecated)")
                    if binding == "let" {
                        writer.line("\(access) var \(property.name): \(property.type) { \(property.storageName) }")
                    } else {
                        writer.line("\(access) var \(property.name): \(property.type) { get { \(property.storageName) } set { \(property.storageName) = newValue } }")
                    }
                    writer.line("private \(binding) \(property.storageName): \(property.type)")
                } else {
                    writer.line("\(access) \(binding) \(property.name): \(property.type)")
                }
            }
            if let additional = shape.additionalProperties {
                writer.line("/// Members the schema does not name (`additionalProperties`).")
                writer.line("\(access) \(binding) additionalProperties: [String: \(additional)]")
            }
            if !shape.properties.isEmpty || shape.additionalProperties != nil { writer.line("") }
            renderMemberwiseInit(shape, into: &writer)
            // Coding written out with the runtime's one key type, never a
            // `CodingKeys` enum per type: each such enum costs its type about
            // 700 bytes of iOS code (its raw-value conformances and witness
            // tables), three times what the members' decode and encode cost.
            if !shape.properties.isEmpty || shape.additionalProperties != nil {
                writer.line("")
                renderDecoder(shape, into: &writer)
                writer.line("")
                renderEncoder(shape, into: &writer)
            }
            if shape.isRecursive {
                writer.line("")
                renderClassHashable(declaration.name, shape, into: &writer)
            }
            if declaration.isValidatable {
                writer.line("")
                renderValidate(shape, into: &writer)
            }
            renderNested(declaration, into: &writer)
        }
    }

    private func renderMemberwiseInit(_ shape: StructureShape, into writer: inout SwiftWriter) {
        var arguments: [String] = shape.properties.map { property in
            let label = property.name
            if let value = property.defaultValue ?? property.initializerDefault { return "\(label): \(property.type) = \(value)" }
            if case .optional = property.type { return "\(label): \(property.type) = nil" }
            return "\(label): \(property.type)"
        }
        if let additional = shape.additionalProperties { arguments.append("additionalProperties: [String: \(additional)] = [:]") }
        // Apps build request values: their initialisers say what each
        // argument is. A response-only type's initialiser (for tests and
        // previews) repeats nothing its documented properties already say.
        if shape.isInRequests { writer.documentation(Self.parameterDocumentation(shape)) }
        writer.block("\(access) init(\(arguments.joined(separator: ", ")))") { writer in
            for property in shape.properties {
                writer.line("self.\(SwiftName.unescaped(property.storageName)) = \(property.name)")
            }
            if shape.additionalProperties != nil { writer.line("self.additionalProperties = additionalProperties") }
        }
    }

    /// `- Parameters:` with the first sentence of each property's
    /// description; nil when the spec describes none (no boilerplate).
    static func parameterDocumentation(_ shape: StructureShape) -> String? {
        let described = shape.properties.compactMap { property in
            property.documentation.map { (SwiftName.unescaped(property.name), Documentation.firstSentence($0)) }
        }
        guard !described.isEmpty else { return nil }
        return "- Parameters:\n" + described.map { "  - \($0.0): \($0.1)" }.joined(separator: "\n")
    }

    private func renderDecoder(_ shape: StructureShape, into writer: inout SwiftWriter) {
        if shape.properties.contains(where: \.decodesLeniently) {
            writer.line("/// Decodes a value; fields the spec assumes (`x-assumed`) are nil when the answer differs.")
        } else if shape.properties.contains(where: { $0.defaultValue != nil }) {
            writer.line("/// Decodes a value; absent fields with a schema `default` take it.")
        } else {
            writer.line("/// Decodes a value from its JSON members.")
        }
        writer.block("\(access) init(from decoder: any Decoder) throws") { writer in
            if !shape.properties.isEmpty {
                writer.line("let container = try decoder.container(keyedBy: DynamicCodingKey.self)")
            }
            for property in shape.properties {
                let name = SwiftName.unescaped(property.storageName)
                let key = SwiftLiteral.string(property.wireName)
                if property.decodesLeniently {
                    // A guess of the spec (`x-assumed`): nil, reported once, when the answer differs.
                    let decoded = "container.decodeAssumed(\(Self.decodedType(property.type)).self, forKey: \(key), in: Self.self, required: \(property.isRequired))"
                    writer.line("self.\(name) = \(decoded)" + (property.defaultValue.map { " ?? \($0)" } ?? ""))
                    continue
                }
                switch property.type {
                case .optional(let wrapped):
                    writer.line("self.\(name) = try container.decodeIfPresent(\(wrapped).self, forKey: \(key))")
                default:
                    if let value = property.defaultValue {
                        writer.line("self.\(name) = try container.decodeIfPresent(\(property.type).self, forKey: \(key)) ?? \(value)")
                    } else {
                        writer.line("self.\(name) = try container.decode(\(property.type).self, forKey: \(key))")
                    }
                }
            }
            if let additional = shape.additionalProperties {
                let known = shape.properties.map { SwiftLiteral.string($0.wireName) }.joined(separator: ", ")
                writer.line("self.additionalProperties = try decoder.decodeAdditionalProperties(\(additional).self, knownKeys: [\(known)])")
            }
        }
    }

    /// What a lenient property decodes: the type inside its `?` (keeping a
    /// `Nullable` a request needs), or the type itself when it has a default.
    private static func decodedType(_ type: SwiftType) -> SwiftType {
        if case .optional(let inner) = type { return inner }
        return type
    }

    private func renderEncoder(_ shape: StructureShape, into writer: inout SwiftWriter) {
        // Absent optionals are left out; a required nullable one that a request carries is sent as `null`.
        let sendsNull = shape.needsCustomEncoding
        if sendsNull && shape.properties.contains(where: { $0.isRequired && $0.type.isOptional && !$0.decodesLeniently }) {
            writer.line("/// Encodes the value; absent optionals are left out, required nullable ones are sent as `null`.")
        } else {
            writer.line("/// Encodes the value's JSON members; absent optionals are left out.")
        }
        writer.block("\(access) func encode(to encoder: any Encoder) throws") { writer in
            if !shape.properties.isEmpty {
                writer.line("var container = encoder.container(keyedBy: DynamicCodingKey.self)")
            }
            for property in shape.properties {
                let name = SwiftName.unescaped(property.storageName)
                let key = SwiftLiteral.string(property.wireName)
                if property.type.isOptional && (!property.isRequired || property.decodesLeniently || !sendsNull) {
                    writer.line("try container.encodeIfPresent(self.\(name), forKey: \(key))")
                } else {
                    writer.line("try container.encode(self.\(name), forKey: \(key))")
                }
            }
            if shape.additionalProperties != nil { writer.line("try encoder.encodeAdditionalProperties(self.additionalProperties)") }
        }
    }

    private func renderValidate(_ shape: StructureShape, into writer: inout SwiftWriter) {
        writer.line("/// Checks the spec's constraints on every property; throws `ConstraintViolation` for the first one broken.")
        writer.block("\(access) func validate(_ validator: inout ConstraintValidator) throws") { writer in
            for property in shape.properties {
                let lines = validation.checks(
                    of: property.storageName, at: property.wireName, type: property.type, constraints: property.constraints, elements: property.elementConstraints)
                lines.forEach { writer.line($0) }
            }
            if let additional = shape.additionalProperties, ValidationAnalysis.isValidatable(additional, in: validation.validatable) {
                writer.line("try additionalProperties.validate(&validator)")
            }
        }
    }

    private func renderClassHashable(_ name: String, _ shape: StructureShape, into writer: inout SwiftWriter) {
        var members = shape.properties.map { SwiftName.unescaped($0.storageName) }
        if shape.additionalProperties != nil { members.append("additionalProperties") }
        writer.line("/// Equal when every property is equal.")
        writer.block("\(access) static func == (lhs: \(name), rhs: \(name)) -> Bool") { writer in
            writer.line(members.isEmpty ? "true" : members.map { "lhs.\($0) == rhs.\($0)" }.joined(separator: " && "))
        }
        writer.line("")
        writer.line("/// Hashes every property.")
        writer.block("\(access) func hash(into hasher: inout Hasher)") { writer in
            for member in members { writer.line("hasher.combine(\(member))") }
        }
    }

    // MARK: Enums

    private func renderOpenEnum(_ declaration: TypeDeclaration, _ shape: OpenEnumShape, into writer: inout SwiftWriter) {
        writer.block("\(access) enum \(declaration.name): OpenEnum") { writer in
            for item in shape.cases {
                writer.line("/// \(item.literal)")
                writer.line("case \(item.name)")
            }
            writer.line("/// A value this version of the client does not know, kept as received.")
            writer.line("case unknown(\(shape.rawType))")
            writer.line("")
            writer.line("/// The values the spec lists; a request may send no other.")
            writer.line("\(access) static let knownRawValues: [\(shape.rawType)] = [\(shape.cases.map(\.literal).joined(separator: ", "))]")
            writer.line("")
            writer.line("/// The case for a raw value; unknown values become ``unknown(_:)``.")
            writer.block("\(access) init(rawValue: \(shape.rawType))") { writer in
                writer.line("switch rawValue {")
                for item in shape.cases { writer.line("case \(item.literal): self = .\(SwiftName.unescaped(item.name))") }
                writer.line("default: self = .unknown(rawValue)")
                writer.line("}")
            }
            writer.line("")
            writer.line("/// The raw value as sent on the wire.")
            writer.block("\(access) var rawValue: \(shape.rawType)") { writer in
                writer.line("switch self {")
                for item in shape.cases { writer.line("case .\(SwiftName.unescaped(item.name)): return \(item.literal)") }
                writer.line("case .unknown(let value): return value")
                writer.line("}")
            }
            renderNested(declaration, into: &writer)
        }
    }

    private func renderUnion(_ declaration: TypeDeclaration, _ shape: UnionShape, into writer: inout SwiftWriter) {
        let conformances = declaration.isValidatable ? "Codable, Hashable, Sendable, Validatable" : "Codable, Hashable, Sendable"
        writer.block("\(access) \(shape.isIndirect ? "indirect " : "")enum \(declaration.name): \(conformances)") { writer in
            for member in shape.members {
                writer.line("case \(member.name)(\(member.type))")
            }
            if shape.keepsUndocumented {
                writer.line("/// A member this version of the client does not know, kept as JSON.")
                writer.line("case undocumented(JSONValue)")
            }
            writer.line("")
            writer.line("/// Decodes the member the value matches.")
            writer.block("\(access) init(from decoder: any Decoder) throws") { writer in
                if let property = shape.discriminator, let defaultMember = shape.members.first(where: { $0.name == shape.defaultMember }) {
                    // 3.2's defaultMapping: an absent or unmapped value is the default member.
                    writer.line("switch try decoder.discriminatorValueIfPresent(\(SwiftLiteral.string(property))) {")
                    for member in shape.members where !member.discriminatorValues.isEmpty {
                        writer.line("case \(member.discriminatorValues.map { SwiftLiteral.string($0) + "?" }.joined(separator: ", ")): self = .\(SwiftName.unescaped(member.name))(try decoder.decodeMember(\(member.type).self))")
                    }
                    writer.line("default: self = .\(SwiftName.unescaped(defaultMember.name))(try decoder.decodeMember(\(defaultMember.type).self))")
                    writer.line("}")
                } else if let property = shape.discriminator {
                    writer.line("switch try decoder.discriminatorValue(\(SwiftLiteral.string(property))) {")
                    for member in shape.members where !member.discriminatorValues.isEmpty {
                        writer.line("case \(member.discriminatorValues.map(SwiftLiteral.string).joined(separator: ", ")): self = .\(SwiftName.unescaped(member.name))(try decoder.decodeMember(\(member.type).self))")
                    }
                    writer.line("default: self = .undocumented(try decoder.decodeMember(JSONValue.self))")
                    writer.line("}")
                } else {
                    // The member the value matches best (``UnionMatch``), not the first that decodes.
                    writer.line("var match = UnionMatch<\(declaration.name)>(decoder)")
                    for member in shape.members {
                        let keys = member.objectKeys.map { "[" + $0.map(SwiftLiteral.string).joined(separator: ", ") + "]" } ?? "nil"
                        writer.line("match.consider(keys: \(keys)) { .\(SwiftName.unescaped(member.name))(try $0.decodeMember(\(member.type).self)) }")
                    }
                    let names = shape.members.map { SwiftLiteral.string($0.type.description) }.joined(separator: ", ")
                    writer.line("self = try match.chosen(typeName: \(SwiftLiteral.string(declaration.name)), members: [\(names)])")
                }
            }
            writer.line("")
            writer.line("/// Encodes the member's value.")
            writer.block("\(access) func encode(to encoder: any Encoder) throws") { writer in
                writer.line("switch self {")
                for member in shape.members { writer.line("case .\(SwiftName.unescaped(member.name))(let value): try encoder.encodeMember(value)") }
                if shape.keepsUndocumented { writer.line("case .undocumented(let value): try encoder.encodeMember(value)") }
                writer.line("}")
            }
            if declaration.isValidatable {
                writer.line("")
                writer.line("/// Checks the spec's constraints on the member's value; throws `ConstraintViolation` for the first one broken.")
                writer.block("\(access) func validate(_ validator: inout ConstraintValidator) throws") { writer in
                    writer.line("switch self {")
                    var checkedCount = 0
                    for member in shape.members {
                        let lines = validation.memberChecks(
                            of: "value", type: member.type, constraints: member.constraints, elements: member.elementConstraints)
                        guard !lines.isEmpty else { continue }
                        checkedCount += 1
                        writer.line("case .\(SwiftName.unescaped(member.name))(let value):")
                        lines.forEach { writer.line("    " + $0) }
                    }
                    if checkedCount < shape.members.count || shape.keepsUndocumented { writer.line("default: break") }
                    writer.line("}")
                }
            }
            renderNested(declaration, into: &writer)
        }
    }
}
