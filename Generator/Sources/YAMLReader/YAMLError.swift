/// A YAML input that cannot be read into a node tree at all.
///
/// Every case carries the file name and the position libyaml (or the
/// composer) reported, a message that says what is wrong, and where possible a
/// hint how to fix it. `description` renders the
/// `file:line:column: error: message` form that editors and CI annotate.
public enum YAMLError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file could not be read from disk.
    case unreadable(file: String, reason: String)
    /// The bytes are not text (a NUL byte or invalid UTF-8 was found).
    case binaryContent(file: String, mark: SourceMark, reason: String)
    /// libyaml rejected the syntax. `context` is what libyaml was doing
    /// ("while scanning a quoted scalar") and `contextMark` where that began.
    case syntax(file: String, mark: SourceMark, problem: String, context: String?, contextMark: SourceMark?, hint: String?)
    /// An alias names an anchor that is not defined before it, or the node it
    /// names contains the alias itself.
    case undefinedAlias(file: String, mark: SourceMark, anchor: String)
    /// Aliases add more nodes to the document than its size allows (an
    /// "entity expansion" such as a billion laughs): `mark` is the alias of
    /// `anchor` (which adds `aliasNodes`) that passes `limit`; all the
    /// document's aliases add `expandedNodes` to its `realNodes`.
    case aliasExpansionTooLarge(
        file: String, mark: SourceMark, anchor: String, aliasNodes: Int, expandedNodes: Int, realNodes: Int, limit: Int)
    /// Collections nest deeper than the limit, which no real document needs
    /// and which would exhaust the stack of any recursive reader.
    case nestingTooDeep(file: String, mark: SourceMark, limit: Int)

    /// The file the error was found in.
    public var file: String {
        switch self {
        case .unreadable(let file, _), .binaryContent(let file, _, _), .syntax(let file, _, _, _, _, _),
            .undefinedAlias(let file, _, _), .aliasExpansionTooLarge(let file, _, _, _, _, _, _), .nestingTooDeep(let file, _, _):
            return file
        }
    }

    /// The position of the problem (1:1 when the file could not be read).
    public var mark: SourceMark {
        switch self {
        case .unreadable: return .start
        case .binaryContent(_, let mark, _), .syntax(_, let mark, _, _, _, _), .undefinedAlias(_, let mark, _),
            .aliasExpansionTooLarge(_, let mark, _, _, _, _, _), .nestingTooDeep(_, let mark, _):
            return mark
        }
    }

    /// What is wrong, in one sentence.
    public var message: String {
        switch self {
        case .unreadable(_, let reason):
            return "cannot read file: \(reason)"
        case .binaryContent(_, _, let reason):
            return "not a text file: \(reason)"
        case .syntax(_, _, let problem, let context, let contextMark, _):
            guard let context else { return "YAML syntax error: \(problem)" }
            let start = contextMark.map { " (started at \($0))" } ?? ""
            return "YAML syntax error: \(problem) \(context)\(start)"
        case .undefinedAlias(_, _, let anchor):
            return "alias '*\(anchor)' refers to no anchor '&\(anchor)' defined before it (or to the node that contains it)"
        case .aliasExpansionTooLarge(_, _, let anchor, let aliasNodes, let expanded, let realNodes, let limit):
            return "aliases add \(expanded) nodes to this document of \(realNodes), more than the limit of \(limit)"
                + " (\(YAMLComposer.expansionAllowance) + \(YAMLComposer.expansionFactor) x its nodes); this alias of '&\(anchor)' (\(aliasNodes) nodes) passes it"
        case .nestingTooDeep(_, _, let limit):
            return "lists and mappings nest more than \(limit) levels deep here"
        }
    }

    /// How to fix it, when there is something specific to say.
    public var hint: String? {
        switch self {
        case .unreadable: return "check the path and the file's permissions"
        case .binaryContent: return "pass a YAML or JSON OpenAPI document saved as UTF-8 text"
        case .syntax(_, _, _, _, _, let hint): return hint
        case .undefinedAlias(_, _, let anchor): return "define '&\(anchor)' on a node before this alias, outside the node that uses it"
        case .aliasExpansionTooLarge: return "reference shared schemas with $ref instead of copying them with YAML aliases"
        case .nestingTooDeep: return "flatten the structure; use $ref to components for deep schemas"
        }
    }

    /// `file:line:column: error: message`, and a `note:` line with the hint.
    public var description: String {
        var text = "\(file):\(mark.line):\(mark.column): error: \(message)"
        if let hint { text += "\n\(file):\(mark.line):\(mark.column): note: \(hint)" }
        return text
    }
}
