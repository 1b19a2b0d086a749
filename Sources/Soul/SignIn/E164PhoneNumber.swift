import RuntimeSupport

/// A phone number in E.164 form (`+`, a country code that does not start
/// with 0, at most 15 digits in all), checked before anything is sent.
///
/// The number is never corrected: a space, a missing `+` or a leading 0 is
/// reported as a ``Problem`` for the user to fix, as the SOUL document
/// asks. ``description`` masks all but the last 4 digits, so the value can
/// be logged.
public struct E164PhoneNumber: Sendable, Hashable, CustomStringConvertible {
    /// Why a text is not an E.164 phone number; the cases name what to fix
    /// and never echo the number.
    public enum Problem: Error, Sendable, Hashable, CustomStringConvertible {
        /// Nothing was entered.
        case empty
        /// The text does not start with `+`.
        case missingPlus
        /// A character other than a digit after the `+` (a space, a dash, a
        /// bracket, a letter), at this 1-based position.
        case invalidCharacter(position: Int)
        /// The country code starts with 0 (`+0...`).
        case countryCodeStartsWithZero
        /// Fewer than 2 digits: no subscriber number.
        case tooShort(digits: Int)
        /// More than 15 digits.
        case tooLong(digits: Int)

        /// What is wrong and how to fix it.
        public var description: String {
            switch self {
            case .empty: return "enter a phone number, starting with + and the country code"
            case .missingPlus: return "the phone number must start with + and the country code (E.164, e.g. +447700900123)"
            case .invalidCharacter(let position):
                return "the phone number has a character that is not a digit at position \(position); use digits only after the +, no spaces or dashes"
            case .countryCodeStartsWithZero: return "a country code never starts with 0; remove the trunk prefix (E.164 has no leading 0 after the +)"
            case .tooShort(let digits): return "the phone number has \(digits) digit\(digits == 1 ? "" : "s"); E.164 needs a country code and a subscriber number"
            case .tooLong(let digits): return "the phone number has \(digits) digits; E.164 allows at most 15"
            }
        }
    }

    /// The number as sent (`+14155550123`). Treat it as personal data.
    public let e164: String

    /// Checks `text` as entered; throws the first ``Problem`` found.
    public init(_ text: String) throws(Problem) {
        guard !text.isEmpty else { throw .empty }
        let characters = Array(text.unicodeScalars)
        guard characters[0] == "+" else { throw .missingPlus }
        for (offset, scalar) in characters.enumerated().dropFirst() where !("0"..."9").contains(scalar) {
            throw .invalidCharacter(position: offset + 1)
        }
        let digits = characters.count - 1
        guard digits >= 2 else { throw .tooShort(digits: digits) }
        guard digits <= 15 else { throw .tooLong(digits: digits) }
        guard characters[1] != "0" else { throw .countryCodeStartsWithZero }
        e164 = text
    }

    /// `+*******0123`: every digit but the last 4 masked.
    public var description: String {
        PhoneMask.masked(e164)
    }
}
