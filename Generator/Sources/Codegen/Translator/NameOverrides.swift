import Foundation
import OpenAPIModel

/// Swift names a team chooses for a spec's component schemas and
/// operations, in place of the ones derived from the spec (`Error` ->
/// `ServerError` rather than `ErrorSchema`; `repos/list-for-user` ->
/// `userRepositories`). Each is made a Swift name the way derived names
/// are (so any text is safe), and claimed first: a derived name that would
/// clash with it gets the suffix instead.
public struct NameOverrides: Sendable, Hashable, Codable {
    /// Component schema name -> Swift type name.
    public var schemas: [String: String]
    /// `operationId` (or the id derived for one without) -> method name.
    public var operations: [String: String]

    /// Creates overrides.
    public init(schemas: [String: String] = [:], operations: [String: String] = [:]) {
        self.schemas = schemas
        self.operations = operations
    }

    private enum CodingKeys: String, CodingKey {
        case schemas, operations
    }

    /// Reads `{"schemas": {...}, "operations": {...}}`, each optional.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        schemas = try container.decodeIfPresent([String: String].self, forKey: .schemas) ?? [:]
        operations = try container.decodeIfPresent([String: String].self, forKey: .operations) ?? [:]
    }

    /// Whether nothing is renamed.
    public var isEmpty: Bool { schemas.isEmpty && operations.isEmpty }

    /// What the overrides name that `document` does not have, or names that
    /// are empty.
    public func problems(in document: OpenAPIDocument) -> [String] {
        let ids = Set(document.operations.map { $0.operation.operationId ?? OperationTranslator.derivedID(method: $0.method, path: $0.path) })
        var problems: [String] = []
        for name in schemas.keys.sorted() where document.components.schemas[name] == nil {
            problems.append("schema '\(name)' (the spec's components/schemas has no schema of this name)")
        }
        for id in operations.keys.sorted() where !ids.contains(id) {
            problems.append("operation '\(id)' (no operation has this operationId)")
        }
        for (key, name) in schemas.sorted(by: { $0.key < $1.key }) + operations.sorted(by: { $0.key < $1.key })
        where name.trimmingCharacters(in: .whitespaces).isEmpty {
            problems.append("'\(key)' -> an empty name")
        }
        return problems
    }
}
