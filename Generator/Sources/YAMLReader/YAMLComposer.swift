#if LIBYAML_VENDORED
import CLibYAMLVendored
#else
import CLibYAML
#endif
import Foundation

/// Turns libyaml's event stream into a ``YAMLTree``: one pass, flat tables,
/// no per-node allocation.
struct YAMLComposer {
    /// Aliases may add at most this many nodes to a document beyond
    /// ``expansionFactor`` times its real nodes: every reader of the tree
    /// walks an alias as a copy, so this bounds what a document can cost
    /// them (a "billion laughs" of a few lines, or a few kilobytes that
    /// expand into megabytes of generated code).
    static let expansionAllowance = 20_000
    /// How many times its real nodes aliases may add to a document (beyond
    /// ``expansionAllowance``).
    static let expansionFactor = 2
    /// The deepest nesting of collections accepted (JSON parsers commonly stop at 512 or 1000).
    static let maximumDepth = 1000

    private struct Frame {
        var node: Int32
        var pendingStart: Int
        var anchor: String?
        /// Nodes that aliases inside this collection add beyond its own records.
        var aliasExtra = 0
    }

    let fileName: String
    let input: [UInt8]

    private var records: [YAMLTree.Record] = []
    private var childTable: [Int32] = []
    private var text: [UInt8] = []
    private var tags: [String] = [""]
    private var tagIndex: [String: UInt32] = [:]
    private var pending: [Int32] = []
    private var frames: [Frame] = []
    /// Anchor name -> the anchored node and its size with aliases expanded.
    private var anchors: [String: (node: Int32, expandedSize: Int)] = [:]
    /// The nodes the aliases read so far add (each alias counts its
    /// anchor's expanded size), and where each alias is with what it adds:
    /// the limit depends on the document's final size, so it is checked at
    /// the end, at the alias that passes it.
    private var aliasExtra = 0
    private var aliasUses: [(node: Int32, mark: SourceMark, anchor: String, size: Int)] = []
    private var documents: [YAMLNodeID] = []
    private var issues: [YAMLIssue] = []
    /// Whether any scalar so far is a merge key (`<<`): until one is, no
    /// mapping needs merging and no key needs checking for being one.
    private var hasMergeKeys = false
    /// The hash table of ``reportDuplicates(_:pairCount:)`` for large
    /// mappings, kept between mappings (a key of -1 is an empty slot).
    private var keyTable: [(hash: UInt64, key: Int32)] = []
    /// How many keys the duplicate and merge tables looked at: about one per
    /// key when keys spread over the tables, as many as there are keys per
    /// key when they collide (what the tests hold it to).
    private var keyProbes = 0

    init(fileName: String, input: [UInt8]) {
        self.fileName = fileName
        self.input = input
        let estimate = input.count / 12
        records.reserveCapacity(estimate)
        childTable.reserveCapacity(estimate)
        // Scalar text never outgrows the input (escapes and folding only shrink it).
        text.reserveCapacity(input.count)
    }

    mutating func compose() throws(YAMLError) -> YAMLTree {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else {
            throw .unreadable(file: fileName, reason: "libyaml could not allocate a parser")
        }
        defer { yaml_parser_delete(&parser) }
        let failure: YAMLError? = input.withUnsafeBufferPointer { buffer -> YAMLError? in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            var event = yaml_event_t()
            while true {
                guard yaml_parser_parse(&parser, &event) == 1 else { return parserError(parser) }
                defer { yaml_event_delete(&event) }
                if event.type == YAML_STREAM_END_EVENT { return nil }
                do throws(YAMLError) { try handle(&event) } catch { return error }
            }
        }
        if let failure { throw failure }
        try checkAliasExpansion(limit: Self.expansionLimit(realNodes: records.count), realNodes: records.count)
        if documents.count > 1 {
            issues.append(YAMLIssue(kind: .extraDocuments(count: documents.count), mark: mark(of: documents[1]), node: documents[1]))
        }
        return YAMLTree(
            fileName: fileName, byteCount: input.count, keyProbes: keyProbes, documents: documents, issues: issues, records: records, childTable: childTable,
            text: text, tags: tags)
    }

