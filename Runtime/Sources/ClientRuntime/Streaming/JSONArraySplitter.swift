/// Splits a JSON body into the elements of one array as its bytes arrive,
/// without parsing the elements: it tracks strings, escapes and nesting
/// only, so a body of any size passes through in one scan while memory
/// holds one element (and the rest of the body, the *envelope*) at a time.
///
/// The array is either the body itself (`[...]`) or the value of one member
/// of a top-level object (`{"branding": [...], "synced_at": ...}`). The
/// envelope is the body with that array's interior removed
/// (`{"branding":[],"synced_at":...}`), so it decodes into the response's
/// own type once the body has ended, wherever the array stood.
///
/// The splitter checks structure, not values: elements are checked by
/// whoever decodes them. A body whose nesting does not balance, that ends
/// early, or has text after its end fails with ``Failure``.
struct JSONArraySplitter {
    /// Why the body cannot be split.
    enum Failure: Error, Equatable, CustomStringConvertible {
        /// The body ended inside a value.
        case truncated
        /// A byte that JSON does not allow where it stands (offset in the body).
        case unexpected(byte: UInt8, offset: Int)
        /// The array member was not found in the top-level object.
        case arrayMissing(member: String)
        /// The member's value is not an array.
        case notAnArray(member: String)
        /// An element or the envelope grew past the limit.
        case tooLarge(limit: Int)

        var description: String {
            switch self {
            case .truncated: return "the body ends before its last value is complete"
            case .unexpected(let byte, let offset):
                return "unexpected \(Self.show(byte)) at byte \(offset)"
            case .arrayMissing(let member): return "the body has no '\(member)' array"
            case .notAnArray(let member): return "'\(member)' is not an array"
            case .tooLarge(let limit): return "one element (or the body around the array) is larger than \(limit) bytes"
            }
        }

        private static func show(_ byte: UInt8) -> String {
            (0x21...0x7E).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x" + String(byte, radix: 16)
        }
    }

    /// Where the scan stands.
    private enum Phase {
        /// Before the body's first value.
        case start
        /// In the top-level object, outside the array (depth counts from it).
        case envelope
        /// Inside the array, between or in elements.
        case array
        /// After the body's last value: only whitespace may follow.
        case end
    }

    /// The array's member name as UTF-8, or nil when the body is the array.
    private let member: [UInt8]?
    private let limit: Int
    private var phase = Phase.start
    /// Open objects and arrays around the current byte.
    private var depth = 0
    private var inString = false
    private var escaped = false
    /// In the envelope, at the object's own level: the next string is a key.
    private var expectingKey = false
    /// The key being read at the object's own level, and the last one read.
    private var key: [UInt8] = []
    private var readingKey = false
    private var lastKey: [UInt8] = []
    /// After the array member's `:`, before its value.
    private var awaitingArrayValue = false
    private var foundArray = false
    /// Completed elements joined by commas, then the element being read.
    private var output: [UInt8] = []
    /// Where each completed element ends in `output` (the last one's end is
    /// where the completed elements end).
    private var ends: [Int] = []
    private var completedEnd: Int { ends.last ?? 0 }
    private var inElement = false
    /// Where the element being read starts in `output`.
    private var elementStart = 0
    /// The envelope's bytes so far.
    private(set) var envelope: [UInt8] = []
    /// Bytes scanned so far.
    private var offset = 0

    /// A splitter for the array at `member` of a top-level object, or for a
    /// body that is itself an array (`member == nil`); an element or the
    /// envelope larger than `limit` bytes fails the body.
    init(member: String?, limit: Int) {
        self.member = member.map { Array($0.utf8) }
        self.limit = limit
    }

