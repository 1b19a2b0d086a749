import OpenAPIModel

/// Which way a schema travels.
enum Direction: String {
    /// Sent by the client.
    case request
    /// Sent by the server.
    case response
}

/// Where a schema comparison is: the operation, the direction, the JSON path
/// below the body, and the Swift type that holds it in the base client.
struct SchemaContext {
    var operation: String
    var direction: Direction
    var status: String?
    /// Property names from the body down (`branding`, `items`, `logo_url`).
    var path: [String]
    /// The base client's (qualified) Swift type of the current object.
    var swiftType: String?
    /// The Swift symbol of the current property, or of the method for the body.
    var symbol: String?
    /// Where to point when a schema has no location of its own.
    var fallbackLocation: SourceLocation?

    var isBody: Bool { path.isEmpty }
    /// `data/id`, or `body`.
    var pathText: String { path.isEmpty ? "body" : path.joined(separator: "/") }
    /// ` for the status 200` in responses.
    var statusText: String { status.map { " for the status \($0)" } ?? "" }
}

extension SpecComparator {
    /// `integer/int64`, `string`, `string|null`, `any`.
    static func typeDescription(_ schema: Schema) -> String {
        let types = schema.types.filter { $0 != .null }.map(\.rawValue).sorted()
        let type = types.isEmpty ? (schema.properties.isEmpty ? "any" : "object") : types.joined(separator: "|")
        return schema.format.map { "\(type)/\($0)" } ?? type
    }

    /// A schema with its `allOf` members' properties and required lists merged in.
    func effectiveObject(_ schema: Schema, in document: OpenAPIDocument, depth: Int = 0) -> Schema {
        guard !schema.allOf.isEmpty, depth < 16 else { return schema }
        var merged = schema
        for member in schema.allOf {
            guard let resolved = document.resolve(member) else { continue }
            let object = effectiveObject(resolved, in: document, depth: depth + 1)
            for (name, property) in object.properties where merged.properties[name] == nil { merged.properties[name] = property }
            merged.required += object.required.filter { !merged.required.contains($0) }
            if merged.types.isEmpty { merged.types = object.types }
        }
        return merged
    }

    /// Compares one schema position in base and revision.
    func compareSchema(_ oldReference: RefOr<Schema>, _ newReference: RefOr<Schema>, _ context: SchemaContext) {
        // A pair of referenced schemas is compared once per operation and
        // direction: recursive schemas end, shared components are not repeated.
        var pairKey: String?
        if let a = oldReference.reference?.target, let b = newReference.reference?.target {
            // Whether a pair changed does not depend on the status it is under.
            let pair = "\(context.direction) \(a) \(b)"
            if unchangedPairs.contains(pair) { return }
            guard visited.insert(context.operation + " " + (context.status ?? "") + " " + pair).inserted else {
                cutShort += 1
                return
            }
            pairKey = pair
        }
        let findingsBefore = findings.count
        let cutShortBefore = cutShort
        defer {
            if let pairKey, findings.count == findingsBefore, cutShort == cutShortBefore { unchangedPairs.insert(pairKey) }
        }
        guard let rawOld = base.resolve(oldReference), let rawNew = revision.resolve(newReference) else { return }
        var context = context
        if let component = oldReference.reference?.componentName, oldReference.reference?.target?.componentKind == "schemas",
            let typeName = baseSymbols.componentType(component) {
            context.swiftType = typeName
        }
        let old = effectiveObject(rawOld, in: base)
        let new = effectiveObject(rawNew, in: revision)
        let location = rawNew.location.pointer == .root ? (context.fallbackLocation ?? rawNew.location) : rawNew.location
        let symbols = context.symbol.map { [$0] } ?? []
        let subject = context.isBody ? "body" : "property"
        let direction = context.direction.rawValue

        if Self.typeDescription(old) != Self.typeDescription(new), !(old.types.isEmpty && new.types.isEmpty) {
            add("\(direction)-\(subject)-type-changed", .error, context.operation, location,
                "the \(direction) \(context.pathText) type/format changed from \(Self.typeDescription(old)) to \(Self.typeDescription(new))\(context.statusText)",
                symbols: symbols)
            return
        }
        compareNullability(old, new, context, location, symbols)
        compareComposition(rawOld, rawNew, context, location, symbols)
        switch context.direction {
        case .request:
            compareEnums(old, new, operation: context.operation, location: location, symbols: symbols,
                becameEnum: ("request-\(subject)-became-enum", .error, "request \(context.pathText) was restricted to a list of enum values"),
                removed: { ("request-\(subject)-enum-value-removed", .error, "removed the enum value \($0) of the request \(context.pathText)") },
                added: { ("request-\(subject)-enum-value-added", .info, "added the new \($0) enum value to the request \(context.pathText)") })
            compareConstraints(old, new, prefix: "request-\(subject)", subject: "the request \(context.pathText)'s", operation: context.operation,
                location: location, symbols: symbols)
        case .response:
            let tolerated = " (clients generated by clientgen decode it as .unknown; other clients may fail)"
            compareEnums(old, new, operation: context.operation, location: location, symbols: symbols, becameEnum: nil,
                removed: { ("response-property-enum-value-removed", .info, "removed the \($0) enum value from the \(context.pathText) response property\(context.statusText)") },
                added: { ("response-property-enum-value-added", .warning, "added the new \($0) enum value to the \(context.pathText) response property\(context.statusText)\(tolerated)") })
        }
        compareMembers(rawOld, rawNew, context)
        compareProperties(old, new, context)
        if let oldItems = old.items, let newItems = new.items {
            var inner = context
            inner.path.append("items")
            inner.swiftType = baseSymbols.element(of: context.swiftType)
            compareSchema(oldItems, newItems, inner)
        }
        if case .schema(let oldValues)? = old.additionalProperties, case .schema(let newValues)? = new.additionalProperties {
            var inner = context
            inner.path.append("additionalProperties")
            compareSchema(oldValues, newValues, inner)
        }
    }

