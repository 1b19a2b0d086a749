import YAMLReader

/// One YAML file read during a load: the root document or a file that a
/// `$ref` points into.
final class SourceFile {
    /// The name used in diagnostics and ``ReferenceTarget/file``.
    let name: String
    /// The folder that relative `$ref`s in this file start from ("" for the working folder).
    let directory: String
    let tree: YAMLTree
    /// The keys of each large mapping looked into so far, with the first
    /// pair of each key: built on a mapping's first lookup, so that looking
    /// up n keys of a mapping of n keys (a `$ref` to each of thousands of
    /// components) costs n steps, not n squared. Keys hash with Swift's
    /// seeded hasher, which a document cannot make collide.
    private var keyIndexes: [Int32: [String: (key: YAMLNodeID, value: YAMLNodeID)]] = [:]
    /// Mappings with fewer pairs are scanned: most of a spec's mappings are
    /// small, and a scan of a few keys is cheaper than building an index.
    static let indexedPairCount = 16

    init(name: String, tree: YAMLTree) {
        self.name = name
        self.tree = tree
        if let slash = name.lastIndex(of: "/") {
            directory = String(name[...slash])
        } else {
            directory = ""
        }
    }

    /// The root node of the first document, or `nil` when the file is empty.
    var root: Node? { tree.root.map { Node(file: self, id: $0, pointer: .root) } }

    /// The first pair of `mapping` whose key is the scalar `key`; nil when
    /// there is none or `mapping` is not a mapping.
    func pair(forKey key: String, in mapping: YAMLNodeID) -> (key: YAMLNodeID, value: YAMLNodeID)? {
        let pairs = tree.pairs(mapping)
        guard pairs.count >= Self.indexedPairCount else {
            for pair in pairs where tree.isScalar(pair.key, equalTo: key) { return pair }
            return nil
        }
        if let index = keyIndexes[mapping.index] { return index[key] }
        var index: [String: (key: YAMLNodeID, value: YAMLNodeID)] = [:]
        index.reserveCapacity(pairs.count)
        for pair in pairs {
            guard let text = tree.text(pair.key), index[text] == nil else { continue }
            index[text] = pair
        }
        keyIndexes[mapping.index] = index
        return index[key]
    }

    /// The node a JSON pointer (RFC 6901, without the leading `#`) names,
    /// starting at `node`, through the indexes of large mappings; `nil` when
    /// a step does not exist.
    func node(atPointer pointer: String, from node: YAMLNodeID) -> YAMLNodeID? {
        tree.node(atPointer: pointer, from: node) { key, mapping in pair(forKey: key, in: mapping)?.value }
    }
}

/// A node of a ``SourceFile`` together with the JSON pointer that reached it.
struct Node {
    let file: SourceFile
    let id: YAMLNodeID
    let pointer: JSONPointer
    /// How many steps below the file's root the node is (the pointer's token count).
    let depth: Int

    init(file: SourceFile, id: YAMLNodeID, pointer: JSONPointer, depth: Int) {
        self.file = file
        self.id = id
        self.pointer = pointer
        self.depth = depth
    }

    /// A node reached by a pointer; its depth is the pointer's token count.
    init(file: SourceFile, id: YAMLNodeID, pointer: JSONPointer) {
        self.init(file: file, id: id, pointer: pointer, depth: pointer.encoded.utf8.reduce(0) { $1 == UInt8(ascii: "/") ? $0 + 1 : $0 })
    }

    var tree: YAMLTree { file.tree }
    var kind: YAMLNodeKind { file.tree.kind(id) }
    var location: SourceLocation { SourceLocation(file: file.name, mark: file.tree.mark(id), pointer: pointer) }
    var isMapping: Bool { kind == .mapping }

    /// A scalar's text.
    var text: String? { file.tree.text(id) }

    /// The value of `key` in this mapping.
    func child(_ key: String) -> Node? {
        file.pair(forKey: key, in: id).map { Node(file: file, id: $0.value, pointer: pointer.appending(key), depth: depth + 1) }
    }

    /// Whether this mapping has the key.
    func has(_ key: String) -> Bool { file.pair(forKey: key, in: id) != nil }

    /// The mapping's keys (scalar text), in order.
    var keys: [String] { file.tree.pairs(id).compactMap { file.tree.text($0.key) } }

    /// The items of a sequence, each with its pointer.
    var items: [Node] {
        file.tree.items(id).enumerated().map { Node(file: file, id: $1, pointer: pointer.appending($0), depth: depth + 1) }
    }

    /// Calls `body` with each scalar key and its value, in document order.
    /// Non-scalar keys are passed to `complexKey`.
    func forEachPair(complexKey: (Node) -> Void = { _ in }, _ body: (String, Node) -> Void) {
        let tree = file.tree
        for pair in tree.pairs(id) {
            guard let key = tree.text(pair.key) else {
                complexKey(Node(file: file, id: pair.key, pointer: pointer))
                continue
            }
            body(key, Node(file: file, id: pair.value, pointer: pointer.appending(key), depth: depth + 1))
        }
    }

    /// The node at the position of the key of `key` (for diagnostics about keys).
    func keyNode(_ key: String) -> Node? {
        file.pair(forKey: key, in: id).map { Node(file: file, id: $0.key, pointer: pointer.appending(key), depth: depth + 1) }
    }
}
