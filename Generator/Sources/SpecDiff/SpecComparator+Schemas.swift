import OpenAPIModel

/// Which way a schema travels.
enum Direction: String {
    /// Sent by the client.
    case request
    /// Sent by the server.
    case response
}

extension SchemaContext {
    /// The rule family's subject: request or response, body or property.
    var subject: SpecDiffRule.Subject {
        switch (direction, isBody) {
        case (.request, true): return .requestBody
        case (.request, false): return .requestProperty
        case (.response, true): return .responseBody
        case (.response, false): return .responseProperty
        }
    }
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
        let direction = context.direction.rawValue
        // Messages are built only when there is a finding: this runs for every schema pair.
        if compareTypes(old, new, context.subject, what: "the \(direction) \(context.pathText)", detail: context.statusText, operation: context.operation, location: location, symbols: symbols) {
            return
        }
        compareNullability(old, new, context, location, symbols)
        compareComposition(rawOld, rawNew, context, location, symbols)
        let tolerated = context.direction == .response ? " (clients generated by clientgen decode it as .unknown; other clients may fail)" : ""
        compareEnums(old, new, context.subject, what: "the \(direction) \(context.pathText)\(context.statusText)", tolerated: tolerated, operation: context.operation,
            location: location, symbols: symbols)
        if context.direction == .request {
            compareConstraints(old, new, context.subject, subject: "the request \(context.pathText)'s", operation: context.operation,
                location: location, symbols: symbols)
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
        guard old.isNullable != new.isNullable, let rule = SpecDiffRule.nullability(context.subject, becameNullable: new.isNullable) else { return }
        add(rule, context.operation, location,
            "the \(context.direction.rawValue) \(context.pathText) became \(new.isNullable ? "nullable" : "not nullable")\(context.statusText)", symbols: symbols)
    }