    private func compareNullability(_ old: Schema, _ new: Schema, _ context: SchemaContext, _ location: SourceLocation, _ symbols: [String]) {
        let subject = context.isBody ? "body" : "property"
        switch context.direction {
        case .response where !old.isNullable && new.isNullable:
            add("response-\(subject)-became-nullable", .error, context.operation, location,
                "the response \(context.pathText) became nullable\(context.statusText)", symbols: symbols)
        case .request where old.isNullable && !new.isNullable:
            add("request-\(subject)-became-not-nullable", .error, context.operation, location, "the request \(context.pathText) became not nullable", symbols: symbols)
        case .request where !old.isNullable && new.isNullable:
            add("request-\(subject)-became-nullable", .info, context.operation, location, "the request \(context.pathText) became nullable", symbols: symbols)
        default:
            break
        }
    }

    /// `oneOf`, `anyOf` and `allOf` members, by the component they name (or
    /// their position when inline).
    private func compareComposition(_ old: Schema, _ new: Schema, _ context: SchemaContext, _ location: SourceLocation, _ symbols: [String]) {
        let subject = context.isBody ? "body" : "property"
        guard !(old.oneOf.isEmpty && new.oneOf.isEmpty && old.anyOf.isEmpty && new.anyOf.isEmpty && old.allOf.isEmpty && new.allOf.isEmpty) else { return }
        let kinds: [(String, String, KeyPath<Schema, [RefOr<Schema>]>, added: FindingLevel, removed: FindingLevel)] = context.direction == .request
            ? [("one-of", "oneOf", \.oneOf, .info, .error), ("any-of", "anyOf", \.anyOf, .info, .error), ("all-of", "allOf", \.allOf, .error, .warning)]
            : [("one-of", "oneOf", \.oneOf, .info, .info), ("any-of", "anyOf", \.anyOf, .info, .info), ("all-of", "allOf", \.allOf, .info, .info)]
        for (kind, keyword, keyPath, addedLevel, removedLevel) in kinds {
            let oldMembers = Self.memberNames(old[keyPath: keyPath])
            let newMembers = Self.memberNames(new[keyPath: keyPath])
            let direction = context.direction.rawValue
            let note = context.direction == .response && kind == "one-of"
                ? " (a clientgen client decodes an unknown member only when a discriminator names it)" : ""
            for member in newMembers where !oldMembers.contains(member) {
                add("\(direction)-\(subject)-\(kind)-added", addedLevel, context.operation, location,
                    "added \(member) to the \(keyword) of the \(direction) \(context.pathText)\(context.statusText)\(note)", symbols: symbols)
            }
            for member in oldMembers where !newMembers.contains(member) {
                add("\(direction)-\(subject)-\(kind)-removed", removedLevel, context.operation, location,
                    "removed \(member) from the \(keyword) of the \(direction) \(context.pathText)\(context.statusText)", symbols: symbols)
            }
        }
    }

