import Foundation
import OpenAPIModel

/// Checks a JSON value against a schema of the spec: the JSON Schema
/// keywords OpenAPI 3.0 and 3.1 use (types and nullability, `enum`,
/// `const`, `required`, `properties`, `additionalProperties`,
/// `patternProperties`, property and item counts, `items`, `prefixItems`,
/// `uniqueItems`, bounds with their exclusive forms, `multipleOf`, lengths,
/// `pattern`, `format` for `date`, `date-time`, `uuid`, `email`, `int32` and
/// `int64`, `allOf`, `anyOf`,
/// `oneOf` (through the discriminator when there is one) and `not`).
struct SchemaValidator {
    let document: OpenAPIDocument
    let patterns: PatternCache
    /// Request bodies must not carry `readOnly` properties; responses `writeOnly` ones.
    let direction: Direction

    enum Direction {
        case request, response
    }

    /// Every violation of `value` against `schema`, with `field` as the path
    /// so far. What the spec marks a guess (`x-assumed`: the schema, or the
    /// use site when `assumed`) is held to its type only, both ways: the
    /// sandbox takes what the document allows, as the real backend would,
    /// and may answer as a real backend whose answer differs from the guess.
    func violations(_ value: JSONValue, _ schema: RefOr<Schema>, field: String, depth: Int = 0, assumed: Bool = false) -> [ContractViolation] {
        guard depth < 64, let resolved = document.resolve(schema) else { return [] }
        return violations(value, resolved, field: field, depth: depth, assumed: assumed)
    }

    private func violations(_ value: JSONValue, _ schema: Schema, field: String, depth: Int, assumed: Bool = false) -> [ContractViolation] {
        func violation(_ rule: String, _ message: String, at location: SourceLocation? = nil) -> ContractViolation {
            ContractViolation(rule: rule, field: field, message: message, location: location ?? schema.location)
        }
        if let always = schema.alwaysValid {
            return always ? [] : [violation("false", "no value is allowed here")]
        }
        var found: [ContractViolation] = []
        if !schema.types.isEmpty, !schema.types.contains(where: { Self.matches(value, $0) }) {
            let names = schema.types.map(\.rawValue).joined(separator: " or ")
            return [violation("type", "must be \(names), not \(value.jsonTypeName)")]
        }
        if assumed || AssumedExtension.isMarked(schema.extensions) { return [] }
        if let allowed = schema.enumValues, !allowed.contains(where: { Self.equal($0, value) }) {
            found.append(violation("enum", "must be one of " + allowed.map(\.description).joined(separator: ", ")))
        }
        if let constant = schema.constValue, !Self.equal(constant, value) {
            found.append(violation("const", "must be \(constant)"))
        }
        switch value {
        case .string(let text): found += stringViolations(text, schema, violation)
        case .int, .double: found += numberViolations(value, schema, violation)
        case .array(let items): found += arrayViolations(items, schema, field: field, depth: depth, violation)
        case .object(let members): found += objectViolations(members, schema, field: field, depth: depth, violation)
        case .null, .bool: break
        }
        for part in schema.allOf {
            found += violations(value, part, field: field, depth: depth + 1)
        }
        if !schema.anyOf.isEmpty, !schema.anyOf.contains(where: { violations(value, $0, field: field, depth: depth + 1).isEmpty }) {
            found.append(violation("anyOf", "matches none of the \(schema.anyOf.count) schemas anyOf lists"))
        }
        if !schema.oneOf.isEmpty {
            found += oneOfViolations(value, schema, field: field, depth: depth, violation)
        }
        if let not = schema.not, violations(value, not, field: field, depth: depth + 1).isEmpty {
            found.append(violation("not", "matches the schema `not` excludes"))
        }
        return found
    }