    // MARK: - Events

    /// Adds one event to the tree. Typed throws rather than a returned
    /// `YAMLError?`: the error is large, and returning it for every event
    /// copied it out each time (a fifth of this function's samples).
    private mutating func handle(_ event: inout yaml_event_t) throws(YAMLError) {
        switch event.type {
        case YAML_SCALAR_EVENT:
            let scalar = event.data.scalar
            let start = UInt32(text.count)
            if let value = scalar.value, scalar.length > 0 {
                text.append(contentsOf: UnsafeBufferPointer(start: value, count: scalar.length))
            }
            let node = addRecord(
                kind: .scalar, style: Self.style(scalar.style), tag: scalar.tag, mark: event.start_mark,
                start: start, count: UInt32(scalar.length))
            if let anchor = scalar.anchor { anchors[String(cString: anchor)] = (node, 1) }
            // A merge key is a plain `<<` or has the merge tag.
            if !hasMergeKeys && (scalar.tag != nil || scalar.length == 2) && isMergeKey(node) { hasMergeKeys = true }
            attach(node)
        case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
            let isMapping = event.type == YAML_MAPPING_START_EVENT
            if frames.count >= Self.maximumDepth {
                throw .nestingTooDeep(file: fileName, mark: Self.mark(event.start_mark), limit: Self.maximumDepth)
            }
            let tag = isMapping ? event.data.mapping_start.tag : event.data.sequence_start.tag
            let anchor = isMapping ? event.data.mapping_start.anchor : event.data.sequence_start.anchor
            let node = addRecord(
                kind: isMapping ? .mapping : .sequence, style: .plain, tag: tag, mark: event.start_mark, start: 0, count: 0)
            frames.append(Frame(node: node, pendingStart: pending.count, anchor: anchor.map { String(cString: $0) }))
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
            let frame = frames.removeLast()
            let node = Int(frame.node)
            let start = childTable.count
            if records[node].kind == .mapping {
                finishMapping(from: frame.pendingStart)
            } else {
                appendPending(from: frame.pendingStart)
            }
            pending.removeSubrange(frame.pendingStart...)
            records[node].start = UInt32(start)
            records[node].count = UInt32(childTable.count - start)
            // Its records (all created since it opened) plus what aliases add,
            // capped so that nested fan-outs cannot overflow.
            let size = min(records.count - node + frame.aliasExtra, Self.sizeCap)
            if let anchor = frame.anchor { anchors[anchor] = (frame.node, size) }
            if !frames.isEmpty { frames[frames.count - 1].aliasExtra = min(frames[frames.count - 1].aliasExtra + frame.aliasExtra, Self.sizeCap) }
            attach(frame.node)
        case YAML_ALIAS_EVENT:
            let name = String(cString: event.data.alias.anchor)
            guard let (node, size) = anchors[name] else {
                throw .undefinedAlias(file: fileName, mark: Self.mark(event.start_mark), anchor: name)
            }
            if !frames.isEmpty { frames[frames.count - 1].aliasExtra = min(frames[frames.count - 1].aliasExtra + size, Self.sizeCap) }
            aliasExtra = min(aliasExtra + size, Self.sizeCap)
            aliasUses.append((node, Self.mark(event.start_mark), name, size))
            attach(node)
        case YAML_DOCUMENT_START_EVENT:
            anchors.removeAll(keepingCapacity: true)
        default:
            break
        }
    }

    /// Sizes are capped here: a fan-out of aliases can name more nodes than
    /// an `Int` holds, and anything near this is refused anyway.
    private static let sizeCap = Int.max / 4

    /// The most nodes aliases may add to a document of `realNodes` nodes.
    static func expansionLimit(realNodes: Int) -> Int {
        expansionAllowance + expansionFactor * realNodes
    }