    /// The `oneOf`/`anyOf` members both sides have (by component, or by
    /// position when inline), compared in turn.
    private func compareMembers(_ old: Schema, _ new: Schema, _ context: SchemaContext) {
        for keyPath in [\Schema.oneOf, \Schema.anyOf] {
            let oldMembers = old[keyPath: keyPath]
            let newMembers = new[keyPath: keyPath]
            let newNames = Self.memberNames(newMembers)
            for (index, name) in Self.memberNames(oldMembers).enumerated() {
                guard let match = newNames.firstIndex(of: name) else { continue }
                var inner = context
                if let component = oldMembers[index].reference?.componentName { inner.swiftType = baseSymbols.componentType(component) }
                compareSchema(oldMembers[index], newMembers[match], inner)
            }
        }
    }

    private static func memberNames(_ members: [RefOr<Schema>]) -> [String] {
        members.enumerated().map { index, member in member.reference?.componentName ?? "#\(index)" }
    }

    func compareEnums(
        _ old: Schema, _ new: Schema, operation: String, location: SourceLocation, symbols: [String],
        becameEnum: (String, FindingLevel, String)?, removed: (String) -> (String, FindingLevel, String), added: (String) -> (String, FindingLevel, String)
    ) {
        let oldValues = old.enumValues?.map(\.description)
        let newValues = new.enumValues?.map(\.description)
        switch (oldValues, newValues) {
        case (nil, _?):
            if let becameEnum { add(becameEnum.0, becameEnum.1, operation, location, becameEnum.2, symbols: symbols) }
        case (let oldValues?, let newValues?):
            for value in oldValues where !newValues.contains(value) {
                let (id, level, message) = removed(value)
                add(id, level, operation, location, message, symbols: symbols)
            }
            for value in newValues where !oldValues.contains(value) {
                let (id, level, message) = added(value)
                add(id, level, operation, location, message, symbols: symbols)
            }
        default:
            break
        }
    }

