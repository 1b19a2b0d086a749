import Foundation

/// Identifies a node of a ``YAMLTree``. Only meaningful with the tree that
/// made it.
public struct YAMLNodeID: Sendable, Hashable, Comparable {
    /// The node's position in the tree's node table.
    public let index: Int32

    /// Orders nodes by their position in the node table (document order of
    /// their start events).
    public static func < (lhs: YAMLNodeID, rhs: YAMLNodeID) -> Bool { lhs.index < rhs.index }
}

/// The three kinds of YAML node.
public enum YAMLNodeKind: UInt8, Sendable {
    /// A single value.
    case scalar
    /// An ordered list of nodes.
    case sequence
    /// An ordered list of key/value pairs.
    case mapping
}

/// How a scalar was written.
public enum YAMLScalarStyle: UInt8, Sendable {
    /// Unquoted: its value is resolved by the core schema (`true`, `1`, `~`).
    case plain
    /// `'single quoted'`.
    case singleQuoted
    /// `"double quoted"`.
    case doubleQuoted
    /// A `|` block.
    case literal
    /// A `>` block.
    case folded
}

/// A problem in a YAML file that does not stop it from being read, such as a
/// key that appears twice in one mapping.
public struct YAMLIssue: Sendable, Hashable {
    /// What kind of problem.
    public enum Kind: Sendable, Hashable {
        /// A mapping has the same key twice; `firstMark` is where it first appears.
        case duplicateKey(key: String, firstMark: SourceMark)
        /// The file holds more than one YAML document; only the first is used.
        case extraDocuments(count: Int)
    }

    /// What kind of problem.
    public let kind: Kind
    /// Where it is.
    public let mark: SourceMark
    /// The node the problem belongs to (the repeated key, or the second document's root).
    public let node: YAMLNodeID
}

/// An immutable YAML node tree read from one file, with a line and column on
/// every node.
///
/// Nodes live in flat tables and are addressed by ``YAMLNodeID``; scalar text
/// is kept as UTF-8 bytes and turned into `String`s only when asked. Aliases
/// share the anchored node (the tree is a DAG), and `<<` merge keys are
/// already applied. The tree is `Sendable` because it is never mutated after
/// the composer builds it.
public final class YAMLTree: Sendable {
    struct Record {
        var kind: YAMLNodeKind
        var style: YAMLScalarStyle
        var tag: UInt32
        var line: UInt32
        var column: UInt32
        /// Scalar: byte offset into `text`. Collection: index into `children`.
        var start: UInt32
        /// Scalar: byte length. Collection: number of child slots (2 per pair).
        var count: UInt32
    }

    /// The file name used in marks and diagnostics.
    public let fileName: String
    /// The root node of each document in the stream, in order. Empty for an
    /// empty file or one with only comments.
    public let documents: [YAMLNodeID]
    /// Non-fatal problems found while reading.
    public let issues: [YAMLIssue]
    /// The size of the text the tree was read from, in bytes.
    public let byteCount: Int
    /// How many keys reading looked at in its duplicate and merge tables
    /// beyond the one it placed (the tests' measure of hash collisions).
    let keyProbes: Int

    let records: [Record]
    let childTable: [Int32]
    let text: [UInt8]
    let tags: [String]

    init(
        fileName: String, byteCount: Int, keyProbes: Int, documents: [YAMLNodeID], issues: [YAMLIssue], records: [Record], childTable: [Int32],
        text: [UInt8], tags: [String]
    ) {
        self.fileName = fileName
        self.byteCount = byteCount
        self.keyProbes = keyProbes
        self.documents = documents
        self.issues = issues
        self.records = records
        self.childTable = childTable
        self.text = text
        self.tags = tags
    }

    /// The first document's root, or `nil` for an empty stream.
    public var root: YAMLNodeID? { documents.first }

    /// The number of distinct nodes in the tree.
    public var nodeCount: Int { records.count }

    /// The kind of a node.
    public func kind(_ node: YAMLNodeID) -> YAMLNodeKind { records[Int(node.index)].kind }

    /// Where a node starts.
    public func mark(_ node: YAMLNodeID) -> SourceMark {
        let record = records[Int(node.index)]
        return SourceMark(line: Int(record.line), column: Int(record.column))
    }

    /// A scalar's style (`.plain` for collections).
    public func style(_ node: YAMLNodeID) -> YAMLScalarStyle { records[Int(node.index)].style }

    /// A node's explicit tag, fully expanded (`tag:yaml.org,2002:str`, `!custom`), or `nil`.
    public func tag(_ node: YAMLNodeID) -> String? {
        let index = records[Int(node.index)].tag
        return index == 0 ? nil : tags[Int(index)]
    }

    /// A scalar's text exactly as written, after YAML unescaping and folding;
    /// `nil` for collections.
    public func text(_ node: YAMLNodeID) -> String? {
        let record = records[Int(node.index)]
        guard record.kind == .scalar else { return nil }
        return text.withUnsafeBufferPointer { buffer in
            String(decoding: UnsafeBufferPointer(rebasing: buffer[Int(record.start)..<Int(record.start + record.count)]), as: UTF8.self)
        }
    }

