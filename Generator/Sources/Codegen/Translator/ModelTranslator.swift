import OpenAPIModel

/// Translates schemas into ``TypeDeclaration``s: component schemas become
/// top-level types, inline object, enum and composition schemas become
/// types nested in the type that uses them, named from their position.
final class ModelTranslator {
    /// The document being translated.
    let document: OpenAPIDocument
    /// Top-level declarations, in document order.
    private(set) var declarations: [TypeDeclaration] = []
    /// Component schema name -> Swift type name.
    private(set) var componentTypeNames: [String: String] = [:]
    /// Component schema name -> the app's type that stands for it
    /// (``TypeOverrides/schemas``).
    let schemaOverrides: [String: String]
    /// Top-level names in use.
    var topLevelNameScope: NameScope
    /// Names no nested type may take: every component type, `CodingKeys`.
    private var nestedReservedNames: Set<String> = []
    /// Declared open enums by qualified name (a default of one is its case).
    private var enumShapes: [String: OpenEnumShape] = [:]
    /// How deep inline references are being followed (guards non-component cycles).
    private var inlineDepth = 0
    private let mapping: TypeMapping
    /// Reads constraints at use sites and names the patterns.
    let constraints: ConstraintTranslator
    /// ``mergedObject(_:depth:)`` of each referenced schema at each depth:
    /// `allOf` members that reference the same schema (`A: allOf [B, B]`,
    /// `B: allOf [C, C]`, ...) would otherwise be merged once per path to
    /// them, exponentially many.
    private var mergedReferences: [MergedReferenceKey: Schema?] = [:]
    /// How many `allOf` members were merged (tests).
    private(set) var mergeSteps = 0

    /// How many more members (properties, enum cases, union cases) may be
    /// declared (``OutputLimit/members``).
    var membersLeft = Int.max
    /// The declaration that passed ``membersLeft``, and where its schema is;
    /// nothing is declared after it.
    private(set) var limitPassedAt: (construct: String, location: SourceLocation)?

    private struct MergedReferenceKey: Hashable {
        let target: ReferenceTarget
        let depth: Int
    }

    /// Names that generated code or the runtime declare, or that would shadow
    /// standard types.
    static let reservedTopLevelNames: Set<String> = ([
        "Client", "APIProtocol", "Server", "Operations", "Response", "APIError", "StreamedJSONArray", "StreamedElement", "JSONValue", "Nullable", "OpenEnum", "CalendarDate",
        "EmptyBody", "ClientCore", "RequestBuilder", "ClientResponse", "MultipartForm", "OperationDescriptor",
        "SecuritySchemeDescriptor", "UndocumentedResponseError", "ResponseDecodingError", "String", "Int", "Int32",
        "Int64", "Double", "Float", "Bool", "Date", "Data", "URL", "UUID", "Decimal", "Array", "Dictionary", "Set",
        "Optional", "Error", "Codable", "Encodable", "Decodable", "Hashable", "Sendable", "Equatable", "Foundation",
        "Type", "Any", "AnyObject", "Self", "Protocol", "Never", "Void", "Character", "Result", "Task", "Actor",
        "CodingKeys", "HTTPTypes", "OpenAPIRuntime", "ClientRuntime", "Swift", "Encoder", "Decoder", "CodingKey",
        "Validatable", "ValueConstraints", "ValidationPattern", "ValidationPatterns", "ConstraintValidator",
        "ConstraintViolation", "ConstraintChecks", "ConstrainedValue", "ConstrainedElements", "ValuePathComponent",
        "DynamicCodingKey", "AssumedFields", "AssumedFieldReport", "AssumedFieldObservation",
    ] as Set<String>).union(runtimeNamesAtTopLevel)

    /// Runtime types generated code names only at top level (in `Client`'s
    /// methods), never inside a declared type: a schema of such a name
    /// takes the suffix, a nested type of such a name keeps it (it shadows
    /// nothing its members use).
    static let runtimeNamesAtTopLevel: Set<String> = [
        "Pages", "PageItems", "PaginationError", "PageLink", "PageNumbering", "InvalidValueError", "EventStream", "JSONParameter", "UnionMatch",
    ]

