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

    /// Appends the line of `number` with `label` to `buffer`, the label as
    /// ``sanitizedLabel(_:)`` shows it. The caller keeps the numbers
    /// ascending.
    public static func appendLine(_ number: CallDirectoryPhoneNumber, label: String, to buffer: inout Data) {
        CallDirectoryDigits.append(number, to: &buffer)
        buffer.append(UInt8(ascii: "\t"))
        buffer.append(contentsOf: sanitizedLabel(label).utf8)
        buffer.append(UInt8(ascii: "\n"))
    }

    /// `text` as a label on the call screen may show it, on one line and
    /// showing what it says: control and format characters (Unicode Cc and
    /// Cf: a bidi override or isolate, a zero-width space or joiner, a
    /// byte-order mark, a soft hyphen) are removed, and a tab or line break
    /// becomes a space. The branding store cleans brand names and call
    /// reasons this way when it takes a record in, so its lookups, this
    /// file and a contact show the same text. Printable ASCII, almost every
    /// label, comes back as it is, uncopied.
    public static func sanitizedLabel(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .control:
                if scalar == "\t" || scalar == "\n" || scalar == "\r" || scalar == "\u{0B}" || scalar == "\u{0C}" || scalar == "\u{85}" {
                    scalars.append(" ")
                }
            case .format:
                continue
            default:
                // A line or paragraph separator (Zl, Zp) breaks the line too.
                scalars.append(scalar == "\u{2028}" || scalar == "\u{2029}" ? " " : scalar)
            }
        }
        return String(scalars)
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
