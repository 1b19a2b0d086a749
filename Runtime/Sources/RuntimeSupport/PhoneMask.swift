/// How the project writes a phone number anywhere a person or a log may read
/// it (an error message, a log line, a sample app's output): every digit but
/// the last four masked, other characters kept, so `+15551234567` is
/// `+*******4567`. The one rule: the SDKs, the redactor and the samples all
/// call it.
package enum PhoneMask {
    /// `+15551234567` -> `+*******4567`; a value of four digits or fewer is
    /// left as it is (no number to hide).
    package static func masked(_ value: String) -> String {
        let digits = value.reduce(0) { $0 + ($1.isNumber ? 1 : 0) }
        var seen = 0
        return String(value.map { character -> Character in
            guard character.isNumber else { return character }
            seen += 1
            return seen > digits - 4 ? character : "*"
        })
    }
}