    /// Prepares names for every component schema of `document`.
    init(document: OpenAPIDocument, moduleName: String, overrides: TypeOverrides = TypeOverrides(), names: NameOverrides = NameOverrides()) {
        self.document = document
        self.schemaOverrides = overrides.schemas
        self.mapping = TypeMapping(document: document, formatOverrides: overrides.formats)
        self.constraints = ConstraintTranslator(document: document, overrides: overrides)
        topLevelNameScope = NameScope(reserved: Self.reservedTopLevelNames.union([moduleName]))
        // The team's names first, in document order: a derived name that
        // meets one takes the suffix.
        for name in document.components.schemas.keys where overrides.schemas[name] == nil {
            guard let chosen = names.schemas[name] else { continue }
            componentTypeNames[name] = topLevelNameScope.claim(SwiftName.typeName(chosen))
        }
        for (index, (name, schema)) in document.components.schemas.enumerated() {
            // The app's type stands for it: nothing to declare or name.
            if schemaOverrides[name] != nil || componentTypeNames[name] != nil { continue }
            var typeName = SwiftName.typeName(name)
            if SwiftName.unescaped(typeName) == "_" { typeName = "Schema\(index + 1)" }
            if topLevelNameScope.contains(typeName) && Self.reservedTopLevelNames.contains(SwiftName.unescaped(typeName)) {
                // A scalar named like a type of Swift or the runtime (`Date`:
                // a `string` of `format: date`) gets no made-up name
                // (`DateSchema`, which hides that it is a `CalendarDate`):
                // its uses take the type it stands for.
                if Self.isPlainScalar(schema) { continue }
                typeName = SwiftName.unescaped(typeName) + "Schema"
            }
            componentTypeNames[name] = topLevelNameScope.claim(typeName)
        }
        nestedReservedNames = Set(componentTypeNames.values.map(SwiftName.unescaped))
            .union(Self.reservedTopLevelNames.subtracting(Self.runtimeNamesAtTopLevel))
    }

    /// Whether a component schema is a scalar with nothing to declare: a
    /// string, number, integer or boolean (any format), not an enum, not a
    /// composition, not a reference.
    static func isPlainScalar(_ schema: RefOr<Schema>) -> Bool {
        guard case .value(let value) = schema, value.alwaysValid == nil, value.enumValues == nil, value.properties.isEmpty,
            value.allOf.isEmpty, value.oneOf.isEmpty, value.anyOf.isEmpty
        else { return false }
        switch value.singleType {
        case .string?, .integer?, .number?, .boolean?: return true
        default: return false
        }
    }

    /// Declares every component schema.
    func translateComponents() {
        for (name, schema) in document.components.schemas {
            guard let typeName = componentTypeNames[name] else { continue }
            let resolved: Schema?
            switch schema {
            case .value(let value): resolved = value
            case .reference(let reference):
                // A component that is only a `$ref` to another component is an alias of it.
                if let target = reference.componentName, reference.target?.componentKind == "schemas",
                    let aliased = componentTypeNames[target] ?? schemaOverrides[target]
                {
                    declarations.append(TypeDeclaration(name: typeName, documentation: nil, isDeprecated: false, kind: .alias(.named(aliased))))
                    continue
                }
                resolved = document.resolve(reference, as: Schema.self)
            }
            guard let resolved else {
                declarations.append(TypeDeclaration(name: typeName, documentation: nil, isDeprecated: false, kind: .alias(.json)))
                continue
            }
            declarations.append(declaration(for: resolved, name: typeName, qualifiedName: typeName))
        }
    }

    /// The type of a schema used by an operation; an inline schema that needs
    /// a declaration becomes a top-level type called `suggestedName`.
    func topLevelType(for schema: RefOr<Schema>, suggestedName: String) -> SwiftType {
        var scope = Scope(qualifiedName: nil, names: topLevelNameScope)
        let type = swiftType(for: schema, suggestedName: suggestedName, in: &scope)
        topLevelNameScope = scope.names
        declarations += scope.declarations
        return type
    }

    /// Whether a schema (or what it references) allows `null`.
    func isNullable(_ schema: RefOr<Schema>) -> Bool {
        var visited = Set<ReferenceTarget>()
        return isNullable(schema, depth: 0, visited: &visited)
    }