    /// Scans the next bytes of the body; the elements completed in them are
    /// added to those ``takeElements()`` returns.
    mutating func consume(_ bytes: UnsafeBufferPointer<UInt8>) throws {
        var index = 0
        let count = bytes.count
        // Where the bytes being kept (element or envelope) began in this chunk.
        var keptFrom = 0
        while index < count {
            let byte = bytes[index]
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                    if readingKey {
                        readingKey = false
                        lastKey = key
                    }
                } else if readingKey {
                    key.append(byte)
                }
                index += 1
                continue
            }
            switch phase {
            case .start:
                if Self.isWhitespace(byte) { break }
                if member == nil, byte == UInt8(ascii: "[") {
                    phase = .array
                    depth = 1
                    keptFrom = index + 1
                } else if member != nil, byte == UInt8(ascii: "{") {
                    phase = .envelope
                    depth = 1
                    expectingKey = true
                    envelope.append(byte)
                    keptFrom = index + 1
                } else {
                    throw Failure.unexpected(byte: byte, offset: offset + index)
                }
            case .envelope:
                switch byte {
                case UInt8(ascii: "\""):
                    inString = true
                    if depth == 1, expectingKey {
                        readingKey = true
                        expectingKey = false
                        key.removeAll(keepingCapacity: true)
                    }
                    if awaitingArrayValue { throw Failure.notAnArray(member: String(decoding: member ?? [], as: UTF8.self)) }
                case UInt8(ascii: ":") where depth == 1:
                    awaitingArrayValue = !foundArray && lastKey == member
                case UInt8(ascii: ",") where depth == 1:
                    expectingKey = true
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    if awaitingArrayValue {
                        guard byte == UInt8(ascii: "[") else {
                            throw Failure.notAnArray(member: String(decoding: member ?? [], as: UTF8.self))
                        }
                        // The `[` stays in the envelope; the interior is the array's.
                        try keep(bytes, from: keptFrom, to: index + 1, into: .envelope)
                        awaitingArrayValue = false
                        foundArray = true
                        phase = .array
                        depth += 1
                        keptFrom = index + 1
                        index += 1
                        continue
                    }
                    depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 {
                        try keep(bytes, from: keptFrom, to: index + 1, into: .envelope)
                        keptFrom = index + 1
                        phase = .end
                    } else if depth < 0 {
                        throw Failure.unexpected(byte: byte, offset: offset + index)
                    }
                default:
                    if awaitingArrayValue, !Self.isWhitespace(byte) {
                        throw Failure.notAnArray(member: String(decoding: member ?? [], as: UTF8.self))
                    }
                }
            case .array:
                let arrayDepth = member == nil ? 1 : 2
                switch byte {
                case UInt8(ascii: "\""):
                    if !inElement { startElement(at: index, keptFrom: &keptFrom) }
                    inString = true
                case UInt8(ascii: ",") where depth == arrayDepth:
                    guard inElement else { throw Failure.unexpected(byte: byte, offset: offset + index) }
                    try finishElement(bytes, to: index, keptFrom: &keptFrom)
                case UInt8(ascii: "]") where depth == arrayDepth:
                    if inElement { try finishElement(bytes, to: index, keptFrom: &keptFrom) }
                    depth -= 1
                    if member == nil {
                        phase = .end
                    } else {
                        phase = .envelope
                        keptFrom = index
                    }
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    if !inElement { startElement(at: index, keptFrom: &keptFrom) }
                    depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    guard inElement, depth > arrayDepth else { throw Failure.unexpected(byte: byte, offset: offset + index) }
                    depth -= 1
                default:
                    if !inElement, !Self.isWhitespace(byte) { startElement(at: index, keptFrom: &keptFrom) }
                }
            case .end:
                if !Self.isWhitespace(byte) { throw Failure.unexpected(byte: byte, offset: offset + index) }
            }
            index += 1
        }
        // Keep what the chunk left of the element or envelope being read.
        switch phase {
        case .array where inElement: try keep(bytes, from: keptFrom, to: count, into: .element)
        case .envelope: try keep(bytes, from: keptFrom, to: count, into: .envelope)
        default: break
        }
        offset += count
    }

    /// Checks that the body ended where a value may end, and returns the
    /// envelope (`{}` for a body that is itself an array).
    func finish() throws -> [UInt8] {
        guard phase == .end, !inString else { throw Failure.truncated }
        if let member {
            guard foundArray else { throw Failure.arrayMissing(member: String(decoding: member, as: UTF8.self)) }
            return envelope
        }
        return Array("{}".utf8)
    }

    private enum Destination { case element, envelope }

    private mutating func keep(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int, into destination: Destination) throws {
        guard end > start else { return }
        switch destination {
        case .element:
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<end]))
            if output.count - elementStart > limit { throw Failure.tooLarge(limit: limit) }
        case .envelope:
            envelope.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<end]))
            if envelope.count > limit { throw Failure.tooLarge(limit: limit) }
        }
    }

    /// The elements completed so far, joined by commas (`{...},{...}`: put
    /// `[` `]` around them for a JSON array), with where each one ends
    /// (the next starts one byte later); they are not returned again.
    mutating func takeElements() -> (bytes: [UInt8], ends: [Int]) {
        guard !ends.isEmpty else { return ([], []) }
        let end = completedEnd
        let taken = (Array(output[..<end]), ends)
        // The element being read was joined with a comma: it goes too.
        let cut = inElement && output.count > end ? end + 1 : end
        output.removeSubrange(..<cut)
        elementStart -= cut
        ends.removeAll(keepingCapacity: true)
        return taken
    }

    private mutating func startElement(at index: Int, keptFrom: inout Int) {
        inElement = true
        if !ends.isEmpty { output.append(UInt8(ascii: ",")) }
        elementStart = output.count
        keptFrom = index
    }

    private mutating func finishElement(_ bytes: UnsafeBufferPointer<UInt8>, to end: Int, keptFrom: inout Int) throws {
        try keep(bytes, from: keptFrom, to: end, into: .element)
        inElement = false
        ends.append(output.count)
        keptFrom = end + 1
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }
}
