/// Findings a team has decided to accept, read from an ignore file. An
/// ignored finding is still listed, marked with the reason; it no longer
/// fails `--fail-on`.
///
/// One entry a line, three fields separated by `|`; `#` starts a comment:
///
/// ```
/// # rule id (* wildcard)              | operation (* wildcard)        | reason (required)
/// response-optional-property-removed | GET /api/mobile/branding/sync | no shipped app reads call_reason
/// api-*                              | * /internal/*                 | internal endpoints have no shipped clients
/// ```
public struct IgnoreList: Sendable {
    /// One entry.
    public struct Entry: Sendable, Hashable {
        /// The rule id pattern.
        public var rule: String
        /// The `METHOD /path` pattern.
        public var operation: String
        /// Why the finding is accepted.
        public var reason: String
        /// The line it is on.
        public var line: Int
    }

    /// A line that is not an entry.
    public struct ParseError: Error, Sendable, CustomStringConvertible {
        /// The file.
        public var file: String
        /// The 1-based line.
        public var line: Int
        /// What is wrong and how to fix it.
        public var reason: String

        /// `file:line: reason`.
        public var description: String { "\(file):\(line): \(reason)" }
    }

    /// The entries, in file order.
    public var entries: [Entry]

    /// Parses an ignore file's text.
    public init(text: String, file: String) throws(ParseError) {
        var entries: [Entry] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
            guard !line.trimmed().isEmpty else { continue }
            let fields = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmed() }
            guard fields.count == 3 else {
                throw ParseError(file: file, line: index + 1, reason: "expected 'rule id | METHOD /path | reason' (three fields separated by '|'), found \(fields.count)")
            }
            guard !fields[2].isEmpty else {
                throw ParseError(file: file, line: index + 1, reason: "the reason is missing: say why this finding is accepted")
            }
            guard !fields[0].isEmpty, !fields[1].isEmpty else {
                throw ParseError(file: file, line: index + 1, reason: "the rule id and the operation must not be empty (use * for any)")
            }
            entries.append(Entry(rule: fields[0], operation: fields[1], reason: fields[2], line: index + 1))
        }
        self.entries = entries
    }

    /// The findings with `ignoredBecause` set where an entry matches.
    public func apply(to findings: [Finding]) -> [Finding] {
        findings.map { finding in
            var finding = finding
            if let entry = entries.first(where: { Self.matches($0.rule, finding.id) && Self.matches($0.operation, finding.operation ?? "") }) {
                finding.ignoredBecause = entry.reason
            }
            return finding
        }
    }

    /// Glob matching with `*` (any run of characters).
    static func matches(_ pattern: String, _ text: String) -> Bool {
        let pattern = Array(pattern)
        let text = Array(text)
        var (p, t) = (0, 0)
        var star: Int?
        var mark = 0
        while t < text.count {
            if p < pattern.count, pattern[p] == text[t] {
                p += 1
                t += 1
            } else if p < pattern.count, pattern[p] == "*" {
                star = p
                mark = t
                p += 1
            } else if let star {
                p = star + 1
                mark += 1
                t = mark
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces, tabs and carriage returns.
    func trimmed() -> String {
        var slice = Substring(self)
        while let first = slice.first, first == " " || first == "\t" || first == "\r" { slice.removeFirst() }
        while let last = slice.last, last == " " || last == "\t" || last == "\r" { slice.removeLast() }
        return String(slice)
    }
}