    /// Whether null is a value of the schema: a type list with null, an enum
    /// listing it, a null branch, OpenAPI 3.0's `nullable` beside `oneOf`,
    /// `anyOf` or `allOf` and no `type` (GitHub's `account`), or an `allOf`
    /// member that allows it (Box's `[{$ref: Classification}, {nullable:
    /// true}]`): the allOf members read as one schema, as their author wrote them.
    private func isNullable(_ schema: RefOr<Schema>, depth: Int, visited: inout Set<ReferenceTarget>) -> Bool {
        // Each referenced schema looked into once a call: a spec's fan of
        // `allOf` references costs its size, not fan-out to the 8th power.
        if let target = schema.reference?.target, !visited.insert(target).inserted { return false }
        guard let resolved = document.resolve(schema) else { return false }
        if resolved.isNullable { return true }
        if resolved.otherKeywords["nullable"] == .bool(true) { return true }
        if resolved.enumValues?.contains(where: { if case .null = $0 { return true } else { return false } }) == true { return true }
        if (resolved.oneOf + resolved.anyOf).contains(where: { member in document.resolve(member).map(isNullSchema) ?? false }) { return true }
        // allOf nests no deeper than a schema's own members; 8 levels bound a cycle.
        guard depth < 8 else { return false }
        for member in resolved.allOf where isNullable(member, depth: depth + 1, visited: &visited) { return true }
        return false
    }

    // MARK: Declarations

    /// Where nested declarations go while a type is translated.
    struct Scope {
        /// The enclosing type's qualified name; nil at top level.
        var qualifiedName: String?
        /// Names taken in the scope.
        var names: NameScope
        /// Types declared in the scope.
        var declarations: [TypeDeclaration] = []

        func qualify(_ name: String) -> String { qualifiedName.map { "\($0).\(name)" } ?? name }
    }

    /// The declaration of a named schema; one that needs no type of its own
    /// (a map, a list, a scalar) becomes a `typealias`.
    private func declaration(for schema: Schema, name: String, qualifiedName: String) -> TypeDeclaration {
        guard limitPassedAt == nil else { return TypeDeclaration(name: name, documentation: nil, isDeprecated: false, kind: .alias(.json)) }
        var declaration = unlimitedDeclaration(for: schema, name: name, qualifiedName: qualifiedName)
        let members: Int
        switch declaration.kind {
        case .structure(let shape): members = shape.properties.count
        case .openEnum(let shape): members = shape.cases.count
        case .union(let shape): members = shape.members.count
        case .alias: members = 0
        }
        membersLeft -= members
        if membersLeft < 0 {
            limitPassedAt = ("the schema of '\(qualifiedName)' (\(members) members)", schema.location)
            declaration.kind = .alias(.json)
            declaration.nested = []
        }
        return declaration
    }

    private func unlimitedDeclaration(for schema: Schema, name: String, qualifiedName: String) -> TypeDeclaration {
        let documentation = Documentation.text(schema.title, schema.description)
        // Nested types must not shadow top-level ones that members may use.
        var scope = Scope(qualifiedName: qualifiedName, names: NameScope(reserved: nestedReservedNames))
        scope.names.reserve(name)
        let kind: TypeDeclaration.Kind
        if let shape = openEnumShape(schema) {
            enumShapes[qualifiedName] = shape
            kind = .openEnum(shape)
        } else if let union = unionMembers(schema) {
            kind = .union(unionShape(members: union, discriminator: schema.discriminator, in: &scope))
        } else if let object = mergedObject(schema), !object.properties.isEmpty {
            kind = .structure(structureShape(object, in: &scope))
        } else {
            // A map, a list or a scalar: an alias of the built-in type, whose
            // inline parts are declared at top level (`PetsItem`).
            var inner = schema
            inner.title = nil
            kind = .alias(topLevelType(for: .value(inner), suggestedName: name))
        }
        return TypeDeclaration(name: name, documentation: documentation, isDeprecated: schema.deprecated, kind: kind, nested: scope.declarations)
    }

    /// The Swift type of a schema in a scope, declaring nested types as needed.
    func swiftType(for schema: RefOr<Schema>, suggestedName: String, in scope: inout Scope) -> SwiftType {
        switch schema {
        case .reference(let reference):
            if reference.target?.componentKind == "schemas", let name = reference.componentName,
                let typeName = componentTypeNames[name] ?? schemaOverrides[name]
            {
                return .named(typeName)
            }
            guard inlineDepth < 8, let resolved = document.resolve(reference, as: Schema.self) else { return .json }
            inlineDepth += 1
            defer { inlineDepth -= 1 }
            return swiftType(for: resolved, suggestedName: suggestedName, in: &scope)
        case .value(let value):
            return swiftType(for: value, suggestedName: suggestedName, in: &scope)
        }
    }

