import Foundation
import YAMLReader

/// Schema Objects, for OpenAPI 3.0 (a JSON Schema draft 4 dialect) and 3.1
/// (JSON Schema 2020-12), normalised to one ``Schema`` shape.
extension LoadSession {
    static let schemaKeywords = [
        "type", "format", "title", "description", "default", "const", "enum", "example", "examples", "properties",
        "required", "additionalProperties", "patternProperties", "minProperties", "maxProperties", "items",
        "prefixItems", "minItems", "maxItems", "uniqueItems", "allOf", "oneOf", "anyOf", "not", "discriminator",
        "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minLength", "maxLength",
        "pattern", "nullable", "readOnly", "writeOnly", "deprecated", "externalDocs", "xml", "$defs",
        "contentEncoding", "contentMediaType", "contentSchema",
    ]

    /// JSON Schema 2020-12 keywords that 3.1 documents may use and the model keeps verbatim.
    static let passThroughKeywords: Set<String> = [
        "$id", "$schema", "$anchor", "$dynamicAnchor", "$dynamicRef", "$comment", "$vocabulary", "contains",
        "minContains", "maxContains", "if", "then", "else", "dependentSchemas", "dependentRequired",
        "propertyNames", "unevaluatedProperties", "unevaluatedItems",
    ]

    /// Wrong type names seen in real specs, and what they mean.
    static let typeAliases: [String: (JSONType, String?)] = [
        "int": (.integer, nil), "int32": (.integer, "int32"), "int64": (.integer, "int64"), "long": (.integer, "int64"),
        "float": (.number, "float"), "double": (.number, "double"), "decimal": (.number, nil), "bool": (.boolean, nil),
        "str": (.string, nil), "text": (.string, nil), "dict": (.object, nil), "map": (.object, nil), "list": (.array, nil),
        "file": (.string, "binary"), "date": (.string, "date"), "datetime": (.string, "date-time"),
    ]

    /// A schema, or a reference to one.
    func schemaOrRef(_ node: Node) -> RefOr<Schema>? {
        if node.kind == .scalar, case .bool(let value)? = node.tree.scalar(node.id) {
            if !version.usesJSONSchema2020 {
                report(.booleanSchema, "boolean schemas ('\(value)') are OpenAPI 3.1; 3.0 reads it as \(value ? "any value" : "no value")", at: node)
            }
            var schema = Schema(location: node.location)
            schema.alwaysValid = value
            return .value(schema)
        }
        guard expectObject(node, "a schema") else { return nil }
        guard let refNode = node.child("$ref") else { return .value(schema(node)) }
        let siblings = node.keys.filter { $0 != "$ref" && $0 != "description" && $0 != "summary" && !$0.hasPrefix("x-") }
        guard let reference = reference(refNode, of: node, expecting: Schema.self, parse: { [unowned self] in self.schema($0) }) else {
            return nil
        }
        if siblings.isEmpty { return .reference(reference) }
        if !version.usesJSONSchema2020 {
            for key in siblings {
                report(
                    .refSiblingIgnored, "'\(key)' next to '$ref' is ignored in OpenAPI 3.0", at: node.keyNode(key) ?? node,
                    hint: "wrap the reference: 'allOf: [{$ref: ...}]' and put '\(key)' beside 'allOf'")
            }
            return .reference(reference)
        }
        // 3.1: `$ref` applies together with its siblings.
        var combined = schema(node)
        combined.allOf.insert(.reference(reference), at: 0)
        return .value(combined)
    }

