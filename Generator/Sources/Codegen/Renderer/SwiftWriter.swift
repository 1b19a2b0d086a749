/// Accumulates Swift source lines with indentation (four spaces a level),
/// wrapped at ``LineWrapper/width`` columns.
struct SwiftWriter {
    private(set) var lines: [String] = []
    private var depth = 0
    /// Whether the doc comment being written is inside a ``` code block.
    private var inCodeBlock = false

    /// A writer whose lines start `depth` levels deep: a part rendered apart
    /// that ``append(rendered:)`` later puts inside a block.
    init(depth: Int = 0) {
        self.depth = depth
    }

    /// Appends lines another writer already indented and wrapped.
    mutating func append(rendered: [String]) {
        lines += rendered
    }

    /// Appends a line at the current indentation; an empty string appends a
    /// blank line. A long line is wrapped: doc comments between words,
    /// code one argument per line.
    mutating func line(_ text: String) {
        guard !text.isEmpty else {
            lines.append("")
            return
        }
        let indent = String(repeating: "    ", count: depth)
        if text == "///" || text.hasPrefix("/// ") {
            let body = String(text.dropFirst(text == "///" ? 3 : 4))
            if body.hasPrefix("```") { inCodeBlock.toggle() }
            lines += inCodeBlock || body.isEmpty ? [indent + text] : LineWrapper.comment(body, indent: indent)
        } else if text.hasPrefix("//") {
            lines.append(indent + text)  // A plain comment (the file header) is not code to break.
        } else {
            lines += LineWrapper.code(indent + text, indent: indent)
        }
    }

    /// Appends `opening`, the body one level deeper, then `}`.
    /// `opening` as written (a line that opens a closure: `... { cursor in`),
    /// the body one level in, then `}`.
    mutating func closure(_ opening: String, _ body: (inout SwiftWriter) -> Void) {
        line(opening)
        depth += 1
        body(&self)
        depth -= 1
        line("}")
    }

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
        // Lines split and trimmed as UTF-8 (`\r\n`, `\r` and `\n` end a
        // line; trailing spaces and tabs go): the model's text is long, and
        // walking it by `Character` showed in the generate time.
        let utf8 = text.utf8
        var start = utf8.startIndex
        var index = start
        func emit(_ end: String.UTF8View.Index) {
            var last = end
            while last > start, [UInt8(ascii: " "), UInt8(ascii: "\t")].contains(utf8[utf8.index(before: last)]) { last = utf8.index(before: last) }
            // Each line without hidden characters (a bidi override, U+2028):
            // the comment shows what it holds.
            let body = SwiftComment.text(Substring(utf8[start..<last]))
            line(body.isEmpty ? "///" : "/// " + body)
        }
        while index < utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
                emit(index)
                let next = utf8.index(after: index)
                index = byte == UInt8(ascii: "\r") && next < utf8.endIndex && utf8[next] == UInt8(ascii: "\n") ? utf8.index(after: next) : next
                start = index
            } else {
                index = utf8.index(after: index)
            }
        }
        emit(utf8.endIndex)
    }

    /// The text, ending in a newline.
    var text: String { lines.joined(separator: "\n") + "\n" }
}