    private func swiftType(for schema: Schema, suggestedName: String, in scope: inout Scope) -> SwiftType {
        if schema.alwaysValid != nil { return .json }
        // `allOf: [$ref]` with only annotations next to it is the referenced type.
        if schema.allOf.count == 1, schema.properties.isEmpty, schema.oneOf.isEmpty, schema.anyOf.isEmpty, schema.enumValues == nil {
            return swiftType(for: schema.allOf[0], suggestedName: suggestedName, in: &scope)
        }
        if let members = unionMembers(schema), members.count == 1, schema.discriminator == nil, schema.properties.isEmpty {
            return swiftType(for: members[0], suggestedName: suggestedName, in: &scope)
        }
        if needsDeclaration(schema) {
            let typeName = SwiftName.typeName(suggestedName)
            let name = scope.names.claim(SwiftName.unescaped(typeName) == "_" ? "Inline" : typeName)
            let qualified = scope.qualify(name)
            scope.declarations.append(declaration(for: schema, name: name, qualifiedName: qualified))
            return .named(qualified)
        }
        switch schema.singleType {
        case .array?:
            guard let items = schema.items else { return .array(.json) }
            return .array(elementType(for: items, suggestedName: suggestedName + "Item", in: &scope))
        case .object?:
            switch schema.additionalProperties {
            case .schema(let values)?: return .dictionary(elementType(for: values, suggestedName: suggestedName + "Value", in: &scope))
            default: return .dictionary(.json)
            }
        default:
            return mapping.swiftType(for: schema) { _ in "JSONValue" }
        }
    }

    /// The type of an array's items or a map's values: optional when the
    /// schema allows null (`[String?]`), so that a null element decodes
    /// and encodes again as null (GitHub's gist `files` map holds nullable
    /// objects). `JSONValue` holds null already.
    private func elementType(for schema: RefOr<Schema>, suggestedName: String, in scope: inout Scope) -> SwiftType {
        let type = swiftType(for: schema, suggestedName: suggestedName, in: &scope)
        return isNullable(schema) && type != .json && !type.isOptional ? .optional(type) : type
    }

    /// Objects with properties, closed sets of strings or integers, and
    /// compositions get a declaration; everything else maps to a built-in type.
    private func needsDeclaration(_ schema: Schema) -> Bool {
        if openEnumShape(schema) != nil { return true }
        if let members = unionMembers(schema), members.count > 1 || schema.discriminator != nil { return true }
        if !schema.allOf.isEmpty { return mergedObject(schema).map { !$0.properties.isEmpty } ?? false }
        return !schema.properties.isEmpty && (schema.types.isEmpty || schema.types.contains(.object))
    }

    // MARK: Enums

    private func openEnumShape(_ schema: Schema) -> OpenEnumShape? {
        guard let values = schema.enumValues else { return nil }
        let known = values.filter { if case .null = $0 { return false } else { return true } }
        guard !known.isEmpty else { return nil }
        var names = NameScope(reserved: ["unknown", "rawValue", "init", "allCases"])
        if known.allSatisfy({ $0.stringValue != nil }), schema.singleType != .integer, schema.singleType != .number {
            let cases = known.compactMap(\.stringValue).uniqued().enumerated().map { index, value in
                (name: names.claim(value.isEmpty ? "empty" : SwiftName.caseName(value, fallback: "value\(index + 1)")), literal: SwiftLiteral.string(value))
            }
            return OpenEnumShape(rawType: "String", cases: cases)
        }
        let integers = known.compactMap { value -> Int? in
            if case .int(let number) = value { return number }
            if case .string(let text) = value, schema.singleType == .integer { return Int(text) }
            return nil
        }
        guard integers.count == known.count, schema.singleType == .integer || schema.singleType == nil else { return nil }
        let cases = integers.uniqued().map { value in
            (name: names.claim(value < 0 ? "minus" + String(value.magnitude) : "value" + String(value)), literal: SwiftLiteral.integer(value))
        }
        return OpenEnumShape(rawType: "Int", cases: cases)
    }

