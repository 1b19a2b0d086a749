/// Cuts a JSON Lines body (`application/jsonl`, `application/x-ndjson`:
/// one JSON text a line, LF or CR LF) or a JSON Text Sequence
/// (`application/json-seq`, RFC 7464: each text after an RS byte, 0x1E)
/// into its records, in pieces cut anywhere. Blank lines and empty records
/// are skipped; memory holds the records not yet taken and at most one
/// incomplete one, which may have up to `limit` bytes.
struct RecordSplitter: Sendable {
    /// How records are separated.
    enum Framing: Sendable {
        /// One record a line.
        case lines
        /// Each record after an RS byte (RFC 7464).
        case sequence
    }

    private let framing: Framing
    private let limit: Int
    private var buffer: [UInt8] = []
    /// Where the next record starts in `buffer`.
    private var start = 0
    /// Where the search for the next separator goes on.
    private var scanned = 0

    init(framing: Framing, limit: Int) {
        self.framing = framing
        self.limit = Swift.max(1, limit)
    }

    /// Adds the next piece of the body.
    mutating func append(_ bytes: some Sequence<UInt8>) {
        if start > 0, start >= buffer.count / 2 {
            buffer.removeSubrange(0..<start)
            scanned -= start
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next complete record, its surrounding whitespace trimmed; nil
    /// when the rest is incomplete. Throws when the incomplete rest passes
    /// the limit.
    mutating func next() throws -> ArraySlice<UInt8>? {
        let separator: UInt8 = framing == .lines ? 0x0A : 0x1E
        while true {
            guard let end = buffer[scanned...].firstIndex(of: separator) else {
                scanned = buffer.count
                if buffer.count - start > limit { throw EventStreamParser.Failure.eventTooLarge(limit: limit) }
                return nil
            }
            let record = Self.trimmed(buffer[start..<end])
            start = end + 1
            scanned = start
            if !record.isEmpty { return record }
        }
    }

    /// The body has ended: the last record when it was not followed by a
    /// separator (a last line without its LF; a sequence's last record).
    mutating func finish() -> ArraySlice<UInt8>? {
        let record = Self.trimmed(buffer[start...])
        buffer.removeAll()
        start = 0
        scanned = 0
        return record.isEmpty ? nil : record
    }

    /// JSON's whitespace (space, tab, CR, LF) off both ends.
    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var lower = bytes.startIndex
        var upper = bytes.endIndex
        while lower < upper, isWhitespace(bytes[lower]) { lower += 1 }
        while upper > lower, isWhitespace(bytes[upper - 1]) { upper -= 1 }
        return bytes[lower..<upper]
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
