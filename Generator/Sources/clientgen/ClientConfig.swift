import ArgumentParser
import Codegen
import Foundation

/// The list of clients `make generate` writes (`specs/clients.json`).
struct ClientConfig: Decodable {
    /// One client.
    struct Entry: Decodable {
        /// The spec file.
        var spec: String
        /// The output folder.
        var output: String
        /// The module name (default: from the spec's title).
        var module: String?
        /// The access level (default `public`).
        var access: AccessLevel?
        /// The folder the spec's `$ref`s may reach files in (default: the
        /// spec's own folder and below).
        var referenceRoot: String?
        /// The operations to generate (`{"operations": [...], "tags": [...],
        /// "paths": [...]}`), with the types they reach; absent: all.
        var filter: OperationFilter?
        /// The app's types in place of the spec's (`{"schemas": {"Price":
        /// "Decimal"}, "formats": {"uuid": "Foundation.UUID"}}`).
        var typeOverrides: TypeOverrides?
        /// Swift names for schemas and operations (`{"schemas": {"Error":
        /// "ServerError"}, "operations": {"listPets": "allPets"}}`).
        var nameOverrides: NameOverrides?
    }

    /// The clients, in order.
    var clients: [Entry]

    /// Reads a config file; a missing or malformed one is a validation error that says what is wrong.
    static func load(path: String) throws -> ClientConfig {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ValidationError("cannot read the config file '\(path)'")
        }
        do {
            return try JSONDecoder().decode(ClientConfig.self, from: data)
        } catch {
            throw ValidationError("'\(path)' is not a client list ({\"clients\": [{\"spec\": ..., \"output\": ..., \"module\": ...}]}): \(error)")
        }
    }
}

/// A folder that holds only generated Swift files.
///
/// Only files that start with the generated-file header are ever replaced or
/// removed: a hand-written `.swift` file found there stops the run instead,
/// so a wrong `--output` cannot delete anyone's sources.
struct OutputFolder {
    let path: String


    /// A `.swift` file in the output folder that clientgen did not write.
    struct ForeignFilesError: Error, CustomStringConvertible {
        let folder: String
        let files: [String]

        var description: String {
            "error: \(folder) holds Swift files clientgen did not generate (\(files.joined(separator: ", "))); "
                + "generated code needs a folder of its own: move them, or choose another --output"
        }
    }

    private var url: URL { URL(fileURLWithPath: path, isDirectory: true) }

    /// Writes the files (only those whose bytes change) and removes
    /// generated files left from earlier runs.
    func write(_ files: [GeneratedFile]) throws {
        let existing = swiftFiles()
        let foreign = existing.filter { !isGenerated($0) }
        guard foreign.isEmpty else { throw ForeignFilesError(folder: path, files: foreign) }
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        for file in files {
            let target = url.appendingPathComponent(file.name)
            let data = Data(file.contents.utf8)
            if FileManager.default.contents(atPath: target.path) != data {
                try data.write(to: target, options: .atomic)
            }
        }
        let keep = Set(files.map(\.name))
        for name in existing where !keep.contains(name) {
            try FileManager.default.removeItem(at: url.appendingPathComponent(name))
        }
    }

    /// The files that differ from `files`: changed, missing or extra.
    func differences(from files: [GeneratedFile]) -> [String] {
        var result: [String] = []
        for file in files {
            let target = url.appendingPathComponent(file.name)
            guard let data = FileManager.default.contents(atPath: target.path) else {
                result.append("\(path)/\(file.name) (missing)")
                continue
            }
            if data != Data(file.contents.utf8) { result.append("\(path)/\(file.name) (differs)") }
        }
        let expected = Set(files.map(\.name))
        for name in swiftFiles() where !expected.contains(name) {
            result.append("\(path)/\(name) (not generated from the spec)")
        }
        return result
    }

    private func swiftFiles() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.filter { $0.hasSuffix(".swift") }.sorted()
    }

    private func isGenerated(_ name: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: url.appendingPathComponent(name).path) else { return false }
        defer { try? handle.close() }
        let prefix = handle.readData(ofLength: GeneratedFileHeader.prefix.utf8.count)
        return prefix == Data(GeneratedFileHeader.prefix.utf8)
    }
}
