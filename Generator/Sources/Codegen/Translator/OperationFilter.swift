import OpenAPIModel

/// The part of a spec a team generates a client for: operations named by
/// `operationId`, by tag or by path. The schemas the kept operations reach
/// come along (``ReachabilityAnalysis``), nothing else, so a client of three
/// operations of a vendor's 468 compiles three operations' worth of Swift.
///
/// An operation is kept when any list names it: its `operationId` (or the
/// id derived for one without, `get_/pets/petId`), one of its tags, or its
/// path as the spec spells it (`/pets/{petId}`). An empty filter keeps
/// everything. A name that matches nothing is an error (a typo would
/// otherwise leave an operation out silently).
public struct OperationFilter: Sendable, Hashable, Codable {
    /// `operationId`s to keep.
    public var operations: [String]
    /// Tags whose operations are kept.
    public var tags: [String]
    /// Paths whose operations are kept, as the spec spells them.
    public var paths: [String]

    /// Creates a filter.
    public init(operations: [String] = [], tags: [String] = [], paths: [String] = []) {
        self.operations = operations
        self.tags = tags
        self.paths = paths
    }

    private enum CodingKeys: String, CodingKey {
        case operations, tags, paths
    }

    /// Reads `{"operations": [...], "tags": [...], "paths": [...]}`, each
    /// list optional.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        operations = try container.decodeIfPresent([String].self, forKey: .operations) ?? []
        tags = try container.decodeIfPresent([String].self, forKey: .tags) ?? []
        paths = try container.decodeIfPresent([String].self, forKey: .paths) ?? []
    }

    /// Whether the filter keeps everything.
    public var isEmpty: Bool { operations.isEmpty && tags.isEmpty && paths.isEmpty }

    /// What the filter names that `document` does not have, said so a person
    /// can fix it: `operation 'listPetz' (no operation has this operationId)`.
    public func unmatched(in document: OpenAPIDocument) -> [String] {
        let all = document.operations
        let ids = Set(all.map { $0.operation.operationId ?? OperationTranslator.derivedID(method: $0.method, path: $0.path) })
        let tagged = Set(all.flatMap(\.operation.tags))
        let spelled = Set(all.map(\.path))
        return operations.filter { !ids.contains($0) }.map { "operation '\($0)' (no operation has this operationId)" }
            + tags.filter { !tagged.contains($0) }.map { "tag '\($0)' (no operation has this tag)" }
            + paths.filter { !spelled.contains($0) }.map { "path '\($0)' (no path of the spec is spelled so)" }
    }

    /// Whether the filter keeps an operation.
    func keeps(_ operation: OpenAPIModel.Operation, method: HTTPMethod, path: String) -> Bool {
        if isEmpty { return true }
        let id = operation.operationId ?? OperationTranslator.derivedID(method: method, path: path)
        return operations.contains(id) || paths.contains(path) || operation.tags.contains(where: tags.contains)
    }

    /// `document` with only the operations the filter keeps (and no
    /// webhooks, which no filter names); unchanged when the filter is empty.
    public func apply(to document: OpenAPIDocument) -> OpenAPIDocument {
        guard !isEmpty else { return document }
        var filtered = document
        filtered.paths = OrderedMap()
        for (path, item) in document.paths {
            guard var resolved = document.resolve(item) else { continue }
            resolved.operations = resolved.operations.filter { keeps($0.operation, method: $0.method, path: path) }
            if !resolved.operations.isEmpty { filtered.paths[path] = .value(resolved) }
        }
        filtered.webhooks = OrderedMap()
        return filtered
    }
}