    /// A Schema Object (any `$ref` in it is handled by ``schemaOrRef(_:)``).
    func schema(_ node: Node) -> Schema {
        var schema = Schema(location: node.location)
        var nullable = false
        var exclusiveMinimumFlag = false
        var exclusiveMaximumFlag = false
        fields(of: node, "a schema", known: Self.schemaKeywords, extensions: &schema.extensions) { key, value in
            switch key {
            case "$ref": break
            case "type": schema.types = types(value, format: &schema.format)
            case "format": if let format = string(value) { schema.format = format }
            case "title": schema.title = string(value)
            case "description": schema.description = string(value)
            case "default": schema.defaultValue = json(value)
            case "const": schema.constValue = json(value)
            case "enum":
                if value.kind == .sequence {
                    schema.enumValues = value.items.map { json($0) }
                } else {
                    report(.wrongValueKind, "'enum' must be a list of values, found \(describe(value)); it is ignored", at: value)
                }
            case "example": schema.examples.insert(json(value), at: 0)
            case "examples":
                if value.kind == .sequence {
                    schema.examples += value.items.map { json($0) }
                } else {
                    report(.wrongValueKind, "'examples' in a schema must be a list, found \(describe(value))", at: value, hint: "use 'example:' for a single value")
                }
            case "properties":
                schema.properties = map(value, "a map of property schemas") { name, property in
                    checkVisible(name, "property name", at: value.keyNode(name) ?? property)
                    return schemaOrRef(property)
                }
            case "required":
                if value.kind == .scalar, case .bool? = value.tree.scalar(value.id) {
                    report(
                        .requiredNotList, "'required: true' on a schema has no effect; 'required' lists property names on the object",
                        at: value, hint: "remove it here and add this property's name to the 'required' list of the object schema")
                } else {
                    schema.required = stringList(value)
                }
            case "additionalProperties":
                if value.kind == .scalar, case .bool(let allowed)? = value.tree.scalar(value.id) {
                    schema.additionalProperties = .allowed(allowed)
                } else if let nested = schemaOrRef(value) {
                    schema.additionalProperties = .schema(nested)
                }
            case "patternProperties":
                schema.patternProperties = map(value, "a map of pattern schemas") { _, property in schemaOrRef(property) }
            case "minProperties": schema.minProperties = int(value)
            case "maxProperties": schema.maxProperties = int(value)
            case "items":
                if value.kind == .sequence {
                    report(
                        .itemsList, "'items' as a list (a tuple) is not OpenAPI; it is read as 'prefixItems'", at: value,
                        hint: "use 'prefixItems:' (3.1) or a single schema under 'items:'")
                    schema.prefixItems = value.items.compactMap { schemaOrRef($0) }
                } else {
                    schema.items = schemaOrRef(value)
                }
            case "prefixItems": schema.prefixItems = list(value, "schemas") { schemaOrRef($0) }
            case "minItems": schema.minItems = int(value)
            case "maxItems": schema.maxItems = int(value)
            case "uniqueItems": schema.uniqueItems = bool(value) ?? false
            case "allOf": schema.allOf = list(value, "schemas") { schemaOrRef($0) }
            case "oneOf": schema.oneOf = list(value, "schemas") { schemaOrRef($0) }
            case "anyOf": schema.anyOf = list(value, "schemas") { schemaOrRef($0) }
            case "not": schema.not = schemaOrRef(value)
            case "discriminator": schema.discriminator = discriminator(value)
            case "minimum": schema.minimum = number(value)
            case "maximum": schema.maximum = number(value)
            case "exclusiveMinimum", "exclusiveMaximum":
                let isMinimum = key == "exclusiveMinimum"
                if value.kind == .scalar, case .bool(let flag)? = value.tree.scalar(value.id) {
                    if version.usesJSONSchema2020 {
                        report(
                            .booleanExclusiveBound, "a boolean '\(key)' is OpenAPI 3.0; in 3.1 it is the bound itself",
                            at: value, hint: "write '\(key): <number>' and remove '\(isMinimum ? "minimum" : "maximum")'")
                    }
                    if isMinimum { exclusiveMinimumFlag = flag } else { exclusiveMaximumFlag = flag }
                } else if let bound = number(value) {
                    if !version.usesJSONSchema2020 {
                        report(.numericExclusiveBound, "a numeric '\(key)' is OpenAPI 3.1; it is read as an exclusive bound", at: value)
                    }
                    if isMinimum { schema.exclusiveMinimum = bound } else { schema.exclusiveMaximum = bound }
                }
            case "multipleOf": schema.multipleOf = number(value)
            case "minLength": schema.minLength = int(value)
            case "maxLength": schema.maxLength = int(value)
            case "pattern":
                schema.pattern = string(value)
                if let pattern = schema.pattern, !RegularExpressionSupport.compiles(pattern) {
                    report(
                        .patternNotChecked,
                        "the pattern '\(pattern)' does not compile as an NSRegularExpression (ICU); generated clients do not check it",
                        at: value, hint: "write it in the ECMA-262 syntax ICU shares (no lookbehind with unbounded length, no named back-references such as \\k<name>)")
                }
                if let pattern = schema.pattern, let shape = RegularExpressionSupport.slowShape(of: pattern) {
                    report(
                        .slowPattern,
                        "checking the pattern '\(HiddenCharacters.visible(pattern))' can take time that grows exponentially with the value: \(shape); generated clients stop a check after 50 ms of processor time and refuse the value",
                        at: value, hint: "write it so that each part of a value can match one way only, such as '^a+$' for '^(a+)+$'")
                }
            case "nullable":
                nullable = bool(value) ?? false
                if version.usesJSONSchema2020 {
                    report(
                        .nullableIn31, "'nullable' was removed in OpenAPI 3.1; it is read as allowing null", at: value,
                        hint: "write the type as a list that includes \"null\", such as 'type: [string, \"null\"]'")
                }
            case "readOnly": schema.readOnly = bool(value) ?? false
            case "writeOnly": schema.writeOnly = bool(value) ?? false
            case "deprecated": schema.deprecated = bool(value) ?? false
            case "externalDocs": schema.externalDocs = externalDocs(value)
            case "xml": schema.otherKeywords[key] = json(value)
            case "$defs", "definitions":
                schema.definitions = map(value, "a map of schemas") { _, definition in schemaOrRef(definition) }
            case "contentEncoding": schema.contentEncoding = string(value)
            case "contentMediaType": schema.contentMediaType = string(value)
            case "contentSchema": schema.contentSchema = schemaOrRef(value)
            default:
                // 3.1 schemas may carry any keyword; keep it, and flag only likely typos.
                guard Self.passThroughKeywords.contains(key) || version.usesJSONSchema2020 else { return false }
                schema.otherKeywords[key] = json(value)
                return Self.passThroughKeywords.contains(key) || closest(to: key, in: Self.schemaKeywords) == nil
            }
            return true
        }
        if exclusiveMinimumFlag, let minimum = schema.minimum {
            schema.exclusiveMinimum = minimum
            schema.minimum = nil
        }
        if exclusiveMaximumFlag, let maximum = schema.maximum {
            schema.exclusiveMaximum = maximum
            schema.maximum = nil
        }
        if nullable, !schema.types.contains(.null) {
            if !schema.types.isEmpty { schema.types.append(.null) }
        }
        if nullable, schema.types.isEmpty {
            // `nullable` with no type: any value, null included; keep the flag visible.
            schema.otherKeywords["nullable"] = .bool(true)
        }
        checkEnum(&schema, at: node)
        checkNumbers(&schema, at: node)
        if schema.types.contains(.array), schema.items == nil, schema.prefixItems.isEmpty, !version.usesJSONSchema2020,
            node.child("items") == nil
        {
            report(
                .arrayWithoutItems, "an array schema without 'items' accepts items of any type", at: node,
                hint: "add 'items:' with the schema of the elements")
        }
        return schema
    }

