import Foundation
import Testing
import YAMLReader

/// Reads YAML text named `test.yaml`.
func parse(_ yaml: String, fileName: String = "test.yaml") throws -> YAMLTree {
    try YAMLReader.read(string: yaml, fileName: fileName)
}

/// The error reading `yaml` throws, or `nil` when it reads cleanly.
func readError(_ yaml: String, fileName: String = "test.yaml") -> YAMLError? {
    readError(bytes: Array(yaml.utf8), fileName: fileName)
}

/// The error reading `bytes` throws, or `nil` when they read cleanly.
func readError(bytes: [UInt8], fileName: String = "test.yaml") -> YAMLError? {
    do throws(YAMLError) {
        _ = try YAMLReader.read(bytes: bytes, fileName: fileName)
        return nil
    } catch {
        return error
    }
}

/// Shorthand for a 1-based `line:column` mark.
func at(_ line: Int, _ column: Int) -> SourceMark { SourceMark(line: line, column: column) }

/// The first document's root, failing the test when the stream is empty.
func requireRoot(_ tree: YAMLTree, sourceLocation: SourceLocation = #_sourceLocation) throws -> YAMLNodeID {
    try #require(tree.root, "the stream has no document", sourceLocation: sourceLocation)
}

/// Walks scalar keys (mapping) and decimal indexes (sequence) from the root,
/// using only `value(forKey:in:)` and `items(_:)`.
func walk(_ tree: YAMLTree, _ path: String..., sourceLocation: SourceLocation = #_sourceLocation) throws -> YAMLNodeID {
    var current = try requireRoot(tree, sourceLocation: sourceLocation)
    for step in path {
        switch tree.kind(current) {
        case .mapping:
            current = try #require(tree.value(forKey: step, in: current), "no key '\(step)'", sourceLocation: sourceLocation)
        case .sequence:
            let index = try #require(Int(step), "'\(step)' is not an index", sourceLocation: sourceLocation)
            let items = tree.items(current)
            try #require(index < items.count, "index \(index) out of range", sourceLocation: sourceLocation)
            current = items[index]
        case .scalar:
            Issue.record("cannot step into a scalar with '\(step)'", sourceLocation: sourceLocation)
            throw WalkError()
        }
    }
    return current
}

struct WalkError: Error {}

/// The texts of a mapping's keys, in document order.
func keyTexts(_ tree: YAMLTree, _ mapping: YAMLNodeID) -> [String?] {
    tree.pairs(mapping).map { tree.text($0.key) }
}

/// The texts of a sequence's items, in document order.
func itemTexts(_ tree: YAMLTree, _ sequence: YAMLNodeID) -> [String?] {
    tree.items(sequence).map { tree.text($0) }
}

/// The duplicate-key issues of a tree as (key, mark, firstMark).
func duplicateKeys(_ tree: YAMLTree) -> [(key: String, mark: SourceMark, firstMark: SourceMark)] {
    tree.issues.compactMap { issue in
        guard case .duplicateKey(let key, let firstMark) = issue.kind else { return nil }
        return (key, issue.mark, firstMark)
    }
}

/// Writes `bytes` to a uniquely named file in the temporary directory, runs
/// `body` with its path, and removes the file.
func withTemporaryFile<T>(_ bytes: [UInt8], suffix: String = ".yaml", _ body: (String) throws -> T) throws -> T {
    let path = (NSTemporaryDirectory() as NSString).appendingPathComponent("yamlreader-tests-\(UUID().uuidString)\(suffix)")
    guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
        Issue.record("could not create \(path)")
        throw WalkError()
    }
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try body(path)
}
