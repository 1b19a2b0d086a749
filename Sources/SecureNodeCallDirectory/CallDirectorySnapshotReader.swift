import Foundation

/// The entries of a snapshot file in order, each checked as it is read
/// (digits, strictly ascending, so no duplicate): the first bad line
/// throws before its entry is handed out.
final class CallDirectorySnapshotReader {
    /// One line of the snapshot; `label` is valid until the next ``next()``.
    struct Entry {
        /// The number.
        let number: CallDirectoryPhoneNumber
        /// The label's UTF-8 bytes.
        let label: ArraySlice<UInt8>
    }

    private let lines: CallDirectoryLineReader
    private var last: CallDirectoryPhoneNumber = 0
    /// Entries read so far.
    private(set) var count = 0

    /// The fingerprint of the bytes read so far: the file's once ``next()`` returned nil.
    var fingerprint: CallDirectoryFingerprint { lines.fingerprint }

    /// Opens the snapshot at `url`.
    init(url: URL, chunkSize: Int = CallDirectorySnapshotFormat.defaultChunkSize) throws {
        lines = try CallDirectoryLineReader(url: url, file: .snapshot, chunkSize: chunkSize)
    }

    /// The next entry, nil at the end; throws ``CallDirectoryFormatError`` at a bad line.
    func next() throws -> Entry? {
        guard let line = try lines.nextLine() else { return nil }
        guard let tab = line.firstIndex(of: UInt8(ascii: "\t")), let number = CallDirectoryDigits.number(line[line.startIndex..<tab]) else {
            throw CallDirectoryFormatError(file: .snapshot, line: lines.lineNumber, reason: "expected '<digits>\\t<label>'")
        }
        guard number > last else {
            throw CallDirectoryFormatError(file: .snapshot, line: lines.lineNumber, reason: number == last ? "duplicate number" : "numbers must ascend")
        }
        last = number
        count += 1
        return Entry(number: number, label: line[(tab + 1)...])
    }
}
