/// Characters a reader of source code does not see as what they are: line
/// breaks, other control characters, and Unicode's format characters, the
/// bidirectional overrides and isolates among them ("Trojan Source",
/// CVE-2021-42574). A spec is text from anyone (a vendor's download), so the
/// loader reports these in the names that become code and comments (paths,
/// operation ids, parameter, header, property and component names), and the
/// generator never writes one into Swift source as it is.
package enum HiddenCharacters {
    /// Whether a scalar is hidden: general category Cc (C0 and C1 controls,
    /// DEL) or Cf (format characters: U+200B-U+200F, U+202A-U+202E,
    /// U+2060-U+2069, U+FEFF, ...), or a line or paragraph separator
    /// (U+2028, U+2029), which editors show as a line break.
    package static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x20 || (value >= 0x7F && value <= 0x9F) { return true }
        if value < 0xA0 { return false }
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator: return true
        default: return false
        }
    }

    /// Whether `text` holds a hidden character. Plain ASCII text is checked
    /// byte by byte, without decoding scalars.
    package static func contains<Text: StringProtocol>(in text: Text) -> Bool {
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return false }
        return text.unicodeScalars.contains(where: isHidden)
    }

    /// The first hidden character of `text`, as `U+202E`, for a message.
    package static func firstDescribed(in text: String) -> String? {
        text.unicodeScalars.first(where: isHidden).map(describe)
    }

    /// `text` with every hidden character written as `\u{…}`: how a
    /// diagnostic quotes a name, so the terminal shows what the file holds.
    package static func visible(_ text: String) -> String {
        guard contains(in: text) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if isHidden(scalar) {
                result += escaped(scalar)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// `\u{A}`, `\u{202E}`: a scalar as Swift and this tool's messages write it.
    package static func escaped(_ scalar: Unicode.Scalar) -> String {
        "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
    }

    /// `U+000A`, `U+202E`.
    package static func describe(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