    /// Whether a node is a scalar whose text is exactly `string`, compared
    /// without building a `String`.
    public func isScalar(_ node: YAMLNodeID, equalTo string: String) -> Bool {
        let record = records[Int(node.index)]
        guard record.kind == .scalar else { return false }
        var string = string
        return string.withUTF8 { key in
            guard key.count == Int(record.count) else { return false }
            return text.withUnsafeBufferPointer { buffer in
                key.elementsEqual(buffer[Int(record.start)..<Int(record.start + record.count)])
            }
        }
    }

    /// Whether a scalar's text starts with `prefix` (ASCII), without building a `String`.
    public func scalar(_ node: YAMLNodeID, hasPrefix prefix: StaticString) -> Bool {
        let record = records[Int(node.index)]
        guard record.kind == .scalar, Int(record.count) >= prefix.utf8CodeUnitCount else { return false }
        return text.withUnsafeBufferPointer { buffer in
            UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount)
                .elementsEqual(buffer[Int(record.start)..<Int(record.start) + prefix.utf8CodeUnitCount])
        }
    }

    /// A scalar's value resolved by the YAML 1.2 core schema; `nil` for collections.
    public func scalar(_ node: YAMLNodeID) -> YAMLScalar? {
        guard let text = text(node) else { return nil }
        if let tag = tag(node) {
            if tag == "!" { return .string(text) }
            if let value = YAMLScalar.resolveTagged(text, tag: tag) { return value }
            return .string(text)
        }
        return style(node) == .plain ? YAMLScalar.resolvePlain(text) : .string(text)
    }

    /// The items of a sequence (empty for other kinds).
    public func items(_ node: YAMLNodeID) -> YAMLChildren {
        let record = records[Int(node.index)]
        guard record.kind == .sequence else { return YAMLChildren(tree: self, range: 0..<0, stride: 1) }
        return YAMLChildren(tree: self, range: Int(record.start)..<Int(record.start + record.count), stride: 1)
    }

    /// The key/value pairs of a mapping in document order (empty for other kinds).
    public func pairs(_ node: YAMLNodeID) -> YAMLPairs {
        let record = records[Int(node.index)]
        guard record.kind == .mapping else { return YAMLPairs(tree: self, base: 0, count: 0) }
        return YAMLPairs(tree: self, base: Int(record.start), count: Int(record.count) / 2)
    }

    /// The number of items of a sequence or pairs of a mapping (0 for scalars).
    public func count(_ node: YAMLNodeID) -> Int {
        let record = records[Int(node.index)]
        switch record.kind {
        case .scalar: return 0
        case .sequence: return Int(record.count)
        case .mapping: return Int(record.count) / 2
        }
    }

    /// The value for a scalar key in a mapping, or `nil` when absent or when
    /// `node` is not a mapping.
    public func value(forKey key: String, in node: YAMLNodeID) -> YAMLNodeID? {
        for pair in pairs(node) where isScalar(pair.key, equalTo: key) { return pair.value }
        return nil
    }

    /// The node a JSON pointer (RFC 6901, without the leading `#`) names,
    /// starting at `node`; `nil` when a step does not exist.
    public func node(atPointer pointer: String, from node: YAMLNodeID) -> YAMLNodeID? {
        self.node(atPointer: pointer, from: node) { key, mapping in value(forKey: key, in: mapping) }
    }

    /// ``node(atPointer:from:)`` with each key of a mapping looked up by
    /// `lookup` (a caller that keeps an index of large mappings).
    public func node(
        atPointer pointer: String, from node: YAMLNodeID, lookup: (_ key: String, _ mapping: YAMLNodeID) -> YAMLNodeID?
    ) -> YAMLNodeID? {
        guard !pointer.isEmpty else { return node }
        guard pointer.hasPrefix("/") else { return nil }
        var current = node
        for rawToken in pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            // Most tokens have no escapes: skip Foundation's replacement then.
            let token = rawToken.utf8.contains(UInt8(ascii: "~"))
                ? rawToken.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
                : String(rawToken)
            switch kind(current) {
            case .mapping:
                guard let next = lookup(token, current) else { return nil }
                current = next
            case .sequence:
                guard let index = Int(token), index >= 0, index < count(current) else { return nil }
                current = items(current)[index]
            case .scalar:
                return nil
            }
        }
        return current
    }
}

/// The items of a sequence node, as a random-access collection of node IDs.
public struct YAMLChildren: RandomAccessCollection, Sendable {
    let tree: YAMLTree
    let range: Range<Int>
    let stride: Int

    /// The first position.
    public var startIndex: Int { 0 }
    /// One past the last position.
    public var endIndex: Int { range.count / stride }
    /// The item at `position`.
    public subscript(position: Int) -> YAMLNodeID {
        YAMLNodeID(index: tree.childTable[range.lowerBound + position * stride])
    }
}

/// The pairs of a mapping node, in document order.
public struct YAMLPairs: RandomAccessCollection, Sendable {
    let tree: YAMLTree
    let base: Int
    /// The number of pairs.
    public let count: Int

    /// The first position.
    public var startIndex: Int { 0 }
    /// One past the last position.
    public var endIndex: Int { count }
    /// The pair at `position`.
    public subscript(position: Int) -> (key: YAMLNodeID, value: YAMLNodeID) {
        let slot = base + position * 2
        return (YAMLNodeID(index: tree.childTable[slot]), YAMLNodeID(index: tree.childTable[slot + 1]))
    }
}