    // MARK: Unions

    private func isNullSchema(_ schema: Schema) -> Bool { schema.types == [.null] }

    /// The non-null members of a `oneOf`/`anyOf`, nil when there is none.
    private func unionMembers(_ schema: Schema) -> [RefOr<Schema>]? {
        let members = (schema.oneOf.isEmpty ? schema.anyOf : schema.oneOf).filter { member in
            !(document.resolve(member).map(isNullSchema) ?? false)
        }
        return members.isEmpty ? nil : members
    }

    private func unionShape(members: [RefOr<Schema>], discriminator: Discriminator?, in scope: inout Scope) -> UnionShape {
        var caseNames = NameScope(reserved: ["undocumented", "init"])
        var result: [UnionShape.Member] = []
        var defaultMember: String?
        for (index, member) in members.enumerated() {
            let resolved = document.resolve(member)
            let component = member.reference.flatMap { $0.target?.componentKind == "schemas" ? $0.componentName : nil }
            let baseName = component ?? resolved?.title ?? "case\(index + 1)"
            var type = swiftType(for: member, suggestedName: SwiftName.typeName(baseName), in: &scope)
            if component == nil, resolved?.title == nil, case .named(let name) = type, !name.contains(".") {
                // A built-in type: name the case after it (`string`, `int`).
                type = .named(name)
            }
            let caseBase: String
            if component != nil || resolved?.title != nil {
                caseBase = SwiftName.memberName(baseName)
            } else {
                caseBase = SwiftName.memberName(Self.caseName(for: type, index: index))
            }
            var values: [String] = []
            if let discriminator {
                for (value, reference) in discriminator.mapping where reference.target == member.reference?.target && reference.target != nil {
                    values.append(value)
                }
                if values.isEmpty, let component { values.append(component) }
            }
            let checks = constraints.constraints(of: member, type: type, wireName: "")
            let name = caseNames.claim(caseBase == "_" ? "case\(index + 1)" : caseBase)
            if defaultMember == nil, let target = discriminator?.defaultMapping?.target, target == member.reference?.target { defaultMember = name }
            result.append(UnionShape.Member(
                name: name, type: type, discriminatorValues: values,
                constraints: checks.value, elementConstraints: checks.elements))
        }
        var shape = UnionShape(members: result, discriminator: discriminator?.propertyName)
        shape.defaultMember = defaultMember
        return shape
    }

    private static func caseName(for type: SwiftType, index: Int) -> String {
        switch type {
        case .named("LowercaseUUID"): return "UUID"
        case .named(let name): return name.contains(".") ? (name.split(separator: ".").last.map(String.init) ?? "case\(index + 1)") : name
        case .array(let element): return caseName(for: element, index: index) + "Array"
        case .dictionary: return "object"
        case .optional(let wrapped), .nullable(let wrapped): return caseName(for: wrapped, index: index)
        }
    }

    // MARK: Objects

    /// An object schema with `allOf` members merged in: their properties and
    /// required names, in order. Nil when the schema is not an object.
    private func mergedObject(_ schema: Schema, depth: Int = 0) -> Schema? {
        guard depth < 16 else { return nil }
        // `properties` next to `type: array` (or another type that is not an
        // object) constrains nothing: JSON Schema applies it to objects only.
        let mayBeObject = schema.types.isEmpty || schema.types.contains(.object)
        let isObject = mayBeObject && (schema.singleType == .object || !schema.properties.isEmpty || !schema.allOf.isEmpty
            || (schema.types.isEmpty && schema.additionalProperties != nil))
        // An object with an `enum` that is not a string or integer set (an
        // enum of objects, `[null]`) is still a struct: the enum is not typed.
        guard isObject, schema.enumValues == nil || openEnumShape(schema) == nil else { return nil }
        guard !schema.allOf.isEmpty else { return schema }
        var merged = schema
        merged.allOf = []
        merged.properties = OrderedMap()
        merged.required = []
        for member in schema.allOf {
            guard let object = mergedMember(member, depth: depth + 1) else { continue }
            for (name, property) in object.properties where merged.properties[name] == nil { merged.properties[name] = property }
            merged.required += object.required.filter { !merged.required.contains($0) }
            if merged.additionalProperties == nil { merged.additionalProperties = object.additionalProperties }
        }
        for (name, property) in schema.properties { merged.properties[name] = property }
        merged.required += schema.required.filter { !merged.required.contains($0) }
        return merged
    }

