import ArgumentParser
import Codegen
import Foundation
import OpenAPIModel

/// `clientgen conformance-driver`: writes the `main.swift` of a program that
/// calls every operation of a spec's generated client with arguments a
/// harness sends as JSON, and reports what the client decoded (`make
/// conformance`, `scripts/conformance/PROTOCOL.md`).
struct ConformanceDriverCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "conformance-driver",
        abstract: "Write a program that calls every operation of a spec's client from JSON arguments (for `make conformance`).",
        discussion: """
            clientgen conformance-driver SPEC --output DIR --module NAME

            NAME is the module of the client `clientgen generate SPEC --module NAME`
            writes; the program in DIR/main.swift links it, ClientConformance (the
            product _ClientConformance) and OpenAPIURLSession. `PROGRAM --manifest` lists the operations;
            `PROGRAM --server-url URL` answers one JSON request a line.
            """)

    @Argument(help: "The spec file (YAML or JSON).")
    var spec: String

    @Option(help: "The folder to write main.swift to.")
    var output: String

    @Option(help: "The Swift module of the generated client (default: from the spec's title).")
    var module: String?

    @OptionGroup(title: "The same as the client's `generate`")
    var shape: ClientShapeOptions

    func run() throws {
        let result = OpenAPILoader.load(path: spec)
        for diagnostic in result.errors { printToStandardError(diagnostic.description) }
        guard let document = result.document, !result.hasErrors else {
            printToStandardError("error: \(spec) has errors; no driver generated (run `clientgen lint \(spec)` for details)")
            throw ExitCode(1)
        }
        let moduleName = module ?? GeneratorOptions.moduleName(fromTitle: document.info.title)
        var options = GeneratorOptions(moduleName: moduleName, specName: URL(fileURLWithPath: spec).lastPathComponent)
        options.filter = shape.filter
        options.typeOverrides = shape.typeOverrides
        options.nameOverrides = shape.nameOverrides
        let file = ClientGenerator.conformanceDriver(ClientGenerator.translate(document, options: options), options: options)
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        try Data(file.contents.utf8).write(to: URL(fileURLWithPath: output).appendingPathComponent(file.name), options: .atomic)
    }
}
