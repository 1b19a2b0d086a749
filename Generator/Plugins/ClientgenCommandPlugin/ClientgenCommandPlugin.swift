import Foundation
import PackagePlugin

/// `swift package generate-clients [--target NAME ...] [--check]`: writes
/// the client of every target that holds `openapi.yaml` into that target's
/// folder (`Generated/`, or the config's `output`), for teams that commit
/// generated code. `--check` writes nothing and fails when a committed file
/// differs from what the spec produces, for CI. SwiftPM prints a thrown
/// problem after `error: `, so its text does not repeat it.
@main
struct ClientgenCommandPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        let names = extractor.extractOption(named: "target")
        let check = extractor.extractFlag(named: "check") > 0
        if let unknown = extractor.remainingArguments.first {
            throw ClientgenTargetConfig.Problem(description: "unknown argument '\(unknown)'; generate-clients takes --target NAME and --check")
        }
        let tool = try context.tool(named: "clientgen").url
        var done = 0
        for target in context.package.targets.compactMap({ $0 as? SourceModuleTarget }) where names.isEmpty || names.contains(target.name) {
            guard let folder = target.folderURL, let config = try ClientgenTargetConfig.load(folder: folder, targetName: target.name) else {
                if names.contains(target.name) {
                    throw ClientgenTargetConfig.Problem(description: "target '\(target.name)' has no \(ClientgenTargetConfig.specNames.joined(separator: ", "))")
                }
                continue
            }
            let packageFolder = URL(fileURLWithPath: String(describing: (context.package as any PackageFolder).directory))
            if ManifestPluginUsage.appliesBuildPlugin(packageFolder: packageFolder, targetName: target.name) {
                // Written here too, the client would have two producers, and the next build would fail with SwiftPM's "multiple producers".
                guard names.contains(target.name) else {
                    print("generate-clients: skipping '\(target.name)', which applies \(ManifestPluginUsage.buildPluginName) (its client is generated on every build)")
                    continue
                }
                throw ClientgenTargetConfig.Problem(description: """
                    target '\(target.name)' applies \(ManifestPluginUsage.buildPluginName), which generates its client on every build; \
                    generate-clients writes the client into the target's folder for teams that commit it, and the two would clash. \
                    Use one: remove the plugin from the target's `plugins:` in Package.swift to commit the code, or leave the target to the build plugin
                    """)
            }
            let output = folder.appendingPathComponent(config.output)
            var arguments = [
                "generate", config.spec.path, "--output", output.path, "--module", config.module, "--access", config.access, "--warnings",
                "--spec-label", context.pathInPackage(config.spec),
            ] + config.filterArguments
            if check {
                // The drift message names the command this team runs, not clientgen's own.
                arguments += ["--check", "--regenerate-command", "swift package --allow-writing-to-package-directory generate-clients --target \(target.name)"]
            }
            let process = Process()
            process.executableURL = tool
            process.arguments = arguments
            let errors = Pipe()
            process.standardError = errors
            try process.run()
            let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            report(text)
            guard process.terminationStatus == 0 else {
                throw ClientgenTargetConfig.Problem(description: "clientgen could not \(check ? "check" : "generate") the client of '\(target.name)' (exit \(process.terminationStatus))")
            }
            done += 1
        }
        if done == 0 {
            throw ClientgenTargetConfig.Problem(description: "no target of this package holds \(ClientgenTargetConfig.specNames.joined(separator: ", "))")
        }
    }

    /// Passes clientgen's lines on; `FILE:LINE:COLUMN: error|warning: ...`
    /// ones as diagnostics at that line of the spec.
    private func report(_ text: String) {
        for line in text.split(separator: "\n").map(String.init) {
            let parts = line.split(separator: ":", maxSplits: 4, omittingEmptySubsequences: false).map(String.init)
            if parts.count == 5, let number = Int(parts[1]), Int(parts[2]) != nil {
                let kind = parts[3].trimmingCharacters(in: .whitespaces)
                let message = parts[4].trimmingCharacters(in: .whitespaces)
                if kind == "error" {
                    Diagnostics.error(message, file: parts[0], line: number)
                    continue
                }
                if kind == "warning" {
                    Diagnostics.warning(message, file: parts[0], line: number)
                    continue
                }
            }
            print(line)
        }
    }
}
