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

    @Test func specDiffRuleIdsAreUniqueAndEveryFamilyMemberIsCatalogued() {
        let ids = SpecDiffRule.all.map(\.id)
        #expect(Set(ids).count == ids.count)
        let subjects: [SpecDiffRule.Subject] = [.requestParameter, .requestProperty, .requestBody, .responseProperty, .responseBody]
        var reachable: [SpecDiffRule?] = []
        for subject in subjects {
            reachable += [SpecDiffRule.typeChanged(subject), SpecDiffRule.becameEnum(subject)]
            for flag in [true, false] {
                reachable += [
                    SpecDiffRule.listOfTypes(subject, narrowed: flag), SpecDiffRule.enumValue(subject, added: flag),
                    SpecDiffRule.nullability(subject, becameNullable: flag),
                ]
                for keyword in SpecDiffRule.Composition.allCases { reachable.append(SpecDiffRule.composition(subject, keyword, added: flag)) }
            }
            for bound in SpecDiffRule.Bound.allCases {
                for change in [SpecDiffRule.Change.set, .increased, .decreased] { reachable.append(SpecDiffRule.bound(subject, bound, change)) }
            }
            for change in [SpecDiffRule.Change.set, .changed, .removed] { reachable.append(SpecDiffRule.pattern(subject, change)) }
        }
        for rule in reachable.compactMap({ $0 }) { #expect(ids.contains(rule.id), "\(rule.id) is not in SpecDiffRule.all") }
        // A bound that tightens what the client may send breaks it; one that relaxes it does not.
        #expect(SpecDiffRule.bound(.requestProperty, .maxLength, .decreased)?.level == .error)
        #expect(SpecDiffRule.bound(.requestProperty, .maxLength, .increased)?.level == .info)
        #expect(SpecDiffRule.bound(.requestParameter, .min, .increased)?.level == .error)
        #expect(SpecDiffRule.bound(.responseProperty, .max, .set) == nil)
    }

    @Test func specDiffDocumentationListsTheCatalog() throws {
        var table = ""
        for area in SpecDiffRule.Area.allCases {
            table += "### \(area.rawValue.prefix(1).uppercased() + area.rawValue.dropFirst())\n\n| rule | level | change |\n| --- | --- | --- |\n"
            for rule in SpecDiffRule.all where rule.area == area { table += "| `\(rule.id)` | \(rule.level.rawValue) | \(rule.summary) |\n" }
            table += "\n"
        }
        try DocumentedCatalog.check("SpecDiff.md", section: "spec-diff rule catalog", rendered: table)
    }
}

/// A generated section of a document under `docs/`, between two marker lines.
enum DocumentedCatalog {
    static func check(_ document: String, section: String, rendered: String) throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
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
