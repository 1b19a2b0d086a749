/// Wraps generated lines at ``width`` columns, the way a person would:
/// a long argument or parameter list goes one per line, a long doc comment
/// wraps between words. What cannot be broken (a long string literal, a
/// word longer than the width) is left long rather than broken wrongly.
enum LineWrapper {
    /// The column limit of generated code.
    static let width = 120

    // MARK: Code

    /// `line` (already indented by `indent`), or the lines it becomes with its
    /// outermost argument list (or array literal) one item per line:
    ///
    /// ```swift
    /// public init(
    ///     serverURL: URL,
    ///     transport: any ClientTransport
    /// ) {
    /// ```
    static func code(_ line: String, indent: String) -> [String] {
        // `utf8.count` first: counting characters walks grapheme clusters.
        guard line.utf8.count > width, line.count > width, let split = outermostList(in: line) else { return [line] }
        let inner = indent + "    "
        var lines = [split.head]
        for (index, argument) in split.arguments.enumerated() {
            let text = inner + argument + (index < split.arguments.count - 1 ? "," : "")
            lines += code(text, indent: inner)
        }
        lines.append(indent + split.tail)
        return lines
    }

    /// The list to break: the first parenthesised or bracketed list with
    /// commas at its top level, else the first non-empty parenthesised one
    /// (whose single argument may then break in turn). Returns the text up to and including the opening
    /// bracket, the items, and the closing bracket with what follows it. Nil
    /// when string literals or brackets do not balance (nothing is risked on
    /// a line this does not understand).
    private static func outermostList(in line: String) -> (head: String, arguments: [String], tail: String)? {
        // UTF-8 bytes: every structural character is ASCII, and no byte of a
        // multi-byte character is.
        let bytes = Array(line.utf8)
        var depth = 0
        var index = 0
        var open: Int?
        var commas: [Int] = []
        var withCommas: (open: Int, commas: [Int], close: Int)?
        var single: (open: Int, commas: [Int], close: Int)?
        while index < bytes.count {
            let byte = bytes[index]
            if byte == quote || (byte == hash && index + 1 < bytes.count && bytes[index + 1] == quote) {
                guard let end = endOfStringLiteral(bytes, from: index) else { return nil }
                index = end + 1
                continue
            }
            switch byte {
            case UInt8(ascii: "("), UInt8(ascii: "["):
                if depth == 0 { open = index; commas = [] }
                depth += 1
            case UInt8(ascii: ")"), UInt8(ascii: "]"):
                depth -= 1
                if depth < 0 { return nil }
                if depth == 0, let start = open {
                    let range = (start, commas, index)
                    if !commas.isEmpty, withCommas == nil { withCommas = range }
                    if commas.isEmpty, byte == UInt8(ascii: ")"), single == nil, index > start + 1 { single = range }
                    open = nil
                }
            case UInt8(ascii: ",") where depth == 1 && open != nil:
                commas.append(index)
            default:
                break
            }
            index += 1
        }
        guard depth == 0, let found = withCommas ?? single else { return nil }
        func text(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }
        var arguments: [String] = []
        var start = found.open + 1
        for comma in found.commas + [found.close] {
            var lower = start
            var upper = comma
            while lower < upper, bytes[lower] == space { lower += 1 }
            while upper > lower, bytes[upper - 1] == space { upper -= 1 }
            arguments.append(text(lower..<upper))
            start = comma + 1
        }
        return (text(0..<(found.open + 1)), arguments, text(found.close..<bytes.count))
    }

    private static let quote = UInt8(ascii: "\"")
    private static let hash = UInt8(ascii: "#")
    private static let space = UInt8(ascii: " ")

    /// The index of the closing quote of the literal that starts at `start`
    /// (`"..."` with escapes, or `#"..."#`).
    private static func endOfStringLiteral(_ bytes: [UInt8], from start: Int) -> Int? {
        let isRaw = bytes[start] == hash
        var index = start + (isRaw ? 2 : 1)
        while index < bytes.count {
            let byte = bytes[index]
            if !isRaw && byte == UInt8(ascii: "\\") {
                // An interpolation holds code, which may hold quotes: not ours to read.
                if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "(") { return nil }
                index += 2
                continue
            }
            if byte == quote {
                if !isRaw { return index }
                if index + 1 < bytes.count, bytes[index + 1] == hash { return index + 1 }
            }
            index += 1
        }
        return nil
    }

    // MARK: Doc comments

    /// One doc-comment line (without its `/// `), wrapped between words. A
    /// list item's continuation lines are indented under its text; code
    /// blocks and tables are left alone (the caller tracks fences).
    static func comment(_ text: String, indent: String) -> [String] {
        let prefix = indent + "/// "
        guard prefix.utf8.count + text.utf8.count > width, prefix.count + text.count > width, !text.hasPrefix("|") else { return [prefix + text] }
        let leading = String(text.prefix { $0 == " " })
        var hanging = leading
        let body = text.dropFirst(leading.count)
        for marker in ["- ", "* "] where body.hasPrefix(marker) { hanging += "  " }
        if let dot = body.firstIndex(of: "."), body[..<dot].allSatisfy(\.isNumber), !body[..<dot].isEmpty,
            body[body.index(after: dot)...].hasPrefix(" ") {
            hanging += String(repeating: " ", count: body.distance(from: body.startIndex, to: dot) + 2)
        }
        // Columns: UTF-8 bytes for ASCII text (most of it), characters otherwise.
        let isASCII = text.utf8.allSatisfy { $0 < 0x80 }
        func columns(_ text: Substring) -> Int { isASCII ? text.utf8.count : text.count }
        let available = width - prefix.count
        var lines: [String] = []
        var current = leading
        var currentColumns = leading.count
        var atLineStart = true
        for word in body.split(separator: " ", omittingEmptySubsequences: true) {
            let wordColumns = columns(word)
            if !atLineStart && currentColumns + 1 + wordColumns > available {
                lines.append(current)
                current = hanging + word
                currentColumns = hanging.count + wordColumns
            } else {
                current += (atLineStart ? "" : " ") + word
                currentColumns += (atLineStart ? 0 : 1) + wordColumns
            }
            atLineStart = false
        }
        lines.append(current)
        return lines.map { prefix + $0 }
    }
}
