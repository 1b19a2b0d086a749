/// How a call ended, as the customer's exports expect it (`meta.call_outcome`).
///
/// An open set: the documents name `ANSWERED`, `MISSED` and `REJECTED` as
/// examples, and a customer's exports may expect others, so any value can
/// be written (`CallOutcome("VOICEMAIL")`, or a string literal) and the
/// named ones are there to avoid typos. Sent exactly as given.
public struct CallOutcome: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The value sent.
    public let rawValue: String

    /// An outcome with this value.
    public init(rawValue: String) { self.rawValue = rawValue }


    /// An outcome from a string literal: `"ANSWERED"`.
    public init(stringLiteral value: String) { rawValue = value }

    /// The call was answered.
    public static let answered = CallOutcome(rawValue: "ANSWERED")
    /// The call rang out unanswered.
    public static let missed = CallOutcome(rawValue: "MISSED")
    /// The user declined the call.
    public static let rejected = CallOutcome(rawValue: "REJECTED")

    /// The value.
    public var description: String { rawValue }
}

/// What kind of identity was shown for a call (`meta.identity_type`), an
/// open set: the documents name the field but not its values.
public struct IdentityType: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The value sent.
    public let rawValue: String

    /// An identity type with this value.
    public init(rawValue: String) { self.rawValue = rawValue }


    /// An identity type from a string literal.
    public init(stringLiteral value: String) { rawValue = value }

    /// The value.
    public var description: String { rawValue }
}
