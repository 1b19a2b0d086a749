/// A value breaks a constraint of the spec: thrown before a request is sent
/// (nothing goes on the wire), or after a response is decoded when the client
/// checks responses (``ConstraintChecks/responses``).
///
/// The description names the operation, the JSON path of the value (wire
/// names: `body.phone`, `query.limit`, `response.items[3].status`), the rule
/// and the spec's value for it:
/// `verifyOTP: body.phone does not match ^\+[1-9]\d{1,14}$`. The value
/// itself is shown only for fields that are not secret-like.
public struct ConstraintViolation: Error, Sendable, Hashable, CustomStringConvertible {
    /// A JSON Schema rule with the spec's value.
    public enum Rule: Sendable, Hashable {
        /// `pattern` did not match.
        case pattern(String)
        /// Checking `pattern` took longer than `limit` and was stopped: the
        /// value is refused, not having been shown to match
        /// (``ValidationPattern/timeLimit``).
        case patternTimedOut(String, limit: Duration)
        /// Shorter than `minLength`.
        case minLength(Int)
        /// Longer than `maxLength`.
        case maxLength(Int)
        /// Below `minimum`.
        case minimum(Double)
        /// At or below `exclusiveMinimum`.
        case exclusiveMinimum(Double)
        /// Above `maximum`.
        case maximum(Double)
        /// At or above `exclusiveMaximum`.
        case exclusiveMaximum(Double)
        /// Not a multiple of `multipleOf`.
        case multipleOf(Double)
        /// Fewer items than `minItems`.
        case minItems(Int)
        /// More items than `maxItems`.
        case maxItems(Int)
        /// Not one of the `enum` values.
        case allowedValues([String])

        /// The JSON Schema keyword (`pattern`, `maxLength`, `enum`).
        public var keyword: String {
            switch self {
            case .pattern, .patternTimedOut: return "pattern"
            case .minLength: return "minLength"
            case .maxLength: return "maxLength"
            case .minimum: return "minimum"
            case .exclusiveMinimum: return "exclusiveMinimum"
            case .maximum: return "maximum"
            case .exclusiveMaximum: return "exclusiveMaximum"
            case .multipleOf: return "multipleOf"
            case .minItems: return "minItems"
            case .maxItems: return "maxItems"
            case .allowedValues: return "enum"
            }
        }
    }

    /// The operation.
    public let operationID: String
    /// The JSON path of the value, from `body`, `path`, `query`, `header`,
    /// `cookie` or `response`.
    public let path: String
    /// The rule broken, with the spec's value.
    public let rule: Rule
    /// What the value was (its length, count or text), nil for a secret-like field.
    public let actual: String?
    /// Whether a response broke it (the server's side), not a request.
    public let isInResponse: Bool

    /// Creates a violation.
    public init(operationID: String, path: String, rule: Rule, actual: String?, isInResponse: Bool) {
        self.operationID = operationID
        self.path = path
        self.rule = rule
        self.actual = actual
        self.isInResponse = isInResponse
    }

    /// `verifyOTP: body.phone does not match ^\+[1-9]\d{1,14}$`,
    /// `listPets: query.limit is 0, less than the minimum 1`.
    public var description: String {
        let was = actual.map { " (it is \($0))" } ?? ""
        let breaks: String
        switch rule {
        case .pattern(let pattern): breaks = "does not match \(pattern)\(was)"
        case .patternTimedOut(let pattern, let limit):
            breaks = "could not be checked against \(pattern) within \(limit) (its matching time grows too fast with the input), so it is refused\(was)"
        case .minLength(let count): breaks = "is shorter than \(count) characters\(was)"
        case .maxLength(let count): breaks = "is longer than \(count) characters\(was)"
        case .minimum(let bound): breaks = "is less than the minimum \(Self.number(bound))\(was)"
        case .exclusiveMinimum(let bound): breaks = "is not more than the exclusive minimum \(Self.number(bound))\(was)"
        case .maximum(let bound): breaks = "is more than the maximum \(Self.number(bound))\(was)"
        case .exclusiveMaximum(let bound): breaks = "is not less than the exclusive maximum \(Self.number(bound))\(was)"
        case .multipleOf(let step): breaks = "is not a multiple of \(Self.number(step))\(was)"
        case .minItems(let count): breaks = "has fewer than \(count) items\(was)"
        case .maxItems(let count): breaks = "has more than \(count) items\(was)"
        case .allowedValues(let values): breaks = "is not one of \(values.joined(separator: ", "))\(was)"
        }
        let side = isInResponse ? " (the server's response breaks the spec)" : ""
        return "\(operationID): \(path) \(breaks)\(side)"
    }

    /// `1` for 1.0, `0.01` for 0.01.
    static func number(_ value: Double) -> String {
        if value.rounded() == value, abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }
}