    /// `type`: one name, or (3.1) a list of names; unknown names mapped when they are common mistakes.
    private func types(_ node: Node, format: inout String?) -> [JSONType] {
        var names: [Node] = []
        switch node.kind {
        case .scalar: names = [node]
        case .sequence:
            names = node.items
            if !version.usesJSONSchema2020 {
                report(
                    .typeListIn30, "a list of types is OpenAPI 3.1; OpenAPI 3.0 allows one type", at: node,
                    hint: "use one type with 'nullable: true', or 'oneOf', or declare 'openapi: 3.1.0'")
            }
        case .mapping:
            report(.wrongValueKind, "'type' must be a type name, found a mapping; it is ignored", at: node)
            return []
        }
        var result: [JSONType] = []
        for nameNode in names {
            guard let name = nameNode.text else { continue }
            if let type = JSONType(rawValue: name) {
                if type == .null, !version.usesJSONSchema2020 {
                    report(.nullTypeIn30, "type 'null' is OpenAPI 3.1", at: nameNode, hint: "use 'nullable: true' in OpenAPI 3.0")
                }
                if !result.contains(type) { result.append(type) }
            } else if let (type, impliedFormat) = Self.typeAliases[name.lowercased()] {
                let formatHint = impliedFormat.map { " with 'format: \($0)'" } ?? ""
                report(
                    .unknownType, "unknown schema type '\(name)'; it is read as '\(type.rawValue)'\(formatHint)", at: nameNode,
                    hint: "write 'type: \(type.rawValue)'\(formatHint)")
                if !result.contains(type) { result.append(type) }
                if format == nil, let impliedFormat { format = impliedFormat }
            } else {
                report(
                    .unknownType, "unknown schema type '\(name)' is ignored", at: nameNode,
                    hint: "use one of: \(JSONType.allCases.map(\.rawValue).joined(separator: ", "))")
            }
        }
        return result
    }

