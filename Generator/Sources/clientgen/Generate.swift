import ArgumentParser
import Codegen
import Foundation
import OpenAPIModel

/// `clientgen generate`: writes the Swift client of a spec, or of every spec
/// in a config file; `--check` compares instead of writing.
struct Generate: ParsableCommand {
    /// Access levels of generated declarations.
    static let configuration = CommandConfiguration(
        abstract: "Generate a typed Swift client from an OpenAPI spec.",
        discussion: """
            clientgen generate SPEC --output DIR [--module NAME] [--access public|package|internal]
            clientgen generate --config specs/clients.json [--check]

            The output folder holds only generated files: stale ones are removed.
            With --check nothing is written; the command lists every file that
            differs from what the specs produce and exits 1 when any does.
            """)

    @Argument(help: "The spec file (YAML or JSON).")
    var spec: String?

    @Option(help: "The folder to write the Swift files to.")
    var output: String?

    @Option(help: "The Swift module name (default: from the spec's title).")
    var module: String?

    @Option(help: "Access level of the generated declarations.")
    var access: AccessLevel = .public

    @Option(help: "A JSON file listing clients: {\"clients\": [{\"spec\", \"output\", \"module\"}]}; paths relative to the current folder.")
    var config: String?

    @Flag(help: "Compare the generated files with the output folders instead of writing them.")
    var check = false

    @Flag(help: "Write exactly Client.swift, Models.swift and Operations.swift, however large the spec (what a build plugin needs).")
    var fixedFileNames = false

    @Flag(help: "Also print the spec's warnings (as `clientgen lint` does), not only its errors.")
    var warnings = false

    @Option(help: "The folder the spec's $refs may reach other files in (default: the spec's own folder and below).")
    var referenceRoot: String?

    @Option(help: ArgumentHelp(
        "The command that writes the client again, which --check names when a file differs (default: this clientgen command without --check).",
        valueName: "command"))
    var regenerateCommand: String?

    @OptionGroup(title: "Part of the spec, and the app's types")
    var shape: ClientShapeOptions

    @Option(help: ArgumentHelp(
        "How the files' header names the spec, such as its path inside the app's package (default: its file name, with the clientgen command that writes the files again); the plugins pass it, and the header then names no command.",
        valueName: "path"))
    var specLabel: String?

    func validate() throws {
        if config == nil && (spec == nil || output == nil) {
            throw ValidationError("give a SPEC and --output DIR, or --config FILE")
        }
        if config != nil && spec != nil {
            throw ValidationError("give either a SPEC or --config, not both")
        }
        if config != nil && !shape.isEmpty {
            throw ValidationError("--operation, --tag, --path, --type-override, --format-override, --schema-name and --operation-name shape one spec's client; with --config, give each client its \"filter\", \"typeOverrides\" and \"nameOverrides\"")
        }
        if config != nil && specLabel != nil {
            throw ValidationError("--spec-label names one spec; give it with a SPEC, not with --config")
        }
    }

    func run() throws {
        var jobs: [ClientConfig.Entry] = []
        if let config {
            jobs = try ClientConfig.load(path: config).clients
        } else if let spec, let output {
            let (filter, overrides, names) = (shape.filter, shape.typeOverrides, shape.nameOverrides)
            jobs = [ClientConfig.Entry(
                spec: spec, output: output, module: module, access: access, referenceRoot: referenceRoot, filter: filter.isEmpty ? nil : filter,
                typeOverrides: overrides.isEmpty ? nil : overrides, nameOverrides: names.isEmpty ? nil : names)]
        }
        var drifted: [String] = []
        for job in jobs {
            let started = Date()
            let files = try generate(job)
            if check {
                drifted += OutputFolder(path: job.output).differences(from: files)
            } else {
                do {
                    try OutputFolder(path: job.output).write(files)
                } catch let error as OutputFolder.ForeignFilesError {
                    printToStandardError(error.description)
                    throw ExitCode(1)
                }
                let lines = files.reduce(0) { $0 + Self.lineCount($1.contents) }
                let seconds = String(format: "%.2f", Date().timeIntervalSince(started))
                printToStandardError("\(job.spec) -> \(job.output): \(files.count) files, \(lines) lines, \(seconds) s")
            }
        }
        if check {
            if drifted.isEmpty {
                printToStandardError("generated code matches the specs (\(jobs.count) client\(jobs.count == 1 ? "" : "s"))")
            } else {
                for file in drifted { printToStandardError("drift: \(file)") }
                printToStandardError("error: \(drifted.count) generated file\(drifted.count == 1 ? " differs" : "s differ") from what the specs produce; run `\(regenerateCommand ?? ownCommand)` and commit the result (generated files are never edited by hand)")
                throw ExitCode(1)
            }
        }
    }

