/// What an app passed for a typed value (``LowercaseUUID``,
/// ``CalendarDate``) that does not make one.
///
/// The typed values' initialisers from an app's input throw this instead
/// of returning nil: a nil passed on to an optional request argument
/// would send the call without the argument, silently. Write `try?` where
/// dropping the value is what the app means.
///
/// ```swift
/// let id = try LowercaseUUID(textField.text)   // throws on a mistyped id
/// ```
public struct InvalidValueError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The type that was asked for (`LowercaseUUID`, `CalendarDate`).
    public let typeName: String
    /// What a valid value looks like.
    public let expected: String
    /// How many characters the input had (never the input: an identifier
    /// can be a secret).
    public let inputLength: Int?

    /// Creates the error.
    public init(typeName: String, expected: String, inputLength: Int?) {
        self.typeName = typeName
        self.expected = expected
        self.inputLength = inputLength
    }

    /// `not a LowercaseUUID: expected 8-4-4-4-12 hexadecimal digits, got 35 characters`.
    public var description: String {
        "not a \(typeName): expected \(expected)" + (inputLength.map { ", got \($0) characters" } ?? "")
    }
}