    /// ``mergedObject(_:depth:)`` of an `allOf` member, once per referenced schema and depth.
    private func mergedMember(_ member: RefOr<Schema>, depth: Int) -> Schema? {
        guard case .reference(let reference) = member, let target = reference.target else {
            mergeSteps += 1
            return document.resolve(member).flatMap { mergedObject($0, depth: depth) }
        }
        mergeSteps += 1
        let key = MergedReferenceKey(target: target, depth: depth)
        if let known = mergedReferences[key] { return known }
        let merged = document.resolve(member).flatMap { mergedObject($0, depth: depth) }
        mergedReferences[key] = merged
        return merged
    }

    private func structureShape(_ schema: Schema, in scope: inout Scope) -> StructureShape {
        var propertyNames = NameScope(reserved: ["additionalProperties", "CodingKeys", "init", "hash", "encode"])
        var properties: [PropertyDeclaration] = []
        let objectAssumed = AssumedExtension.isMarked(schema.extensions)
        for (wireName, property) in schema.properties {
            let resolved = document.resolve(property)
            if resolved?.alwaysValid == false { continue }
            let base = swiftType(for: property, suggestedName: SwiftName.typeName(wireName), in: &scope)
            // A required member the server alone sends (`readOnly`) is required in
            // responses only, one the client alone sends (`writeOnly`) in requests
            // only (OpenAPI 3.0, Schema Object): one Swift type serves both, so
            // the member is optional there.
            let oneWay = resolved?.readOnly == true || resolved?.writeOnly == true
            let required = schema.required.contains(wireName) && !oneWay
            let nullable = isNullable(property) && base != .json
            var type: SwiftType
            var defaultValue: String?
            if required {
                type = nullable ? .optional(base) : base
            } else if nullable {
                type = .optional(.nullable(base))
            } else if let value = resolved?.defaultValue, let literal = defaultLiteral(value, for: base) {
                type = base
                defaultValue = literal
            } else {
                type = .optional(base)
            }
            if base == .json, type == .optional(.json) || type == .json { type = required ? .json : .optional(.json) }
            let isAssumed = AssumedExtension.isAssumed(property, objectAssumed: objectAssumed)
            let (valueConstraints, elementConstraints) = constraints.constraints(of: property, type: base, wireName: wireName, assumed: isAssumed)
            properties.append(PropertyDeclaration(
                name: propertyNames.claim(SwiftName.caseName(wireName, fallback: "property\(properties.count + 1)")), wireName: wireName, type: type,
                documentation: Documentation.text(resolved?.title, property.reference?.description ?? resolved?.description),
                isDeprecated: resolved?.deprecated ?? false, defaultValue: defaultValue, isRequired: required,
                constraints: valueConstraints, elementConstraints: elementConstraints, isAssumed: isAssumed))
        }
        // A name in `required` that `properties` does not describe is still a
        // member every value has: kept as JSON, so it is neither lost when a
        // value is decoded and sent again nor missing from one built in code.
        for wireName in schema.required where schema.properties[wireName] == nil && !wireName.isEmpty {
            properties.append(PropertyDeclaration(
                name: propertyNames.claim(SwiftName.caseName(wireName, fallback: "property\(properties.count + 1)")), wireName: wireName, type: .json,
                documentation: nil, isDeprecated: false, defaultValue: nil, isRequired: true,
                constraints: nil, elementConstraints: nil, isAssumed: objectAssumed))
        }
        var additional: SwiftType?
        if !properties.isEmpty {
            switch schema.additionalProperties {
            case .schema(let values)?:
                if document.resolve(values)?.alwaysValid != false {
                    additional = swiftType(for: values, suggestedName: "AdditionalProperty", in: &scope)
                }
            case .allowed(true)?: additional = .json
            default: break
            }
        }
        return StructureShape(properties: properties, additionalProperties: additional, isRecursive: false)
    }

