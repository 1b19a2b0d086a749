import YAMLReader

/// Numbers as the spec means them, or an error: a bound, default, enum
/// value or example must be a finite number that the schema's type and
/// format can hold (`int32`, `int64` or an integer of no format, `float`),
/// since generated code writes each as a Swift literal of that type.
/// `maximum: 1e999` (YAML reads it as infinity), `.inf`, `"nan"`, or an
/// `int32` default of 9999999999 are reported at their place.
extension LoadSession {
    /// What numbers a schema's values are, for the checks.
    private enum NumberKind {
        case int32, int64, float, double

        var name: String {
            switch self {
            case .int32: return "an int32"
            case .int64: return "a 64-bit integer"
            case .float: return "a float"
            case .double: return "a number"
            }
        }
    }

    func checkNumbers(_ schema: inout Schema, at node: Node) {
        let kind: NumberKind?
        let numeric = schema.types.filter { $0 == .integer || $0 == .number }
        if numeric == [.integer] {
            kind = schema.format == "int32" ? .int32 : .int64
        } else if numeric.contains(.number) {
            kind = schema.format == "float" ? .float : .double
        } else {
            kind = nil
        }
        // Bounds: a non-finite one is an error whatever the type (it bounds
        // nothing a client can send); a finite one out of the format's range
        // bounds nothing either when it lies beyond the range's own end
        // (OpenAI writes int64's limits as -9223372036854776000 and
        // 9223372036854776000, the doubles next to them): a warning, read as
        // no bound. One that leaves no value of the format is an error.
        func checkBound(_ key: String, _ value: inout Double?) {
            guard let number = value, let at = node.child(key) else { return }
            guard let problem = Self.problem(with: .double(number), as: kind ?? .double) else { return }
            let isUpper = key == "maximum" || key == "exclusiveMaximum"
            if number.isFinite, let kind, let range = Self.range(of: kind), key != "multipleOf",
                isUpper ? number >= range.upperBound : number <= range.lowerBound
            {
                report(
                    .boundOutsideFormat, "'\(key)' is \(problem); it excludes no value of \(kind.name) and is read as no bound", at: at,
                    hint: "remove '\(key)', or write \(kind.name)'s own limit")
            } else {
                report(
                    .invalidNumber, "'\(key)' is \(problem)", at: at,
                    hint: "write a finite number \(kind.map { "that \($0.name) can hold" } ?? ""), or remove '\(key)'")
            }
            value = nil
        }
        checkBound("minimum", &schema.minimum)
        checkBound("maximum", &schema.maximum)
        checkBound("exclusiveMinimum", &schema.exclusiveMinimum)
        checkBound("exclusiveMaximum", &schema.exclusiveMaximum)
        checkBound("multipleOf", &schema.multipleOf)
        if let step = schema.multipleOf, step <= 0, let at = node.child("multipleOf") {
            report(.invalidNumber, "'multipleOf' is \(step), not a number greater than 0", at: at, hint: "write a positive number, or remove 'multipleOf'")
            schema.multipleOf = nil
        }
        guard let kind else { return }
        if let value = schema.defaultValue, let problem = Self.problem(with: value, as: kind), let at = node.child("default") {
            report(.invalidNumber, "the default \(Self.text(of: at, value)) is \(problem)", at: at, hint: "write a default \(kind.name) can hold")
            schema.defaultValue = nil
        }
        if let values = schema.enumValues, let enumNode = node.child("enum") {
            let items = enumNode.items
            var kept: [JSONValue] = []
            for (index, value) in values.enumerated() {
                guard let problem = Self.problem(with: value, as: kind) else {
                    kept.append(value)
                    continue
                }
                let at = index < items.count ? items[index] : enumNode
                report(.invalidNumber, "the enum value \(Self.text(of: at, value)) is \(problem)", at: at, hint: "write values \(kind.name) can hold")
            }
            schema.enumValues = kept
        }
        for key in ["example", "examples"] {
            guard let holder = node.child(key) else { continue }
            let places = key == "example" ? [holder] : holder.items
            for place in places {
                let value = json(place)
                guard let problem = Self.problem(with: value, as: kind) else { continue }
                report(.invalidNumber, "the example \(Self.text(of: place, value)) is \(problem)", at: place, hint: "write an example \(kind.name) can hold")
            }
        }
    }

    /// What is wrong with `value` as a number of `kind`, in words; nil when
    /// nothing is, or when it is not a number at all (other checks say so).
    private static func problem(with value: JSONValue, as kind: NumberKind) -> String? {
        switch value {
        case .int(let number):
            if kind == .int32, Int32(exactly: number) == nil { return "out of the range of \(kind.name) (\(Int32.min)...\(Int32.max))" }
            return nil
        case .double(let number):
            guard number.isFinite else { return "not a finite number" }
            switch kind {
            case .int32, .int64:
                guard number.rounded() == number else { return "not an integer" }
                let fits = kind == .int32 ? Int32(exactly: number) != nil : Int64(exactly: number) != nil
                return fits ? nil : "out of the range of \(kind.name) (\(kind == .int32 ? "\(Int32.min)...\(Int32.max)" : "\(Int64.min)...\(Int64.max)"))"
            case .float:
                return abs(number) > Double(Float.greatestFiniteMagnitude) ? "out of the range of a float (±\(Float.greatestFiniteMagnitude))" : nil
            case .double:
                return nil
            }
        default:
            return nil
        }
    }

    /// The values a number of `kind` holds; nil when every finite double is one.
    private static func range(of kind: NumberKind) -> ClosedRange<Double>? {
        switch kind {
        case .int32: return Double(Int32.min)...Double(Int32.max)
        case .int64: return Double(Int64.min)...Double(Int64.max)
        case .float: return -Double(Float.greatestFiniteMagnitude)...Double(Float.greatestFiniteMagnitude)
        case .double: return nil
        }
    }

    /// The value as the spec writes it.
    private static func text(of node: Node, _ value: JSONValue) -> String {
        node.kind == .scalar ? (node.text ?? value.description) : value.description
    }
}
