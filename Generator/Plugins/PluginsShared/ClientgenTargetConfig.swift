import Foundation

/// What a target that uses the clientgen plugins holds in its folder: its
/// spec (`openapi.yaml`, `openapi.yml` or `openapi.json`) and, optionally,
/// `clientgen-config.json` with the options `clientgen generate` takes:
///
/// ```json
/// {"module": "PetsAPI", "access": "package", "output": "Generated"}
/// ```
///
/// `module` defaults to the target's name (the generated code is compiled
/// into that target), `access` to `public`; `output` (the command plugin
/// only) is the folder, relative to the target's, the files are written to
/// (default `Generated`). Shared by both plugins through a symbolic link.
struct ClientgenTargetConfig {
    /// The names a spec may have, in the order they are looked for.
    static let specNames = ["openapi.yaml", "openapi.yml", "openapi.json"]
    /// The config file's name.
    static let fileName = "clientgen-config.json"

    /// The spec.
    let spec: URL
    /// The config file, when the target has one.
    let file: URL?
    /// The Swift module name.
    let module: String
    /// `public`, `package` or `internal`.
    let access: String
    /// Where the command plugin writes, relative to the target's folder.
    let output: String

    /// What went wrong reading a target's config, said so a person can fix it.
    struct Problem: Error, CustomStringConvertible {
        let description: String
    }

    /// The config of the target in `folder` named `targetName`; nil when the
    /// folder holds no spec.
    static func load(folder: URL, targetName: String) throws -> ClientgenTargetConfig? {
        let manager = FileManager.default
        guard let spec = specNames.map({ folder.appendingPathComponent($0) }).first(where: { manager.fileExists(atPath: $0.path) }) else {
            return nil
        }
        let file = folder.appendingPathComponent(fileName)
        guard manager.fileExists(atPath: file.path) else {
            return ClientgenTargetConfig(spec: spec, file: nil, module: targetName, access: "public", output: "Generated")
        }
        let object: [String: Any]
        do {
            object = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any] ?? [:]
        } catch {
            throw Problem(description: "\(file.path):1:1: error: \(fileName) is not a JSON object: \(error.localizedDescription)")
        }
        let known: Set<String> = ["module", "access", "output"]
        if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
            throw Problem(description: "\(file.path):1:1: error: unknown key '\(unknown)' in \(fileName); it takes module, access and output")
        }
        for key in known where object[key] != nil && !(object[key] is String) {
            throw Problem(description: "\(file.path):1:1: error: '\(key)' in \(fileName) must be a string")
        }
        let access = object["access"] as? String ?? "public"
        guard ["public", "package", "internal"].contains(access) else {
            throw Problem(description: "\(file.path):1:1: error: access '\(access)' in \(fileName) must be public, package or internal")
        }
        return ClientgenTargetConfig(
            spec: spec, file: file, module: object["module"] as? String ?? targetName, access: access,
            output: object["output"] as? String ?? "Generated")
    }
}