    /// Enum members whose JSON type contradicts the schema's `type` (an
    /// integer in a string enum) are reported and converted to strings.
    private func checkEnum(_ schema: inout Schema, at node: Node) {
        guard let values = schema.enumValues, schema.singleType == .string, let enumNode = node.child("enum") else { return }
        let items = enumNode.items
        schema.enumValues = values.enumerated().map { index, value in
            switch value {
            case .string, .null: return value
            case .int, .double, .bool:
                let itemNode = index < items.count ? items[index] : enumNode
                let text = itemNode.text ?? value.description
                report(
                    .enumTypeMismatch, "enum value \(text) is \(value.jsonTypeName == "boolean" ? "a boolean" : "a number") but the schema's type is string; it is read as the string \"\(text)\"",
                    at: itemNode, hint: "quote it: '\(text)'")
                return .string(text)
            case .array, .object:
                let itemNode = index < items.count ? items[index] : enumNode
                report(.enumTypeMismatch, "enum value is \(value.jsonTypeName == "array" ? "a list" : "an object") but the schema's type is string", at: itemNode)
                return value
            }
        }
    }

    private func discriminator(_ node: Node) -> Discriminator? {
        var discriminator = Discriminator(location: node.location)
        var extensions = OrderedMap<JSONValue>()
        let known = ["propertyName", "mapping"] + (version.minor >= 2 ? ["defaultMapping"] : [])
        fields(of: node, "a discriminator", known: known, extensions: &extensions) { key, value in
            switch key {
            case "defaultMapping" where version.minor >= 2:
                guard let text = string(value) else { return true }
                let ref = text.contains("#") || text.contains("/") || text.hasSuffix(".yaml") || text.hasSuffix(".json")
                    ? text : "#/components/schemas/" + JSONPointer.escape(text)
                let resolved = resolve(ref, at: value, expecting: Schema.self, parse: { [unowned self] in self.schema($0) })
                discriminator.defaultMapping = Reference(ref: text, target: resolved, location: value.location)
            case "propertyName": discriminator.propertyName = string(value) ?? ""
            case "mapping":
                discriminator.mapping = map(value, "a discriminator mapping") { _, target in
                    guard let text = string(target) else { return nil }
                    let ref = text.contains("#") || text.contains("/") || text.hasSuffix(".yaml") || text.hasSuffix(".json")
                        ? text : "#/components/schemas/" + JSONPointer.escape(text)
                    let resolved = resolve(ref, at: target, expecting: Schema.self, parse: { [unowned self] in self.schema($0) })
                    return Reference(ref: text, target: resolved, location: target.location)
                }
            default: return false
            }
            return true
        }
        if discriminator.propertyName.isEmpty { missing("propertyName", in: node, "a discriminator") }
        return discriminator
    }

    func externalDocs(_ node: Node) -> ExternalDocumentation? {
        var docs = ExternalDocumentation(location: node.location)
        var extensions = OrderedMap<JSONValue>()
        fields(of: node, "an External Documentation object", known: ["description", "url"], extensions: &extensions) { key, value in
            switch key {
            case "description": docs.description = string(value)
            case "url": docs.url = string(value) ?? ""
            default: return false
            }
            return true
        }
        return docs
    }
}
