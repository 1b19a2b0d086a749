import Foundation

/// Prints findings as text, markdown (a pull request comment), JSON, or
/// GitHub Actions annotations.
public enum FindingFormatter {
    /// The output formats.
    public enum Format: String, Sendable, CaseIterable {
        /// One block per finding, for a terminal.
        case text
        /// A table for a pull request comment.
        case markdown
        /// `{"findings": [...]}` with every finding, INFO included.
        case json
        /// `::error file=...,line=...::` workflow commands.
        case github
    }

    /// The findings in `format`; `base` and `revision` name the two sides.
    public static func format(_ findings: [Finding], as format: Format, base: String, revision: String) -> String {
        switch format {
        case .text: return text(findings, base: base, revision: revision)
        case .markdown: return markdown(findings, base: base, revision: revision)
        case .json: return json(findings)
        case .github: return github(findings)
        }
    }

    static func summary(_ findings: [Finding]) -> String {
        let active = findings.filter { !$0.isIgnored }
        let count = { (level: FindingLevel) in active.filter { $0.level == level }.count }
        let ignored = findings.count - active.count
        return "\(count(.error)) ERR, \(count(.warning)) WARN, \(count(.info)) INFO" + (ignored > 0 ? ", \(ignored) ignored" : "")
    }

    private static func text(_ findings: [Finding], base: String, revision: String) -> String {
        var lines = ["\(base) -> \(revision): \(summary(findings))"]
        for finding in findings {
            lines.append("")
            lines.append("\(finding.level.rawValue) \(finding.id)\(finding.isIgnored ? " (ignored)" : "")")
            if let operation = finding.operation { lines.append("  in \(operation)") }
            lines.append("  " + finding.message)
            lines.append("  at " + (finding.location.map { "\($0.file):\($0.line):\($0.column) " } ?? "") + "#" + finding.pointer)
            if !finding.swiftSymbols.isEmpty { lines.append("  swift: " + finding.swiftSymbols.joined(separator: ", ")) }
            if let reason = finding.ignoredBecause { lines.append("  ignored: " + reason) }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func markdown(_ findings: [Finding], base: String, revision: String) -> String {
        func cell(_ text: String) -> String { text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ") }
        var lines = ["### API changes: `\(base)` → `\(revision)`", "", summary(findings), ""]
        guard !findings.isEmpty else { return (lines + ["No changes that affect clients."]).joined(separator: "\n") + "\n" }
        lines.append("| level | rule | operation | change | Swift |")
        lines.append("| --- | --- | --- | --- | --- |")
        for finding in findings.sorted(by: { $0.level > $1.level }) {
            let level = finding.isIgnored ? "~~\(finding.level.rawValue)~~ ignored: \(cell(finding.ignoredBecause ?? ""))" : "**\(finding.level.rawValue)**"
            let symbols = finding.swiftSymbols.map { "`\(cell($0))`" }.joined(separator: "<br>")
            lines.append("| \(level) | `\(finding.id)` | \(cell(finding.operation ?? "")) | \(cell(finding.message)) | \(symbols) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func json(_ findings: [Finding]) -> String {
        struct Entry: Encodable {
            var id: String
            var level: String
            var operation: String?
            var pointer: String
            var file: String?
            var line: Int?
            var column: Int?
            var message: String
            var swiftSymbols: [String]
            var ignored: Bool
            var reason: String?
        }
        struct Document: Encodable { var findings: [Entry] }
        let document = Document(findings: findings.map {
            Entry(id: $0.id, level: $0.level.rawValue, operation: $0.operation, pointer: $0.pointer, file: $0.location?.file,
                line: $0.location?.line, column: $0.location?.column, message: $0.message, swiftSymbols: $0.swiftSymbols,
                ignored: $0.isIgnored, reason: $0.ignoredBecause)
        })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(document)) ?? Data("{\"findings\": []}".utf8), as: UTF8.self) + "\n"
    }

    private static func github(_ findings: [Finding]) -> String {
        func escape(_ text: String) -> String {
            text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D").replacingOccurrences(of: "\n", with: "%0A")
        }
        func property(_ text: String) -> String { escape(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C") }
        return findings.map { finding in
            let command: String
            switch (finding.level, finding.isIgnored) {
            case (_, true), (.info, _): command = "notice"
            case (.warning, _): command = "warning"
            case (.error, _): command = "error"
            }
            var properties: [String] = []
            if let location = finding.location {
                properties += ["file=\(property(location.file))", "line=\(location.line)", "col=\(location.column)"]
            }
            properties.append("title=\(property("\(finding.level.rawValue) \(finding.id)"))")
            let symbols = finding.swiftSymbols.isEmpty ? "" : " (Swift: \(finding.swiftSymbols.joined(separator: ", ")))"
            let ignored = finding.ignoredBecause.map { " [ignored: \($0)]" } ?? ""
            return "::\(command) \(properties.joined(separator: ","))::\(escape((finding.operation.map { "\($0): " } ?? "") + finding.message + symbols + ignored))"
        }.joined(separator: "\n") + (findings.isEmpty ? "" : "\n")
    }
}