    /// Bounds a value sent by the client must meet: tightened is breaking,
    /// relaxed compatible, newly set a warning.
    func compareConstraints(_ old: Schema, _ new: Schema, prefix: String, subject: String, operation: String, location: SourceLocation, symbols: [String]) {
        func check(_ name: String, _ keyword: String, _ a: Double?, _ b: Double?, tighterWhenLower: Bool) {
            switch (a, b) {
            case (nil, let value?):
                add("\(prefix)-\(name)-set", .warning, operation, location, "\(subject) \(keyword) was set to \(Self.number(value))", symbols: symbols)
            case (let a?, let b?) where a != b:
                let tightened = tighterWhenLower ? b < a : b > a
                let verb = b < a ? "decreased" : "increased"
                add("\(prefix)-\(name)-\(verb)", tightened ? .error : .info, operation, location,
                    "\(subject) \(keyword) was \(verb) from \(Self.number(a)) to \(Self.number(b))", symbols: symbols)
            default:
                break
            }
        }
        check("max", "max", old.maximum, new.maximum, tighterWhenLower: true)
        check("min", "min", old.minimum, new.minimum, tighterWhenLower: false)
        check("max-length", "maxLength", old.maxLength.map(Double.init), new.maxLength.map(Double.init), tighterWhenLower: true)
        check("min-length", "minLength", old.minLength.map(Double.init), new.minLength.map(Double.init), tighterWhenLower: false)
        check("max-items", "maxItems", old.maxItems.map(Double.init), new.maxItems.map(Double.init), tighterWhenLower: true)
        check("min-items", "minItems", old.minItems.map(Double.init), new.minItems.map(Double.init), tighterWhenLower: false)
        switch (old.pattern, new.pattern) {
        case (nil, let pattern?):
            add("\(prefix)-pattern-added", .warning, operation, location, "added the pattern \(pattern) to \(subject.replacingOccurrences(of: "'s", with: "")) value", symbols: symbols)
        case (let a?, let b?) where a != b:
            add("\(prefix)-pattern-changed", .warning, operation, location, "changed the pattern of \(subject.replacingOccurrences(of: "'s", with: "")) value from \(a) to \(b)", symbols: symbols)
        case (_?, nil):
            add("\(prefix)-pattern-removed", .info, operation, location, "removed the pattern from \(subject.replacingOccurrences(of: "'s", with: "")) value", symbols: symbols)
        default:
            break
        }
    }

    private static func number(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    // MARK: Properties

    private func compareProperties(_ old: Schema, _ new: Schema, _ context: SchemaContext) {
        for (name, newProperty) in new.properties where old.properties[name] == nil {
            let required = new.required.contains(name)
            let location = revision.resolve(newProperty)?.location ?? context.fallbackLocation
            let path = (context.path + [name]).joined(separator: "/")
            let symbols = context.swiftType.flatMap { baseSymbols.type($0) }.map { [$0] } ?? (context.symbol.map { [$0] } ?? [])
            switch context.direction {
            case .request:
                if required {
                    let hasDefault = revision.resolve(newProperty)?.defaultValue != nil
                    add(hasDefault ? "new-required-request-property-with-default" : "new-required-request-property", hasDefault ? .info : .error,
                        context.operation, location, "added the new required request property \(path)\(hasDefault ? " with a default value" : "")", symbols: symbols)
                } else {
                    add("new-optional-request-property", .info, context.operation, location, "added the new optional request property \(path)", symbols: symbols)
                }
            case .response:
                add(required ? "response-required-property-added" : "response-optional-property-added", .info, context.operation, location,
                    "added the \(required ? "required" : "optional") property \(path) to the response with the \(context.status ?? "") status", symbols: symbols)
            }
        }
        for (name, oldProperty) in old.properties {
            let path = (context.path + [name]).joined(separator: "/")
            let member = baseSymbols.property(name, of: context.swiftType)
            let symbols = member.map { [$0.symbol] } ?? (context.symbol.map { [$0] } ?? [])
            let wasRequired = old.required.contains(name)
            guard let newProperty = new.properties[name] else {
                let location = base.resolve(oldProperty)?.location ?? context.fallbackLocation
                switch context.direction {
                case .request:
                    add("request-property-removed", .warning, context.operation, location, "removed the request property \(path)", symbols: symbols)
                case .response:
                    add(wasRequired ? "response-required-property-removed" : "response-optional-property-removed", wasRequired ? .error : .warning,
                        context.operation, location,
                        "removed the \(wasRequired ? "required" : "optional") property \(path) from the response with the \(context.status ?? "") status",
                        symbols: symbols)
                }
                continue
            }
            let isRequired = new.required.contains(name)
            let location = revision.resolve(newProperty)?.location ?? context.fallbackLocation
            switch context.direction {
            case .request where !wasRequired && isRequired:
                let hasDefault = revision.resolve(newProperty)?.defaultValue != nil
                add(hasDefault ? "request-property-became-required-with-default" : "request-property-became-required", hasDefault ? .info : .error,
                    context.operation, location, "the request property \(path) became required", symbols: symbols)
            case .request where wasRequired && !isRequired:
                add("request-property-became-optional", .info, context.operation, location, "the request property \(path) became optional", symbols: symbols)
            case .response where wasRequired && !isRequired:
                // With a `default`, an absent field decodes as that value:
                // the generated property keeps its non-optional type.
                if let defaultValue = revision.resolve(newProperty)?.defaultValue {
                    add("response-property-became-optional-with-default", .info, context.operation, location,
                        "the response property \(path) became optional\(context.statusText); absent, it reads as its default \(defaultValue)",
                        symbols: symbols)
                } else {
                    add("response-property-became-optional", .error, context.operation, location,
                        "the response property \(path) became optional\(context.statusText)", symbols: symbols)
                }
            case .response where !wasRequired && isRequired:
                add("response-property-became-required", .info, context.operation, location,
                    "the response property \(path) became required\(context.statusText)", symbols: symbols)
            default:
                break
            }
            var inner = context
            inner.path.append(name)
            inner.symbol = member?.symbol ?? context.symbol
            inner.swiftType = member?.type
            inner.fallbackLocation = location
            compareSchema(oldProperty, newProperty, inner)
        }
    }
}
