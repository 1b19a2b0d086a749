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
        let characters = Array(line)
        var depth = 0
        var index = 0
        var open: Int?
        var commas: [Int] = []
        var withCommas: (open: Int, commas: [Int], close: Int)?
        var single: (open: Int, commas: [Int], close: Int)?
        while index < characters.count {
            let character = characters[index]
            if character == "\"" || (character == "#" && index + 1 < characters.count && characters[index + 1] == "\"") {
                guard let end = endOfStringLiteral(characters, from: index) else { return nil }
                index = end + 1
                continue
            }
            switch character {
            case "(", "[":
                if depth == 0 { open = index; commas = [] }
                depth += 1
            case ")", "]":
                depth -= 1
                if depth < 0 { return nil }
                if depth == 0, let start = open {
                    let range = (start, commas, index)
                    if !commas.isEmpty, withCommas == nil { withCommas = range }
                    if commas.isEmpty, character == ")", single == nil, index > start + 1 { single = range }
                    open = nil
                }
            case "," where depth == 1 && open != nil:
                commas.append(index)
            default:
                break
            }
            index += 1
        }
        guard depth == 0 else { return nil }
        guard let found = withCommas ?? single else { return nil }
        var arguments: [String] = []
        var start = found.open + 1
        for comma in found.commas + [found.close] {
            arguments.append(trimmed(characters[start..<comma]))
            start = comma + 1
        }
        return (String(characters[...found.open]), arguments, String(characters[found.close...]))
    }

    private static func trimmed(_ text: ArraySlice<Character>) -> String {
        var text = text
        while text.first == " " { text = text.dropFirst() }
        while text.last == " " { text = text.dropLast() }
        return String(text)
    }

    /// The index of the closing quote of the literal that starts at `start`
    /// (`"..."` with escapes, or `#"..."#`).
    private static func endOfStringLiteral(_ characters: [Character], from start: Int) -> Int? {
        let isRaw = characters[start] == "#"
        var index = start + (isRaw ? 2 : 1)
        while index < characters.count {
            let character = characters[index]
            if !isRaw && character == "\\" {
                // An interpolation holds code, which may hold quotes: not ours to read.
                if index + 1 < characters.count, characters[index + 1] == "(" { return nil }
                index += 2
                continue
            }
            if character == "\"" {
                if !isRaw { return index }
                if index + 1 < characters.count, characters[index + 1] == "#" { return index + 1 }
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
        var lines: [String] = []
        var current = leading
        var atLineStart = true
        for word in body.split(separator: " ", omittingEmptySubsequences: true) {
            if !atLineStart && prefix.count + current.count + 1 + word.count > width {
                lines.append(current)
                current = hanging + word
            } else {
                current += (atLineStart ? "" : " ") + word
            }
            atLineStart = false
        }
        lines.append(current)
        return lines.map { prefix + $0 }
    }
}
