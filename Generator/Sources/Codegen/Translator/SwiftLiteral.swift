import OpenAPIModel

/// Swift source literals.
enum SwiftLiteral {
    /// A string literal that reads back as exactly `text`.
    static func string(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                // Control characters, and format characters such as a bidi
                // override, which would make the source show another text.
                if HiddenCharacters.isHidden(scalar) {
                    result += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    /// A raw string literal (`#"^\d+$"#`) when `text` is one line, so that
    /// regular expressions read as the spec writes them; else ``string(_:)``.
    static func rawString(_ text: String) -> String {
        guard !HiddenCharacters.contains(in: text) else { return string(text) }
        var hashes = "#"
        while text.contains("\"" + hashes) || text.contains("\\" + hashes) { hashes += "#" }
        return hashes + "\"" + text + "\"" + hashes
    }
}