    /// The schema `default` as a Swift expression of `type`, when it has one.
    private func defaultLiteral(_ value: JSONValue, for type: SwiftType) -> String? {
        guard case .named(let name) = type else {
            if case .array = type, case .array(let items) = value, items.isEmpty { return "[]" }
            return nil
        }
        switch (name, value) {
        case ("String", .string(let text)): return SwiftLiteral.string(text)
        case ("Int", .int(let number)), ("Int64", .int(let number)): return SwiftLiteral.integer(number)
        case ("Int32", .int(let number)): return Int32(exactly: number) == nil ? nil : SwiftLiteral.integer(number)
        case ("Double", .int(let number)), ("Float", .int(let number)): return SwiftLiteral.integer(number)
        case ("Double", .double(let number)): return number.isFinite ? SwiftLiteral.double(number) : nil
        case ("Float", .double(let number)): return number.isFinite && abs(number) <= Double(Float.greatestFiniteMagnitude) ? SwiftLiteral.double(number) : nil
        case ("Bool", .bool(let flag)): return flag ? "true" : "false"
        default:
            guard let shape = enumShapes[name] ?? componentEnumShape(name) else { return nil }
            let literal: String
            switch (value, shape.rawType) {
            case (.string(let text), "String"): literal = SwiftLiteral.string(text)
            case (.int(let number), "String"): literal = SwiftLiteral.string(String(number))
            case (.int(let number), "Int"): literal = SwiftLiteral.integer(number)
            case (.string(let text), "Int"):
                guard let number = Int(text) else { return nil }
                literal = SwiftLiteral.integer(number)
            default: return nil
            }
            // `.desc` for a known value, else the raw value kept as `unknown`.
            if let known = shape.cases.first(where: { $0.literal == literal }) { return "." + SwiftName.unescaped(known.name) }
            return "\(name)(rawValue: \(literal))"
        }
    }

    /// The cases of a component enum declared later in the document.
    private func componentEnumShape(_ typeName: String) -> OpenEnumShape? {
        guard let component = componentTypeNames.first(where: { $0.value == typeName })?.key,
            let schema = document.components.schemas[component].flatMap({ document.resolve($0) })
        else { return nil }
        return openEnumShape(schema)
    }
}

extension Array where Element: Hashable {
    /// The elements without repeats, first occurrence kept.
    func uniqued() -> [Element] {
        var seen = Set<Element>()
        return filter { seen.insert($0).inserted }
    }
}

extension ModelTranslator {
    /// Gives the discriminator property of each member of a discriminated
    /// union its value as the initialiser's default
    /// (``PropertyDeclaration/initializerDefault``), so that
    /// `.authorizationCode(.init(code: ..., redirectURI: ...))` does not
    /// restate `grantType: .authorizationCode`. Only where the member is
    /// selected by one value, under one property name, in every union that
    /// lists it (a struct in two unions with different values keeps a
    /// required argument).
    func fillDiscriminatorDefaults() {
        var values: [String: Set<String>] = [:]
        var propertyNames: [String: Set<String>] = [:]
        func collect(_ declaration: TypeDeclaration) {
            if case .union(let shape) = declaration.kind, let property = shape.discriminator {
                for member in shape.members {
                    guard case .named(let name) = member.type else { continue }
                    values[name, default: []].formUnion(member.discriminatorValues)
                    propertyNames[name, default: []].insert(property)
                }
            }
            declaration.nested.forEach(collect)
        }
        declarations.forEach(collect)
        guard !values.isEmpty else { return }

        func fill(_ declaration: TypeDeclaration, prefix: String?) -> TypeDeclaration {
            var declaration = declaration
            let qualified = prefix.map { "\($0).\(declaration.name)" } ?? declaration.name
            if case .structure(var shape) = declaration.kind, let value = values[qualified], value.count == 1,
                let names = propertyNames[qualified], names.count == 1,
                let index = shape.properties.firstIndex(where: { $0.wireName == names.first }),
                shape.properties[index].defaultValue == nil
            {
                var type = shape.properties[index].type
                if case .optional(let wrapped) = type { type = wrapped }
                if let literal = defaultLiteral(.string(value.first!), for: type) {
                    shape.properties[index].initializerDefault = literal
                    declaration.kind = .structure(shape)
                }
            }
            declaration.nested = declaration.nested.map { fill($0, prefix: qualified) }
            return declaration
        }
        declarations = declarations.map { fill($0, prefix: nil) }
    }

    /// Claims a unique top-level type name (for operation result enums).
    func claimTopLevelName(_ name: String) -> String {
        topLevelNameScope.claim(SwiftName.typeName(name))
    }
}