    private func stringViolations(_ text: String, _ schema: Schema, _ violation: (String, String, SourceLocation?) -> ContractViolation) -> [ContractViolation] {
        var found: [ContractViolation] = []
        let length = text.count
        if let minimum = schema.minLength, length < minimum { found.append(violation("minLength", "is shorter than minLength \(minimum)", nil)) }
        if let maximum = schema.maxLength, length > maximum { found.append(violation("maxLength", "is longer than maxLength \(maximum)", nil)) }
        if let pattern = schema.pattern, let regex = patterns.regex(pattern),
           regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) == nil {
            found.append(violation("pattern", "does not match pattern \(pattern)", nil))
        }
        if let format = schema.format, !Self.hasFormat(text, format) {
            found.append(violation("format", "is not a valid \(format)", nil))
        }
        return found
    }

    private func numberViolations(_ value: JSONValue, _ schema: Schema, _ violation: (String, String, SourceLocation?) -> ContractViolation) -> [ContractViolation] {
        let number: Double
        switch value {
        case .int(let integer): number = Double(integer)
        case .double(let double): number = double
        default: return []
        }
        var found: [ContractViolation] = []
        if let minimum = schema.minimum, number < minimum { found.append(violation("minimum", "is less than minimum \(Self.text(minimum))", nil)) }
        if let maximum = schema.maximum, number > maximum { found.append(violation("maximum", "is more than maximum \(Self.text(maximum))", nil)) }
        if let minimum = schema.exclusiveMinimum, number <= minimum {
            found.append(violation("exclusiveMinimum", "is not more than exclusiveMinimum \(Self.text(minimum))", nil))
        }
        if let maximum = schema.exclusiveMaximum, number >= maximum {
            found.append(violation("exclusiveMaximum", "is not less than exclusiveMaximum \(Self.text(maximum))", nil))
        }
        if let step = schema.multipleOf, step > 0 {
            let quotient = number / step
            if abs(quotient - quotient.rounded()) > 1e-9 * max(1, abs(quotient)) {
                found.append(violation("multipleOf", "is not a multiple of \(Self.text(step))", nil))
            }
        }
        if schema.format == "int32", case .int(let integer) = value, !(Int(Int32.min)...Int(Int32.max)).contains(integer) {
            found.append(violation("format", "does not fit int32", nil))
        }
        // A whole number past Int64's ends is read as a Double; it fits
        // neither format (2^63 itself is the first Double past the end).
        if schema.format == "int64" || schema.format == "int32", case .double(let double) = value, double.rounded() == double,
           !(double >= -9_223_372_036_854_775_808.0 && double < 9_223_372_036_854_775_808.0) {
            found.append(violation("format", "does not fit \(schema.format ?? "int64")", nil))
        }
        return found
    }

    private func arrayViolations(
        _ items: [JSONValue], _ schema: Schema, field: String, depth: Int, _ violation: (String, String, SourceLocation?) -> ContractViolation
    ) -> [ContractViolation] {
        var found: [ContractViolation] = []
        if let minimum = schema.minItems, items.count < minimum { found.append(violation("minItems", "has fewer than minItems \(minimum) items", nil)) }
        if let maximum = schema.maxItems, items.count > maximum { found.append(violation("maxItems", "has more than maxItems \(maximum) items", nil)) }
        if schema.uniqueItems {
            for (index, item) in items.enumerated() where items[..<index].contains(where: { Self.equal($0, item) }) {
                found.append(violation("uniqueItems", "item \(index) repeats an earlier item", nil))
                break
            }
        }
        for (index, item) in items.enumerated() {
            let itemSchema = index < schema.prefixItems.count ? schema.prefixItems[index] : schema.items
            if let itemSchema { found += violations(item, itemSchema, field: "\(field)[\(index)]", depth: depth + 1) }
        }
        return found
    }

    private func objectViolations(
        _ members: OrderedMap<JSONValue>, _ schema: Schema, field: String, depth: Int,
        _ violation: (String, String, SourceLocation?) -> ContractViolation
    ) -> [ContractViolation] {
        var found: [ContractViolation] = []
        func member(_ name: String) -> String { field.isEmpty ? name : field + "." + name }
        for name in schema.required where members[name] == nil {
            let skip = schema.properties[name].flatMap { document.resolve($0) }.map { direction == .request ? $0.readOnly : $0.writeOnly } ?? false
            if !skip { found.append(ContractViolation(rule: "required", field: member(name), message: "is required", location: schema.location)) }
        }
        if let minimum = schema.minProperties, members.count < minimum { found.append(violation("minProperties", "has fewer than \(minimum) members", nil)) }
        if let maximum = schema.maxProperties, members.count > maximum { found.append(violation("maxProperties", "has more than \(maximum) members", nil)) }
        for (name, value) in members {
            if let property = schema.properties[name] {
                if let resolved = document.resolve(property), direction == .request ? resolved.readOnly : resolved.writeOnly {
                    let keyword = direction == .request ? "readOnly" : "writeOnly"
                    found.append(ContractViolation(rule: keyword, field: member(name), message: "is \(keyword) and must not be sent", location: resolved.location))
                    continue
                }
                found += violations(value, property, field: member(name), depth: depth + 1)
                continue
            }
            let patterned = schema.patternProperties.filter { key, _ in patterns.regex(key).map { $0.firstMatch(in: name, range: NSRange(name.startIndex..., in: name)) != nil } ?? false }
            if !patterned.isEmpty {
                for (_, propertySchema) in patterned { found += violations(value, propertySchema, field: member(name), depth: depth + 1) }
                continue
            }
            switch schema.additionalProperties {
            case .allowed(false)?:
                found.append(ContractViolation(rule: "additionalProperties", field: member(name), message: "is not a property the schema allows", location: schema.location))
            case .schema(let extra)?:
                found += violations(value, extra, field: member(name), depth: depth + 1)
            case .allowed(true)?, nil:
                break
            }
        }
        return found
    }

    private func oneOfViolations(
        _ value: JSONValue, _ schema: Schema, field: String, depth: Int, _ violation: (String, String, SourceLocation?) -> ContractViolation
    ) -> [ContractViolation] {
        if let discriminator = schema.discriminator, case .object(let members) = value {
            guard let tag = members[discriminator.propertyName]?.stringValue else {
                return [ContractViolation(rule: "discriminator", field: field.isEmpty ? discriminator.propertyName : field + "." + discriminator.propertyName,
                                          message: "is required to choose among the oneOf schemas", location: discriminator.location)]
            }
            let chosen: RefOr<Schema>? = discriminator.mapping[tag].map { RefOr.reference($0) }
                ?? schema.oneOf.first { $0.reference?.componentName == tag }
            guard let chosen else {
                let known = discriminator.mapping.keys.isEmpty ? schema.oneOf.compactMap { $0.reference?.componentName } : discriminator.mapping.keys
                return [violation("discriminator", "\(discriminator.propertyName) must be one of " + known.joined(separator: ", "), discriminator.location)]
            }
            return violations(value, chosen, field: field, depth: depth + 1)
        }
        let matching = schema.oneOf.filter { violations(value, $0, field: field, depth: depth + 1).isEmpty }.count
        if matching == 1 { return [] }
        return [violation("oneOf", matching == 0 ? "matches none of the \(schema.oneOf.count) schemas oneOf lists" : "matches \(matching) of the schemas oneOf lists, not exactly one", nil)]
    }

    // MARK: Values

    static func matches(_ value: JSONValue, _ type: JSONType) -> Bool {
        switch (value, type) {
        case (.null, .null), (.bool, .boolean), (.string, .string), (.array, .array), (.object, .object): return true
        case (.int, .integer), (.int, .number), (.double, .number): return true
        case (.double(let number), .integer): return number.rounded() == number && number.isFinite
        default: return false
        }
    }

    /// JSON equality: `1` and `1.0` are one number; object member order does not count.
    static func equal(_ left: JSONValue, _ right: JSONValue) -> Bool {
        switch (left, right) {
        case (.int(let a), .double(let b)), (.double(let b), .int(let a)): return Double(a) == b
        case (.array(let a), .array(let b)): return a.count == b.count && zip(a, b).allSatisfy { equal($0, $1) }
        case (.object(let a), .object(let b)):
            return a.count == b.count && a.allSatisfy { key, value in b[key].map { equal(value, $0) } ?? false }
        default: return left == right
        }
    }

    static func hasFormat(_ text: String, _ format: String) -> Bool {
        switch format {
        case "uuid":
            return UUID(uuidString: text) != nil
        case "email":
            // An address has a local part and a domain around its last `@`
            // (RFC 5321's shape; the mailbox itself is not checked).
            guard let at = text.lastIndex(of: "@") else { return false }
            return at != text.startIndex && text.index(after: at) != text.endIndex && !text.contains(where: \.isWhitespace)
        case "date":
            return isCalendarDate(text)
        case "date-time":
            guard let match = text.wholeMatch(of: /(\d{4}-\d{2}-\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})/),
                  let hour = Int(match.2), let minute = Int(match.3), let second = Int(match.4) else { return false }
            return isCalendarDate(String(match.1)) && hour < 24 && minute < 60 && second <= 60
        default:
            return true
        }
    }

    /// `YYYY-MM-DD` naming a day that exists (RFC 3339 full-date: 2024-02-29 yes, 2023-02-29 no).
    static func isCalendarDate(_ text: String) -> Bool {
        guard let match = text.wholeMatch(of: /(\d{4})-(\d{2})-(\d{2})/), let year = Int(match.1), let month = Int(match.2), let day = Int(match.3),
              (1...12).contains(month), day >= 1 else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        return day <= days
    }

    static func text(_ number: Double) -> String {
        number.rounded() == number && abs(number) < 1e15 ? String(Int(number)) : String(number)
    }
}

/// Patterns compiled once per contract; a pattern Foundation cannot compile
/// is not checked (clientgen lint reports it as `pattern-not-checked`).
final class PatternCache: @unchecked Sendable {
    // Safe: `compiled` is only read and written while holding `lock`, and
    // NSRegularExpression is immutable and documented thread-safe.
    private let lock = NSLock()
    private var compiled: [String: NSRegularExpression?] = [:]

    func regex(_ pattern: String) -> NSRegularExpression? {
        lock.withLock {
            if let known = compiled[pattern] { return known }
            let regex = try? NSRegularExpression(pattern: pattern)
            compiled[pattern] = regex
            return regex
        }
    }
}
