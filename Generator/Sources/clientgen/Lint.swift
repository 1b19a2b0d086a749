import ArgumentParser
import Codegen
import Foundation
import OpenAPIModel

/// `clientgen lint FILE...`: loads each spec and reports its diagnostics.
struct Lint: ParsableCommand {
    /// How diagnostics are printed.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        /// `file:line:column: severity: message` lines on stderr.
        case text
        /// One JSON array of diagnostics on stdout.
        case json
    }

    static let configuration = CommandConfiguration(
        abstract: "Check OpenAPI specs and print their diagnostics.",
        discussion: """
            Exits 0 when no file has errors (warnings allowed), 1 when any has.
            Text diagnostics go to stderr as 'file:line:column: severity: message',
            followed by the spec's assumptions ('file:line:column: assumed: ...',
            what it marks x-assumed: guesses the generated client never enforces)
            and how its list operations page ('file:line:column: note: ...
            [pagination]': each gets a ...Pages method; x-pagination declares
            another way, or false turns it off);
            --format json prints one JSON array of the diagnostics on stdout instead.
            """)

    @Argument(help: "The spec files (YAML or JSON).")
    var files: [String]

    @Option(help: "Output format: text or json.")
    var format: Format = .text

    @Flag(help: "Also fail (exit 1) when there are warnings.")
    var strict = false

    @Option(help: "The folder the specs' $refs may reach other files in (default: each spec's own folder and below).")
    var referenceRoot: String?

    func run() throws {
        var all: [Diagnostic] = []
        for file in files {
            let result = OpenAPILoader.load(path: file, referenceRoot: referenceRoot)
            all += result.diagnostics
            if format == .text {
                for diagnostic in result.diagnostics { printToStandardError(diagnostic.description) }
                // The spec's guesses, which the generated client never enforces (docs/Codegen.md).
                let assumptions = result.document.map(AssumedExtension.marks(in:)) ?? []
                for mark in assumptions { printToStandardError(mark.description) }
                // What the generator found of pagination, for the team to confirm or override.
                var paged = 0
                if let document = result.document, !result.hasErrors {
                    // Under the same output limit as generate: a spec that would expand
                    // past it is refused there, and costs lint no more than generate.
                    var options = GeneratorOptions(moduleName: "Lint", specName: file)
                    options.outputLimit = OutputLimit(specBytes: result.sourceBytes, specNodes: result.sourceNodes)
                    let client = ClientGenerator.translate(document, options: options)
                    for finding in client.outputLimitExceeded == nil ? client.paginationFindings : [] {
                        printToStandardError("\(finding.location): note: \(finding.operationID) \(finding.text) [pagination]")
                    }
                    paged = client.operations.filter { $0.pagination != nil }.count
                }
                let errors = result.errors.count
                let warnings = result.warnings.count
                printToStandardError(
                    "\(file): \(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")"
                        + (assumptions.isEmpty ? "" : ", \(assumptions.count) assumption\(assumptions.count == 1 ? "" : "s") (x-assumed)")
                        + (paged == 0 ? "" : ", \(paged) paged list\(paged == 1 ? "" : "s")"))
            }
        }
        if format == .json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            let data = try encoder.encode(all)
            print(String(decoding: data, as: UTF8.self))
        }
        let failed = all.contains { $0.severity == .error || (strict && $0.severity == .warning) }
        if failed { throw ExitCode(1) }
    }
}

func printToStandardError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}
