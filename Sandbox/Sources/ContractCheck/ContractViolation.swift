import OpenAPIModel

/// One way a request breaks its spec: the rule, where in the request, and
/// the spec node that states the rule (file:line:column), so a client's
/// author can read both sides.
///
/// Messages name the spec's value (`maxLength 64`, `pattern ^\+[1-9]\d{1,14}$`),
/// never the value received: a sandbox answers with them, and the request
/// may carry a phone number or a token.
public struct ContractViolation: Sendable, Hashable, CustomStringConvertible {
    /// The rule broken: a JSON Schema keyword (`required`, `type`, `pattern`,
    /// `maxLength`, `enum`, `additionalProperties`, ...) or a request rule
    /// (`path`, `method`, `parameter`, `content-type`, `body`, `json`).
    public let rule: String
    /// Where in the request: `body.phone`, `query.limit`, `header.X-API-Key`,
    /// `path`; empty for the request as a whole.
    public let field: String
    /// What is wrong, in words.
    public let message: String
    /// The spec node that states the rule, when there is one.
    public let location: SourceLocation?

    /// Creates a violation.
    public init(rule: String, field: String, message: String, location: SourceLocation?) {
        self.rule = rule
        self.field = field
        self.message = message
        self.location = location
    }

    /// `file:line:column` of the rule in the spec, or nil.
    public var specPosition: String? {
        location.map { "\($0.file):\($0.mark.line):\($0.mark.column)" }
    }

    /// `body.phone: does not match pattern ^\+[1-9]\d{1,14}$ [pattern] (specs/soul.yaml:120:18)`.
    public var description: String {
        (field.isEmpty ? "" : field + ": ") + message + " [\(rule)]" + (specPosition.map { " (\($0))" } ?? "")
    }
}
