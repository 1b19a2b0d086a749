import Foundation

/// The project's rule for free text a person or a log may read (a server's
/// error message, a log line): bearer tokens and JWTs masked whole, phone
/// numbers to their last four digits (``PhoneMask``). The redactor applies
/// it to every text it logs, and the runtime to the server messages its
/// errors quote.
package enum SecretTextMask {
    /// What replaces a secret.
    package static let mask = "***"

    /// `text` with bearer tokens, JWTs and phone numbers masked.
    package static func masked(_ text: String) -> String {
        var result = text
        for (expression, replace) in patterns {
            let range = NSRange(result.startIndex..., in: result)
            for match in expression.matches(in: result, range: range).reversed() {
                guard let matched = Range(match.range, in: result) else { continue }
                result.replaceSubrange(matched, with: replace(String(result[matched])))
            }
        }
        return result
    }

    /// Phone numbers (E.164 or 9+ digit runs), JWTs and `Bearer` tokens in
    /// free text. A phone number starts where a number starts (not inside
    /// one), and an ISO 8601 date of this century or the last (`2026-11-27`,
    /// alone or before a time) is a date, not a number to mask; a number
    /// only shaped like one (`1234-56-78`) is masked.
    private static let patterns: [(NSRegularExpression, @Sendable (String) -> String)] = [
        (try! NSRegularExpression(pattern: #"(?i)bearer\s+[A-Za-z0-9._~+/=-]+"#), { _ in "Bearer " + mask }),
        (try! NSRegularExpression(pattern: #"eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*"#), { _ in mask }),
        (try! NSRegularExpression(pattern: #"(?<!\d)(?!(?:19|20)\d\d-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])(?![\d-]))\+?\d[\d ()-]{7,}\d"#), { PhoneMask.masked($0) }),
    ]
}
