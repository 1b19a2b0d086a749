import Foundation

/// The changes of a changes file in order (``CallDirectoryChangesFormat``),
/// each checked as it is read: the first bad line throws before its change
/// is handed out, and the end is reached only through a last line whose
/// counts match.
final class CallDirectoryChangesReader {
    /// One change; an addition's `label` is valid until the next ``next()``.
    enum Change {
        /// The number leaves the directory.
        case removal(CallDirectoryPhoneNumber)
        /// The number joins it with `label` (UTF-8 bytes).
        case addition(CallDirectoryPhoneNumber, label: ArraySlice<UInt8>)
    }

    /// The snapshot the changes start from.
    let base: CallDirectoryFingerprint
    /// The snapshot they lead to.
    let target: CallDirectoryFingerprint
    /// Removals read so far.
    private(set) var removals = 0
    /// Additions read so far.
    private(set) var additions = 0

    private let lines: CallDirectoryLineReader
    private var lastRemoval: CallDirectoryPhoneNumber = 0
    private var lastAddition: CallDirectoryPhoneNumber = 0
    private var ended = false

    /// Opens the changes file at `url` and reads its first line; throws
    /// ``CallDirectoryFormatError`` when it is not the header.
    init(url: URL, chunkSize: Int = CallDirectorySnapshotFormat.defaultChunkSize) throws {
        lines = try CallDirectoryLineReader(url: url, file: .changes, chunkSize: chunkSize)
        guard let line = try lines.nextLine(), let header = CallDirectoryChangesFormat.parseHeader(line) else {
            throw CallDirectoryFormatError(
                file: .changes, line: 1, reason: "expected '\(CallDirectoryChangesFormat.magic) \(CallDirectoryChangesFormat.version) <base> <target>'")
        }
        (base, target) = header
    }

    /// The next change, nil once the last line was read and checked;
    /// throws ``CallDirectoryFormatError`` at a bad line.
    func next() throws -> Change? {
        guard !ended else { return nil }
        guard let line = try lines.nextLine() else {
            throw failure(at: lines.lineNumber + 1, "the file ends before its last line 'end <removals> <additions>'")
        }
        switch line.first {
        case UInt8(ascii: "-"):
            guard additions == 0 else { throw failure("a removal after the additions") }
            guard let number = CallDirectoryDigits.number(line.dropFirst()) else { throw failure("expected '-<digits>'") }
            guard number > lastRemoval else { throw failure(number == lastRemoval ? "duplicate removal" : "removals must ascend") }
            lastRemoval = number
            removals += 1
            return .removal(number)
        case UInt8(ascii: "+"):
            guard let tab = line.firstIndex(of: UInt8(ascii: "\t")), let number = CallDirectoryDigits.number(line[(line.startIndex + 1)..<tab]) else {
                throw failure("expected '+<digits>\\t<label>'")
            }
            guard number > lastAddition else { throw failure(number == lastAddition ? "duplicate addition" : "additions must ascend") }
            lastAddition = number
            additions += 1
            return .addition(number, label: line[(tab + 1)...])
        default:
            guard let counts = CallDirectoryChangesFormat.parseTrailer(line) else {
                throw failure("expected '-<digits>', '+<digits>\\t<label>' or 'end <removals> <additions>'")
            }
            guard counts == (removals, additions) else {
                throw failure("the file holds \(removals) removals and \(additions) additions, its last line says \(counts.removals) and \(counts.additions)")
            }
            guard try lines.nextLine() == nil else { throw failure("a line after the last line") }
            ended = true
            return nil
        }
    }

    private func failure(at line: Int? = nil, _ reason: String) -> CallDirectoryFormatError {
        CallDirectoryFormatError(file: .changes, line: line ?? lines.lineNumber, reason: reason)
    }
}