    /// Throws, at the alias that passes it, when aliases add more than
    /// `limit` nodes to a document of `realNodes` nodes. (Reading never
    /// expands an alias, so counting them all first costs nothing.)
    private func checkAliasExpansion(limit: Int, realNodes: Int) throws(YAMLError) {
        guard aliasExtra > limit else { return }
        var total = 0
        for use in aliasUses {
            total = min(total + use.size, Self.sizeCap)
            guard total > limit else { continue }
            throw .aliasExpansionTooLarge(
                file: fileName, mark: use.mark, anchor: use.anchor, aliasNodes: use.size, expandedNodes: aliasExtra, realNodes: realNodes,
                limit: limit)
        }
    }

    private mutating func attach(_ node: Int32) {
        if frames.isEmpty {
            documents.append(YAMLNodeID(index: node))
        } else {
            pending.append(node)
        }
    }

    /// Appends the pending nodes from `start` on to the child table, read
    /// through a buffer pointer (a slice of `pending` would retain and
    /// release its storage once per collection).
    private mutating func appendPending(from start: Int) {
        pending.withUnsafeBufferPointer { buffer in
            childTable.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start...]))
        }
    }

    private mutating func addRecord(
        kind: YAMLNodeKind, style: YAMLScalarStyle, tag: UnsafeMutablePointer<yaml_char_t>?, mark: yaml_mark_t,
        start: UInt32, count: UInt32
    ) -> Int32 {
        var tagSlot: UInt32 = 0
        if let tag {
            let name = String(cString: tag)
            if let known = tagIndex[name] {
                tagSlot = known
            } else {
                tagSlot = UInt32(tags.count)
                tags.append(name)
                tagIndex[name] = tagSlot
            }
        }
        records.append(
            YAMLTree.Record(
                kind: kind, style: style, tag: tagSlot, line: UInt32(mark.line + 1), column: UInt32(mark.column + 1),
                start: start, count: count))
        return Int32(records.count - 1)
    }

    // MARK: - Mappings: merge keys and duplicate keys

    /// Appends a mapping's pairs to the child table, applying `<<` merge keys
    /// (explicit keys win, earlier merged maps win over later ones) and
    /// recording duplicate explicit keys.
    private mutating func finishMapping(from start: Int) {
        let pairCount = (pending.count - start) / 2
        // Most documents have no merge key at all: then no key is looked at twice.
        var hasMerge = false
        if hasMergeKeys {
            var index = start
            while index < pending.count {
                if isMergeKey(pending[index]) { hasMerge = true }
                index += 2
            }
        }
        reportDuplicates(pending[start...], pairCount: pairCount)
        guard hasMerge else {
            appendPending(from: start)
            return
        }
        let slots = pending[start...]
        var index = slots.startIndex
        var explicitKeys: [Int32] = []
        while index < slots.endIndex {
            if !isMergeKey(slots[index]) { explicitKeys.append(slots[index]) }
            index += 2
        }
        // Keys already in the mapping, bucketed by hash: merging stays linear.
        var taken: [UInt64: [Int32]] = [:]
        for key in explicitKeys { taken[scalarHash(key), default: []].append(key) }
        index = slots.startIndex
        while index < slots.endIndex {
            let key = slots[index]
            let value = slots[index + 1]
            index += 2
            guard isMergeKey(key) else {
                childTable.append(key)
                childTable.append(value)
                continue
            }
            let sources: [Int32]
            switch records[Int(value)].kind {
            case .mapping: sources = [value]
            case .sequence:
                let record = records[Int(value)]
                sources = Array(childTable[Int(record.start)..<Int(record.start + record.count)])
            case .scalar: sources = []
            }
            for source in sources where records[Int(source)].kind == .mapping {
                let record = records[Int(source)]
                var slot = Int(record.start)
                while slot < Int(record.start + record.count) {
                    let mergedKey = childTable[slot]
                    let mergedValue = childTable[slot + 1]
                    slot += 2
                    let hash = scalarHash(mergedKey)
                    let candidates = taken[hash] ?? []
                    keyProbes += candidates.count
                    if candidates.contains(where: { sameKey($0, mergedKey) }) { continue }
                    taken[hash, default: []].append(mergedKey)
                    childTable.append(mergedKey)
                    childTable.append(mergedValue)
                }
            }
        }
    }

    private func isMergeKey(_ node: Int32) -> Bool {
        let record = records[Int(node)]
        guard record.kind == .scalar else { return false }
        if record.tag != 0 { return tags[Int(record.tag)] == "tag:yaml.org,2002:merge" }
        return record.style == .plain && record.count == 2 && text[Int(record.start)] == UInt8(ascii: "<")
            && text[Int(record.start) + 1] == UInt8(ascii: "<")
    }

    private func sameKey(_ a: Int32, _ b: Int32) -> Bool {
        let left = records[Int(a)]
        let right = records[Int(b)]
        guard left.kind == .scalar, right.kind == .scalar, left.count == right.count else { return a == b }
        if left.count == 0 { return true }
        return text.withUnsafeBufferPointer { buffer in
            memcmp(buffer.baseAddress! + Int(left.start), buffer.baseAddress! + Int(right.start), Int(left.count)) == 0
        }
    }

    private mutating func reportDuplicates(_ slots: ArraySlice<Int32>, pairCount: Int) {
        guard pairCount > 1 else { return }
        if pairCount <= 12 {
            // Small mappings (most of them): each key compared with the
            // earlier ones, by length first, so that keys of different
            // lengths (nearly all) cost no look at their bytes; each repeat
            // is paired with the key's first appearance.
            var later = slots.startIndex + 2
            while later < slots.endIndex {
                let key = slots[later]
                let record = records[Int(key)]
                if record.kind == .scalar && !(hasMergeKeys && isMergeKey(key)) {
                    var earlier = slots.startIndex
                    while earlier < later {
                        let other = slots[earlier]
                        let otherRecord = records[Int(other)]
                        if otherRecord.count == record.count && otherRecord.kind == .scalar && sameKey(other, key)
                            && !(hasMergeKeys && isMergeKey(other))
                        {
                            recordDuplicate(first: other, repeated: key)
                            break
                        }
                        earlier += 2
                    }
                }
                later += 2
            }
            return
        }
        // Large mappings: an open-addressing table of the keys seen so far,
        // by hash; only keys whose hashes are equal are compared. The table
        // is reused from mapping to mapping, so nothing is allocated.
        var table = keyTable
        keyTable = []
        var size = 16
        while size < pairCount * 2 { size *= 2 }
        if table.count < size {
            table = Array(repeating: (hash: 0, key: -1), count: size)
        } else {
            for index in 0..<size { table[index] = (hash: 0, key: -1) }
        }
        let mask = size - 1
        var slot = slots.startIndex
        while slot < slots.endIndex {
            let key = slots[slot]
            slot += 2
            guard !(hasMergeKeys && isMergeKey(key)), records[Int(key)].kind == .scalar else { continue }
            let hash = scalarHash(key)
            var index = Int(truncatingIfNeeded: hash) & mask
            var isRepeat = false
            while table[index].key >= 0 {
                keyProbes += 1
                if table[index].hash == hash && sameKey(table[index].key, key) {
                    recordDuplicate(first: table[index].key, repeated: key)
                    isRepeat = true
                    break
                }
                index = (index + 1) & mask
            }
            if !isRepeat { table[index] = (hash: hash, key: key) }
        }
        keyTable = table
    }

    /// A keyed hash of all of a scalar's bytes (0 for a collection): Swift's
    /// `Hasher`, SipHash seeded anew in every process, so no document can
    /// choose keys that share a hash (hashing only a key's ends let 20,000
    /// keys that share them make every lookup a linear scan).
    private func scalarHash(_ node: Int32) -> UInt64 {
        let record = records[Int(node)]
        // Collections (complex keys) have no text; they compare by identity.
        guard record.kind == .scalar else { return 0 }
        return text.withUnsafeBytes { buffer in
            var hasher = Hasher()
            hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: buffer[Int(record.start)..<Int(record.start + record.count)]))
            return UInt64(truncatingIfNeeded: hasher.finalize())
        }
    }

    private mutating func recordDuplicate(first: Int32, repeated: Int32) {
        let record = records[Int(repeated)]
        let key = text.withUnsafeBufferPointer { buffer in
            String(decoding: UnsafeBufferPointer(rebasing: buffer[Int(record.start)..<Int(record.start + record.count)]), as: UTF8.self)
        }
        let node = YAMLNodeID(index: repeated)
        issues.append(YAMLIssue(kind: .duplicateKey(key: key, firstMark: mark(of: YAMLNodeID(index: first))), mark: mark(of: node), node: node))
    }

    // MARK: - Helpers

    private func mark(of node: YAMLNodeID) -> SourceMark {
        let record = records[Int(node.index)]
        return SourceMark(line: Int(record.line), column: Int(record.column))
    }

    private static func mark(_ mark: yaml_mark_t) -> SourceMark {
        SourceMark(line: Int(mark.line) + 1, column: Int(mark.column) + 1)
    }

    private static func style(_ style: yaml_scalar_style_t) -> YAMLScalarStyle {
        switch style {
        case YAML_SINGLE_QUOTED_SCALAR_STYLE: return .singleQuoted
        case YAML_DOUBLE_QUOTED_SCALAR_STYLE: return .doubleQuoted
        case YAML_LITERAL_SCALAR_STYLE: return .literal
        case YAML_FOLDED_SCALAR_STYLE: return .folded
        default: return .plain
        }
    }

    // MARK: - Errors

    private func parserError(_ parser: yaml_parser_t) -> YAMLError {
        let problem = parser.problem.map { String(cString: $0) } ?? "unknown error"
        let source = SourceText(bytes: input)
        if parser.error == YAML_READER_ERROR {
            let mark = source.mark(atByteOffset: parser.problem_offset)
            return .binaryContent(file: fileName, mark: mark, reason: "\(problem) at byte offset \(parser.problem_offset)")
        }
        if parser.error == YAML_MEMORY_ERROR {
            return .unreadable(file: fileName, reason: "libyaml ran out of memory")
        }
        let problemMark = Self.mark(parser.problem_mark)
        let context = parser.context.map { String(cString: $0) }
        let contextMark = context == nil ? nil : Self.mark(parser.context_mark)
        if context == "while scanning a quoted scalar", let contextMark {
            return .syntax(
                file: fileName, mark: contextMark, problem: "unterminated quoted string (\(problem) at \(problemMark))",
                context: nil, contextMark: nil, hint: "close the string with the same quote character that opens it here")
        }
        return .syntax(
            file: fileName, mark: problemMark, problem: problem, context: context, contextMark: contextMark,
            hint: Self.hint(problem: problem, context: context, character: source.byte(at: problemMark)))
    }

    private static func hint(problem: String, context: String?, character: UInt8?) -> String? {
        if character == UInt8(ascii: "\t") {
            return "YAML does not allow tabs for indentation; indent with spaces"
        }
        if problem.hasPrefix("mapping values are not allowed") {
            return "quote a value that contains ': ', or check this line's indentation"
        }
        if problem.hasPrefix("did not find expected key") || problem.hasPrefix("did not find expected '-'") {
            return "this line's indentation does not match the block it belongs to; align it with its sibling keys"
        }
        if problem.hasPrefix("found character that cannot start any token") {
            return "a value starting with this character (such as '@' or '`') must be quoted"
        }
        if problem.hasPrefix("found undefined tag handle") {
            return "declare the tag handle with %TAG, or quote the value"
        }
        if problem.hasPrefix("did not find expected ',' or") || problem.hasPrefix("did not find expected node content") {
            return "check the brackets and commas of this flow collection"
        }
        return nil
    }
}
