import Foundation
import Testing

@testable import OpenAPIModel

/// Paths of the repository's specs and of its corpus of public specs.
enum Fixtures {
    /// The repository root, found from this file's path.
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    /// `specs/NAME`.
    static func spec(_ name: String) -> String { repositoryRoot.appendingPathComponent("specs/\(name)").path }
    /// The public specs written by others, kept in `corpus/`.
    static let corpus = repositoryRoot.appendingPathComponent("corpus").path

    /// Writes `files` (name -> text) into a new temporary folder and returns its path.
    static func folder(_ files: [String: String]) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("openapi-model-tests-\(UUID().uuidString)")
        for (name, text) in files {
            let url = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return folder.path
    }
}

/// Loads YAML text as a spec named `test.yaml`.
func load(_ yaml: String, file: String = "test.yaml") -> OpenAPILoadResult {
    OpenAPILoader.load(string: yaml, fileName: file)
}

/// The one diagnostic with `code`, failing the test when there is not exactly one.
func only(_ code: String, in result: OpenAPILoadResult, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> Diagnostic {
    let matches = result.diagnostics.filter { $0.code == code }
    #expect(matches.count == 1, "expected one '\(code)' diagnostic, got: \(result.diagnostics.map(\.description))", sourceLocation: sourceLocation)
    return try #require(matches.first, sourceLocation: sourceLocation)
}

extension OpenAPIDocument {
    /// A component schema, resolved.
    func schema(_ name: String) -> Schema? { components.schemas[name].flatMap { resolve($0) } }

    /// A property of a component schema, resolved.
    func property(_ name: String, of schemaName: String) -> Schema? {
        schema(schemaName)?.properties[name].flatMap { resolve($0) }
    }

    /// The operation at `method path`.
    func operation(_ method: HTTPMethod, _ path: String) -> OpenAPIModel.Operation? {
        paths[path].flatMap { resolve($0) }?.operation(method)
    }

    /// The resolved parameters of an operation (path-level ones first).
    func parameters(_ method: HTTPMethod, _ path: String) -> [Parameter] {
        guard let item = paths[path].flatMap({ resolve($0) }), let operation = item.operation(method) else { return [] }
        return (item.parameters + operation.parameters).compactMap { resolve($0) }
    }

    /// A resolved response of an operation.
    func response(_ method: HTTPMethod, _ path: String, _ status: String) -> Response? {
        operation(method, path)?.responses[status].flatMap { resolve($0) }
    }
}
