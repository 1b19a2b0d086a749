import Foundation
import OpenAPIModel
import SpecDiff
import Testing

/// The tables of diagnostics and spec-diff rules in `docs/` are the catalogs
/// themselves, rendered: a code or rule added, removed or reworded without
/// its documentation fails here. `UPDATE_DOCS=1` rewrites the tables.
@Suite struct CatalogDocumentationTests {
    @Test func diagnosticIdsAreUniqueAndKebabCase() {
        let ids = DiagnosticCode.all.map(\.id)
        #expect(Set(ids).count == ids.count)
        for id in ids { #expect(id.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "-" || $0 == "." }, "\(id)") }
        #expect(DiagnosticCode.all.filter { $0.severity == .error }.map(\.id).first == "unreadable-file")
    }

    @Test func diagnosticsDocumentationListsTheCatalog() throws {
        var table = ""
        for (severity, title, column) in [(Diagnostic.Severity.error, "Errors", "when"), (.warning, "Warnings", "when, and how it is read")] {
            table += "## \(title)\n\n| rule | \(column) |\n| --- | --- |\n"
            for code in DiagnosticCode.all where code.severity == severity { table += "| `\(code.id)` | \(code.summary) |\n" }
            table += "\n"
        }
        try DocumentedCatalog.check("Diagnostics.md", section: "diagnostic catalog", rendered: table)
    }
}

/// A generated section of a document under `docs/`, between two marker lines.
enum DocumentedCatalog {
    static func check(_ document: String, section: String, rendered: String) throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs").appendingPathComponent(document)
        let text = try String(contentsOf: url, encoding: .utf8)
        let begin = "<!-- \(section): generated from the catalog by `UPDATE_DOCS=1 swift test --filter CatalogDocumentationTests`; do not edit -->\n"
        let end = "<!-- end of \(section) -->\n"
        let start = try #require(text.range(of: begin), "docs/\(document) has no line \(begin)")
        let stop = try #require(text.range(of: end, range: start.upperBound..<text.endIndex), "docs/\(document) has no line \(end)")
        let current = String(text[start.upperBound..<stop.lowerBound])
        if ProcessInfo.processInfo.environment["UPDATE_DOCS"] == "1", current != rendered {
            try (text[..<start.upperBound] + rendered + text[stop.lowerBound...]).write(to: url, atomically: true, encoding: .utf8)
            return
        }
        #expect(current == rendered, "docs/\(document) is out of date with the catalog: run UPDATE_DOCS=1 swift test --filter CatalogDocumentationTests")
    }
}
