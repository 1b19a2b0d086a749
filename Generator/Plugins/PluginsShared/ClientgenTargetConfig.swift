import Foundation

/// What a target that uses the clientgen plugins holds in its folder: its
/// spec (`openapi.yaml`, `openapi.yml` or `openapi.json`) and, optionally,
/// `clientgen-config.json` with the options `clientgen generate` takes:
///
/// ```json
/// {"module": "PetsAPI", "access": "package", "output": "Generated",
///  "filter": {"operations": ["listPets"], "tags": ["store"], "paths": ["/pets/{petId}"]},
///  "typeOverrides": {"schemas": {"Price": "Decimal"}, "formats": {"uuid": "Foundation.UUID"}},
///  "nameOverrides": {"schemas": {"Error": "ServerError"}, "operations": {"listPets": "allPets"}}}
/// ```
///
/// `module` defaults to the target's name (the generated code is compiled
/// into that target), `access` to `public`; `output` (the command plugin
/// only) is the folder, relative to the target's, the files are written to
/// (default `Generated`); `filter` keeps only the operations it names (by
/// `operationId`, tag or path) and the types they reach; `typeOverrides`
/// gives a component schema, or every scalar of a format, a type of the
/// app's; `nameOverrides` names a schema's type or an operation's method.
/// Shared by both plugins through a symbolic link.
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
    /// `clientgen generate`'s filter and override options (`--operation
    /// ID`, `--tag T`, `--path P`, `--type-override S=T`, `--format-override
    /// F=T`), from the config's `filter` and `typeOverrides`.
    let filterArguments: [String]

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
            return ClientgenTargetConfig(spec: spec, file: nil, module: targetName, access: "public", output: "Generated", filterArguments: [])
        }
        let object: [String: Any]
        do {
            object = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any] ?? [:]
        } catch {
            throw Problem(description: "\(file.path):1:1: error: \(fileName) is not a JSON object: \(error.localizedDescription)")
        }
        let known: Set<String> = ["module", "access", "output", "filter", "typeOverrides", "nameOverrides"]
        if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
            throw Problem(description: "\(file.path):1:1: error: unknown key '\(unknown)' in \(fileName); it takes module, access, output, filter, typeOverrides and nameOverrides")
        }
        for key in ["module", "access", "output"] where object[key] != nil && !(object[key] is String) {
            throw Problem(description: "\(file.path):1:1: error: '\(key)' in \(fileName) must be a string")
        }
        let access = object["access"] as? String ?? "public"
        guard ["public", "package", "internal"].contains(access) else {
            throw Problem(description: "\(file.path):1:1: error: access '\(access)' in \(fileName) must be public, package or internal")
        }
        var filterArguments: [String] = []
        if let filter = object["filter"] {
            let lists = [("operations", "--operation"), ("tags", "--tag"), ("paths", "--path")]
            guard let filter = filter as? [String: Any], filter.keys.allSatisfy({ key in lists.contains { $0.0 == key } }) else {
                throw Problem(description: "\(file.path):1:1: error: 'filter' in \(fileName) must be an object of operations, tags and paths, each a list of strings")
            }
            for (key, flag) in lists {
                guard let value = filter[key] else { continue }
                guard let names = value as? [String] else {
                    throw Problem(description: "\(file.path):1:1: error: 'filter.\(key)' in \(fileName) must be a list of strings")
                }
                filterArguments += names.flatMap { [flag, $0] }
            }
        }
        for (key, maps) in [
            ("typeOverrides", [("schemas", "--type-override"), ("formats", "--format-override")]),
            ("nameOverrides", [("schemas", "--schema-name"), ("operations", "--operation-name")]),
        ] {
            guard let value = object[key] else { continue }
            let names = maps.map(\.0).joined(separator: " and ")
            guard let value = value as? [String: Any], value.keys.allSatisfy({ name in maps.contains { $0.0 == name } }) else {
                throw Problem(description: "\(file.path):1:1: error: '\(key)' in \(fileName) must be an object of \(names), each an object of names to Swift names")
            }
            for (name, flag) in maps {
                guard let entry = value[name] else { continue }
                guard let pairs = entry as? [String: String] else {
                    throw Problem(description: "\(file.path):1:1: error: '\(key).\(name)' in \(fileName) must be an object of names to Swift names (strings)")
                }
                filterArguments += pairs.keys.sorted().flatMap { [flag, "\($0)=\(pairs[$0]!)"] }
            }
        }
        return ClientgenTargetConfig(
            spec: spec, file: file, module: object["module"] as? String ?? targetName, access: access,
            output: object["output"] as? String ?? "Generated", filterArguments: filterArguments)
    }
}
