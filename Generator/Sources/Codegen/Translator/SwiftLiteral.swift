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

    /// A floating-point literal that reads back as exactly `value`
    /// (`1`, `0.01`, `1e+20`): the one way generated code writes a `Double`.
    /// A value that is not finite cannot be a literal, and lint refuses it
    /// (`invalid-number`); should one reach here, it is written as the
    /// standard library's qualified constant, never as a bare word (`inf`)
    /// that a property of the same name would stand in for.
    static func double(_ value: Double) -> String {
        guard value.isFinite else {
            if value.isNaN { return "Swift.Double.nan" }
            return value < 0 ? "-Swift.Double.infinity" : "Swift.Double.infinity"
        }
        if value.rounded() == value, abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    /// An integer literal: digits only, with a sign.
    static func integer(_ value: Int) -> String {
        String(value)
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
