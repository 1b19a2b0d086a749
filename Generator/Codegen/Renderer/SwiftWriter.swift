/// Accumulates Swift source lines with indentation (four spaces a level).
struct SwiftWriter {
    private(set) var lines: [String] = []
    private var depth = 0

    /// Appends a line at the current indentation; an empty string appends a blank line.
    mutating func line(_ text: String) {
        lines.append(text.isEmpty ? "" : String(repeating: "    ", count: depth) + text)
    }

    /// Appends `opening`, the body one level deeper, then `}`.
    mutating func block(_ opening: String, _ body: (inout SwiftWriter) -> Void) {
        line(opening + " {")
        depth += 1
        body(&self)
        depth -= 1
        line("}")
    }

    /// Appends `opening { parameters in`, the body one level deeper, then `}`:
    /// a trailing closure.
    mutating func closure(_ opening: String, parameters: String, _ body: (inout SwiftWriter) -> Void) {
        line(opening + " { \(parameters) in")
        depth += 1
        body(&self)
        depth -= 1
        line("}")
    }

    /// Appends `///` lines for a doc comment; nothing for nil.
    mutating func documentation(_ text: String?) {
        guard let text else { return }
        for raw in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            var trimmed = Substring(raw)
            while trimmed.last?.isWhitespace == true { trimmed = trimmed.dropLast() }
            line(trimmed.isEmpty ? "///" : "/// " + trimmed)
        }
    }

    /// The text, ending in a newline.
    var text: String { lines.joined(separator: "\n") + "\n" }
}
