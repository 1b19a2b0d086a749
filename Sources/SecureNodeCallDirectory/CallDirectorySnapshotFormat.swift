import Foundation

/// The snapshot file: the complete list the extension hands iOS when it
/// cannot hand only the changes. One `<digits>\t<label>\n` line per
/// number, strictly ascending by numeric value, no duplicates (CallKit
/// rejects anything else); the host writes it, the extension only reads it.
public enum CallDirectorySnapshotFormat {
    /// How much of a file a reader holds at a time (64 KB).
    public static let defaultChunkSize = 64 << 10

    /// What reading a whole snapshot found.
    public struct Summary: Sendable, Hashable {
        /// How many entries it holds.
        public let count: Int
        /// The fingerprint of its bytes.
        public let fingerprint: CallDirectoryFingerprint

        /// A summary of `count` entries with `fingerprint`.
        public init(count: Int, fingerprint: CallDirectoryFingerprint) {
            self.count = count
            self.fingerprint = fingerprint
        }
    }

    /// Appends the line of `number` with `label` to `buffer`; the label's
    /// tabs and line breaks become spaces. The caller keeps the numbers
    /// ascending.
    public static func appendLine(_ number: CallDirectoryPhoneNumber, label: String, to buffer: inout Data) {
        CallDirectoryDigits.append(number, to: &buffer)
        buffer.append(UInt8(ascii: "\t"))
        buffer.append(contentsOf: sanitizedLabel(label).utf8)
        buffer.append(UInt8(ascii: "\n"))
    }

    /// `text` on one line: tabs and line breaks become spaces.
    public static func sanitizedLabel(_ text: String) -> String {
        // Printable ASCII, the usual case, needs no change.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text }
        return String(text.map { $0 == "\t" || $0.isNewline ? " " : $0 })
    }

    /// Calls `body` with each entry of the snapshot at `url`, in ascending
    /// order, reading the file a chunk at a time (memory holds one chunk,
    /// not the snapshot). Throws ``CallDirectoryFormatError`` at the first
    /// line out of order or out of shape; the entries before it have been
    /// delivered.
    @discardableResult
    public static func forEachEntry(
        in url: URL, chunkSize: Int = defaultChunkSize, _ body: (CallDirectoryPhoneNumber, String) throws -> Void
    ) throws -> Summary {
        let reader = try CallDirectorySnapshotReader(url: url, chunkSize: chunkSize)
        while let entry = try reader.next() {
            try body(entry.number, String(decoding: entry.label, as: UTF8.self))
        }
        return Summary(count: reader.count, fingerprint: reader.fingerprint)
    }

    /// Reads the snapshot at `url`, checking every line, without making a
    /// label of any: its count and fingerprint.
    public static func validate(_ url: URL, chunkSize: Int = defaultChunkSize) throws -> Summary {
        let reader = try CallDirectorySnapshotReader(url: url, chunkSize: chunkSize)
        while try reader.next() != nil {}
        return Summary(count: reader.count, fingerprint: reader.fingerprint)
    }
}