    /// This invocation without `--check`: what writes the checked files again.
    private var ownCommand: String {
        var words = ["clientgen", "generate"]
        if let config {
            words += ["--config", config]
        } else if let spec, let output {
            words += [spec, "--output", output]
            if let module { words += ["--module", module] }
            if access != .public { words += ["--access", access.rawValue] }
            if let referenceRoot { words += ["--reference-root", referenceRoot] }
            words += shape.arguments
        }
        if fixedFileNames { words.append("--fixed-file-names") }
        return words.map(GeneratedFileHeader.shellQuoted).joined(separator: " ")
    }

    private func generate(_ job: ClientConfig.Entry) throws -> [GeneratedFile] {
        let result = OpenAPILoader.load(path: job.spec, referenceRoot: job.referenceRoot ?? referenceRoot)
        for diagnostic in result.diagnostics where diagnostic.severity == .error || (warnings && diagnostic.severity == .warning) {
            printToStandardError(diagnostic.description)
        }
        guard let document = result.document, !result.hasErrors else {
            printToStandardError("error: \(job.spec) has errors; no client generated (run `clientgen lint \(job.spec)` for details)")
            throw ExitCode(1)
        }
        let filter = job.filter ?? OperationFilter()
        let unmatched = filter.unmatched(in: document)
        let overrides = job.typeOverrides ?? TypeOverrides()
        let names = job.nameOverrides ?? NameOverrides()
        let overrideProblems = overrides.problems(in: document).map { "the type overrides name \($0)" }
            + names.problems(in: document).map { "the name overrides name \($0)" }
        if !unmatched.isEmpty || !overrideProblems.isEmpty {
            for problem in unmatched { printToStandardError("error: \(job.spec): the filter names \(problem); no client generated") }
            for problem in overrideProblems { printToStandardError("error: \(job.spec): \(problem); no client generated") }
            throw ExitCode(1)
        }
        let moduleName = job.module ?? GeneratorOptions.moduleName(fromTitle: document.info.title)
        let access = job.access ?? .public
        let command = GeneratedFileHeader.regenerateCommand(
            specPath: Self.relativePath(of: job.spec, from: job.output), moduleName: moduleName, accessLevel: access, filter: filter, typeOverrides: overrides, nameOverrides: names)
        // A plugin's files are written again by the plugin, not by a command
        // in their folder (the build plugin's live in the build folder).
        var options = GeneratorOptions(
            moduleName: moduleName, accessLevel: access, specName: specLabel ?? URL(fileURLWithPath: job.spec).lastPathComponent,
            regenerateCommand: specLabel == nil ? command : nil)
        options.fixedFileNames = fixedFileNames
        options.filter = filter
        options.typeOverrides = overrides
        options.nameOverrides = names
        options.outputLimit = OutputLimit(specBytes: result.sourceBytes, specNodes: result.sourceNodes)
        let client = ClientGenerator.translate(document, options: options)
        let files: [GeneratedFile]
        do {
            files = try ClientGenerator.render(client, options: options)
        } catch {
            let location = error.location ?? SourceLocation(file: job.spec, mark: .start, pointer: .root)
            printToStandardError(
                Diagnostic(
                    .outputTooLarge, error.description, at: location,
                    hint: "reference the shared schema with $ref instead of merging it into each one with allOf, or split the spec; no client generated"
                ).description)
            throw ExitCode(1)
        }
        KeptUntilExit.keep(result, client)
        return files
    }

    /// The number of line breaks in `text`.
    private static func lineCount(_ text: String) -> Int {
        var text = text
        return text.withUTF8 { bytes in bytes.reduce(0) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 } }
    }
}

extension Generate {
    /// The path of `file` as seen from `folder` (`../../specs/museum.yaml`),
    /// both relative to the current folder or absolute; symbolic links are
    /// not followed, so the result does not depend on where the checkout is.
    static func relativePath(of file: String, from folder: String) -> String {
        let current = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        func components(_ path: String) -> [String] {
            URL(fileURLWithPath: path, relativeTo: current).standardizedFileURL.path.split(separator: "/").map(String.init)
        }
        let (target, base) = (components(file), components(folder))
        var shared = 0
        while shared < target.count - 1, shared < base.count, target[shared] == base[shared] { shared += 1 }
        return (Array(repeating: "..", count: base.count - shared) + target[shared...]).joined(separator: "/")
    }
}

/// `--access public|package|internal`.
extension AccessLevel: ExpressibleByArgument {}
