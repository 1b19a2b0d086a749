import Foundation
import PackagePlugin

/// Generates a target's client on every build: a target that applies this
/// plugin and holds `openapi.yaml` (and, optionally, `clientgen-config.json`)
/// gets `Client.swift`, `Models.swift` and `Operations.swift` compiled into
/// it, regenerated when the spec, the config or another YAML or JSON file
/// of the target changes. Problems in the spec are reported as
/// `openapi.yaml:LINE:COLUMN: error: ...` (or `warning:`), which the build
/// shows at the spec's line; an error fails the build.
@main
struct ClientgenBuildPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        guard let folder = target.folderURL, let config = try ClientgenTargetConfig.load(folder: folder, targetName: target.name) else {
            throw ClientgenTargetConfig.Problem(description: """
                target '\(target.name)' applies ClientgenBuildPlugin but its folder has no \
                \(ClientgenTargetConfig.specNames.joined(separator: ", ")); add the spec there or remove the plugin
                """)
        }
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("GeneratedSources")
        let inputs = target.sourceFiles.map(\.url).filter { ["yaml", "yml", "json"].contains($0.pathExtension) }
        return [
            .buildCommand(
                displayName: "Generating the \(config.module) client from \(config.spec.lastPathComponent)",
                executable: try context.tool(named: "clientgen").url,
                arguments: [
                    "generate", config.spec.path, "--output", output.path, "--module", config.module, "--access", config.access,
                    "--fixed-file-names", "--warnings", "--spec-label", context.pathInPackage(config.spec),
                ] + config.filterArguments,
                inputFiles: Array(Set(inputs + [config.spec] + (config.file.map { [$0] } ?? []))).sorted { $0.path < $1.path },
                outputFiles: ["Client.swift", "Models.swift", "Operations.swift"].map { output.appendingPathComponent($0) })
        ]
    }
}