    /// `oneOf`, `anyOf` and `allOf` members, by the component they name (or
    /// their position when inline).
    private func compareComposition(_ old: Schema, _ new: Schema, _ context: SchemaContext, _ location: SourceLocation, _ symbols: [String]) {
        guard !(old.oneOf.isEmpty && new.oneOf.isEmpty && old.anyOf.isEmpty && new.anyOf.isEmpty && old.allOf.isEmpty && new.allOf.isEmpty) else { return }
        let kinds: [(SpecDiffRule.Composition, String, KeyPath<Schema, [RefOr<Schema>]>)] =
            [(.oneOf, "oneOf", \.oneOf), (.anyOf, "anyOf", \.anyOf), (.allOf, "allOf", \.allOf)]
        let direction = context.direction.rawValue
        for (kind, keyword, keyPath) in kinds {
            let oldMembers = Self.memberNames(old[keyPath: keyPath])
            let newMembers = Self.memberNames(new[keyPath: keyPath])
            let note = context.direction == .response && kind == .oneOf
                ? " (a clientgen client decodes an unknown member only when a discriminator names it)" : ""
            for member in newMembers where !oldMembers.contains(member) {
                guard let rule = SpecDiffRule.composition(context.subject, kind, added: true) else { continue }
                add(rule, context.operation, location,
                    "added \(member) to the \(keyword) of the \(direction) \(context.pathText)\(context.statusText)\(note)", symbols: symbols)
            }
            for member in oldMembers where !newMembers.contains(member) {
                guard let rule = SpecDiffRule.composition(context.subject, kind, added: false) else { continue }
                add(rule, context.operation, location,
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

    /// Reports a changed type or format. A list of types that only lost
    /// members is narrowed, one that only gained members widened (and the
    /// rest of the schema is still compared); any other change is a type
    /// change, and returns true: nothing below it is comparable.
    func compareTypes(
        _ old: Schema, _ new: Schema, _ subject: SpecDiffRule.Subject, what: @autoclosure () -> String, detail: @autoclosure () -> String, operation: String,
        location: SourceLocation, symbols: [String]
    ) -> Bool {
        guard Self.typeDescription(old) != Self.typeDescription(new), !(old.types.isEmpty && new.types.isEmpty) else { return false }
        let oldTypes = Set(old.types.filter { $0 != .null })
        let newTypes = Set(new.types.filter { $0 != .null })
        if old.format == new.format, !oldTypes.isEmpty, !newTypes.isEmpty, oldTypes != newTypes {
            if newTypes.isStrictSubset(of: oldTypes) {
                let removed = oldTypes.subtracting(newTypes).map(\.rawValue).sorted().joined(separator: ", ")
                add(SpecDiffRule.listOfTypes(subject, narrowed: true), operation, location,
                    "the list of types of \(what()) was narrowed: \(removed) removed\(detail())", symbols: symbols)
                return false
            }
            if newTypes.isStrictSuperset(of: oldTypes) {
                let added = newTypes.subtracting(oldTypes).map(\.rawValue).sorted().joined(separator: ", ")
                add(SpecDiffRule.listOfTypes(subject, narrowed: false), operation, location,
                    "the list of types of \(what()) was widened: \(added) added\(detail())", symbols: symbols)
                return false
            }
        }
        add(SpecDiffRule.typeChanged(subject), operation, location,
            "the type/format of \(what()) changed from \(Self.typeDescription(old)) to \(Self.typeDescription(new))\(detail())", symbols: symbols)
        return true
    }

    /// Enum values added and removed, and a value restricted to an enum.
    func compareEnums(
        _ old: Schema, _ new: Schema, _ subject: SpecDiffRule.Subject, what: @autoclosure () -> String, tolerated: String = "", operation: String,
        location: SourceLocation, symbols: [String]
    ) {
        let oldValues = old.enumValues?.map(\.description)
        let newValues = new.enumValues?.map(\.description)
        switch (oldValues, newValues) {
        case (nil, _?):
            if let rule = SpecDiffRule.becameEnum(subject) {
                add(rule, operation, location, "\(what()) was restricted to a list of enum values", symbols: symbols)
            }
        case (let oldValues?, let newValues?):
            for value in oldValues where !newValues.contains(value) {
                add(SpecDiffRule.enumValue(subject, added: false), operation, location, "removed the enum value \(value) from \(what())", symbols: symbols)
            }
            for value in newValues where !oldValues.contains(value) {
                add(SpecDiffRule.enumValue(subject, added: true), operation, location, "added the enum value \(value) to \(what())\(tolerated)", symbols: symbols)
            }
        default:
            break
        }
    }

    /// Bounds a value sent by the client must meet: tightened is breaking,
    /// relaxed compatible, newly set a warning.
    func compareConstraints(
        _ old: Schema, _ new: Schema, _ place: SpecDiffRule.Subject, subject: String, operation: String, location: SourceLocation, symbols: [String]
    ) {
        func check(_ bound: SpecDiffRule.Bound, _ keyword: String, _ a: Double?, _ b: Double?) {
            switch (a, b) {
            case (nil, let value?):
                guard let rule = SpecDiffRule.bound(place, bound, .set) else { return }
                add(rule, operation, location, "\(subject) \(keyword) was set to \(Self.number(value))", symbols: symbols)
            case (let a?, let b?) where a != b:
                guard let rule = SpecDiffRule.bound(place, bound, b < a ? .decreased : .increased) else { return }
                add(rule, operation, location, "\(subject) \(keyword) was \(b < a ? "decreased" : "increased") from \(Self.number(a)) to \(Self.number(b))",
                    symbols: symbols)
            default:
                break
            }
        }
        check(.max, "max", old.maximum, new.maximum)
        check(.min, "min", old.minimum, new.minimum)
        check(.maxLength, "maxLength", old.maxLength.map(Double.init), new.maxLength.map(Double.init))
        check(.minLength, "minLength", old.minLength.map(Double.init), new.minLength.map(Double.init))
        check(.maxItems, "maxItems", old.maxItems.map(Double.init), new.maxItems.map(Double.init))
        check(.minItems, "minItems", old.minItems.map(Double.init), new.minItems.map(Double.init))
        let change: SpecDiffRule.Change?
        switch (old.pattern, new.pattern) {
        case (nil, _?): change = .set
        case (let a?, let b?) where a != b: change = .changed
        case (_?, nil): change = .removed
        default: change = nil
        }
        guard let change, let rule = SpecDiffRule.pattern(place, change) else { return }
        let value = subject.replacingOccurrences(of: "'s", with: "") + " value"
        let message: String
        switch change {
        case .set: message = "added the pattern \(new.pattern ?? "") to \(value)"
        case .changed: message = "changed the pattern of \(value) from \(old.pattern ?? "") to \(new.pattern ?? "")"
        default: message = "removed the pattern from \(value)"
        }
        add(rule, operation, location, message, symbols: symbols)
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
                    add(hasDefault ? .newRequiredRequestPropertyWithDefault : .newRequiredRequestProperty,
                        context.operation, location, "added the new required request property \(path)\(hasDefault ? " with a default value" : "")", symbols: symbols)
                } else {
                    add(.newOptionalRequestProperty, context.operation, location, "added the new optional request property \(path)", symbols: symbols)
                }
            case .response:
                add(required ? .responseRequiredPropertyAdded : .responseOptionalPropertyAdded, context.operation, location,
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
                    add(.requestPropertyRemoved, context.operation, location, "removed the request property \(path)", symbols: symbols)
                case .response:
                    add(wasRequired ? .responseRequiredPropertyRemoved : .responseOptionalPropertyRemoved,
                        context.operation, location,
                        "removed the \(wasRequired ? "required" : "optional") property \(path) from the response with the \(context.status ?? "") status",
                        symbols: symbols)
                }
                continue
            }
            var isRequired = new.required.contains(name)
            let location = revision.resolve(newProperty)?.location ?? context.fallbackLocation
            var wasRequiredHere = wasRequired
            if context.direction == .response {
                // A property the spec assumes (`x-assumed`) is optional in a generated response, required or not.
                wasRequiredHere = wasRequired && !Self.isAssumed(oldProperty, in: old)
                isRequired = isRequired && !Self.isAssumed(newProperty, in: new)
            }
            switch context.direction {
            case .request where !wasRequiredHere && isRequired:
                let hasDefault = revision.resolve(newProperty)?.defaultValue != nil
                add(hasDefault ? .requestPropertyBecameRequiredWithDefault : .requestPropertyBecameRequired,
                    context.operation, location, "the request property \(path) became required", symbols: symbols)
            case .request where wasRequiredHere && !isRequired:
                add(.requestPropertyBecameOptional, context.operation, location, "the request property \(path) became optional", symbols: symbols)
            case .response where wasRequiredHere && !isRequired:
                // With a `default`, an absent field decodes as that value:
                // the generated property keeps its non-optional type.
                if let defaultValue = revision.resolve(newProperty)?.defaultValue {
                    add(.responsePropertyBecameOptionalWithDefault, context.operation, location,
                        "the response property \(path) became optional\(context.statusText); absent, it reads as its default \(defaultValue)",
                        symbols: symbols)
                } else {
                    let marked = new.required.contains(name) && Self.isAssumed(newProperty, in: new) ? " (the spec marks it x-assumed)" : ""
                    add(.responsePropertyBecameOptional, context.operation, location,
                        "the response property \(path) became optional\(context.statusText)\(marked)", symbols: symbols)
                }
            case .response where !wasRequiredHere && isRequired:
                add(.responsePropertyBecameRequired, context.operation, location,
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

    /// Whether `property` of `object` is a guess of the spec: its own
    /// `x-assumed`, else its object's.
    static func isAssumed(_ property: RefOr<Schema>, in object: Schema) -> Bool {
        AssumedExtension.isAssumed(property, objectAssumed: AssumedExtension.isMarked(object.extensions))
    }
}
