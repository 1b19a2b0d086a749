/// Which values a client checks against the spec's constraints (`pattern`,
/// lengths, bounds, item counts, `enum`).
///
/// Requests are checked by default: a value the server would refuse fails at
/// once with ``ConstraintViolation``, naming the field and rule, and nothing
/// is sent. Responses are not: servers evolve, and a shipped app should read
/// what it can. Turn ``responses`` on in tests to catch a server that breaks
/// its own spec.
public struct ConstraintChecks: OptionSet, Sendable, Hashable {
    /// The bits.
    public let rawValue: Int

    /// Creates a set from bits.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// Parameters and bodies, before a request is sent.
    public static let requests = ConstraintChecks(rawValue: 1)
    /// Decoded response bodies (success and documented errors).
    public static let responses = ConstraintChecks(rawValue: 2)
}
