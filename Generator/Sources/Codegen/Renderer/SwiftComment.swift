import OpenAPIModel

/// Spec text in a Swift comment: the one way a string from a spec reaches a
/// comment line. A line comment ends at a line break, so a path holding
/// `"\nlet x = 1\n//"` written as it is would put live code into the app;
/// a bidi override would make a comment show other text than it holds.
/// Both are written here as `\u{…}` escapes (line breaks inside prose
/// become spaces), on one line.
///
/// The other contexts have their own function: string literals
/// ``SwiftLiteral/string(_:)``, identifiers ``SwiftName`` (ASCII letters and
/// digits only), multi-line doc comments ``SwiftWriter/documentation(_:)``
/// (each line through ``text(_:)``).
enum SwiftComment {
    /// `text` safe on one comment line: `\n`, `\r` (and `\r\n`) become a
    /// space, every other hidden character (``HiddenCharacters``) `\u{…}`.
    static func text<S: StringProtocol>(_ text: S) -> String {
        guard HiddenCharacters.contains(in: text) else { return String(text) }
        var result = ""
        var previousWasCarriageReturn = false
        for scalar in text.unicodeScalars {
            defer { previousWasCarriageReturn = scalar == "\r" }
            if scalar == "\n" && previousWasCarriageReturn { continue }
            if scalar == "\n" || scalar == "\r" || scalar == "\t" {
                result += " "
            } else if HiddenCharacters.isHidden(scalar) {
                result += HiddenCharacters.escaped(scalar)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// `text` as a Markdown code span on one comment line: `` `GET /pets` ``;
    /// text holding backticks gets a longer fence (`` ``a`b`` ``).
    static func code<S: StringProtocol>(_ text: S) -> String {
        let safe = self.text(text)
        guard safe.contains("`") else { return "`" + safe + "`" }
        var longest = 0
        var run = 0
        for character in safe {
            run = character == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = String(repeating: "`", count: longest + 1)
        return fence + " " + safe + " " + fence
    }
}
