import ArgumentParser
import Codegen

/// `clientgen`: reads OpenAPI specs, checks them and generates typed Swift clients.
@main
struct ClientGen: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clientgen",
        abstract: "Reads OpenAPI 3.0, 3.1 and 3.2 specs and generates typed Swift clients.",
        version: GeneratorVersion.current,
        subcommands: [Lint.self, Generate.self, Diff.self, ConformanceDriverCommand.self])
}
