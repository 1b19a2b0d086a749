import Foundation
import RuntimeSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The queue's front door: an append-only file that takes each new row with
/// one `write(2)`, so `track` costs its caller a few microseconds instead of
/// an SQLite commit. ``EventQueue`` moves the records into SQLite in batches,
/// off the caller's time.
///
/// Format: the 4 bytes `MTJ1`, then records, each
/// `length: UInt32 LE | crc32(body): UInt32 LE | body`, where the body is
/// `sequence: Int64 LE | session length: UInt16 LE (0xFFFF: none) | session
/// UTF-8 | payload`. A record is whole or it is not there: a torn tail (a
/// kill in the middle of a write) fails its length or checksum and is cut off
/// when the journal is opened, before anything is appended after it.
///
/// Durability: once `write(2)` returns, the record is in the operating
/// system's file cache and survives the app being killed or crashing, as a
/// commit in SQLite's WAL mode with `synchronous = NORMAL` does; only a power
/// loss within the next seconds can lose it.
///
/// Import: ``takeBatch()`` renames the live file to `.importing` and starts
/// a new live file; the caller commits the records (each sequence number at
/// most once, by recording the last one it imported in the same transaction)
/// and then calls ``finishBatch()``, which deletes the `.importing` file. A
/// kill anywhere in between leaves the `.importing` file, which the next
/// ``takeBatch()`` returns first.
final class EventJournal: Sendable {
    /// One journal record.
    struct Record: Sendable, Hashable {
        let sequence: Int64
        let sessionID: String?
        let payload: [UInt8]
    }

    /// What reading a journal file found.
    struct Contents: Sendable {
        var records: [Record] = []
        /// Bytes up to the end of the last whole record.
        var validLength = 0
        /// Bytes after it (a torn or damaged tail), ignored.
        var discardedBytes = 0
    }

    enum Failure: Error, CustomStringConvertible {
        case system(operation: String, path: String, code: Int32)

        var description: String {
            switch self {
            case .system(let operation, let path, let code):
                return "\(operation) \(URL(fileURLWithPath: path).lastPathComponent) failed: \(String(cString: strerror(code)))"
            }
        }
    }

    private struct State {
        var descriptor: Int32 = -1
        /// Bytes of the live file (header included).
        var length = 0
        /// Records in the live file.
        var count = 0
        var nextSequence: Int64
        /// Whether a `.importing` file exists (left by a kill, or taken
        /// and not yet finished).
        var batchWaiting = false
    }

    static let magic: [UInt8] = Array("MTJ1".utf8)
    private static let headerSize = 8
    private static let noSession: UInt16 = 0xFFFF

    let livePath: String
    let importingPath: String
    private let state: Locked<State>

    /// Opens (or creates) the journal at `path`: a torn tail of the live file
    /// is cut off, and sequence numbers continue after `importedThrough`
    /// and after every record still in the files.
    init(path: String, importedThrough: Int64) throws {
        livePath = path
        importingPath = path + ".importing"
        var last = importedThrough
        let live = Self.read(path: livePath)
        let importing = Self.read(path: importingPath)
        for record in live.records + importing.records { last = max(last, record.sequence) }
        state = Locked(State(nextSequence: last + 1, batchWaiting: FileManager.default.fileExists(atPath: importingPath)))
        try state.withLock { state in
            try Self.openLive(&state, path: livePath, keepingFirst: live.validLength)
            state.count = live.records.count
        }
    }

    deinit {
        state.withLock { state in
            if state.descriptor >= 0 { close(state.descriptor) }
        }
    }

    /// Whether ``takeBatch()`` has anything to return.
    var hasRecordsToImport: Bool { state.withLock { $0.count > 0 || $0.batchWaiting } }

    /// Appends one record with one `write(2)`; returns the records now
    /// pending in the live file.
    @discardableResult
    func append(sessionID: String?, payload: [UInt8]) throws -> Int {
        try state.withLock { state in
            if state.descriptor < 0 { try Self.openLive(&state, path: livePath, keepingFirst: nil) }
            let record = Self.encode(Record(sequence: state.nextSequence, sessionID: sessionID, payload: payload))
            let written = record.withUnsafeBytes { Self.writeAll(state.descriptor, $0) }
            guard written == record.count else {
                let code = errno
                // Cut a partial record off so the next one is not appended after it.
                _ = ftruncate(state.descriptor, off_t(state.length))
                throw Failure.system(operation: "append to", path: livePath, code: code)
            }
            state.length += record.count
            state.count += 1
            state.nextSequence += 1
            return state.count
        }
    }

    /// The records to import: those of a `.importing` file left by an
    /// unfinished import, or else the live file's (which becomes the
    /// `.importing` file, and a new live file starts). Nil when there is
    /// nothing to import.
    func takeBatch() throws -> [Record]? {
        let rotated = try state.withLock { state -> Bool in
            if state.batchWaiting { return true }
            guard state.count > 0 else { return false }
            guard rename(livePath, importingPath) == 0 else {
                throw Failure.system(operation: "rename", path: livePath, code: errno)
            }
            close(state.descriptor)
            state.descriptor = -1
            state.count = 0
            state.batchWaiting = true
            // A failure here is retried by the next append.
            try? Self.openLive(&state, path: livePath, keepingFirst: nil)
            return true
        }
        return rotated ? Self.read(path: importingPath).records : nil
    }

    /// The batch from ``takeBatch()`` is committed: its file goes.
    func finishBatch() {
        unlink(importingPath)
        state.withLock { $0.batchWaiting = false }
    }

    // MARK: File

    /// Opens `path` for appending. `keepingFirst`: the valid length found by
    /// reading it (the rest is cut off); nil for a file that should be new.
    private static func openLive(_ state: inout State, path: String, keepingFirst validLength: Int?) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Failure.system(operation: "open", path: path, code: errno) }
        var length = validLength ?? 0
        if length < magic.count {
            // New, empty, or not even a whole header: start the file again.
            guard ftruncate(descriptor, 0) == 0, magic.withUnsafeBytes({ writeAll(descriptor, $0) }) == magic.count else {
                let code = errno
                close(descriptor)
                throw Failure.system(operation: "start", path: path, code: code)
            }
            length = magic.count
        } else if ftruncate(descriptor, off_t(length)) != 0 {
            let code = errno
            close(descriptor)
            throw Failure.system(operation: "truncate", path: path, code: code)
        }
        state.descriptor = descriptor
        state.length = length
        state.count = 0
    }

    private static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
        var done = 0
        while done < bytes.count {
            let result = write(descriptor, bytes.baseAddress! + done, bytes.count - done)
            if result < 0 {
                if errno == EINTR { continue }
                return done
            }
            done += result
        }
        return done
    }

    // MARK: Format

    static func encode(_ record: Record) -> [UInt8] {
        let session = record.sessionID.map { Array($0.utf8.prefix(Int(noSession) - 1)) }
        // One buffer: the header's 8 bytes are filled in once the body is there.
        var out = [UInt8](repeating: 0, count: headerSize)
        out.reserveCapacity(headerSize + 10 + (session?.count ?? 0) + record.payload.count)
        append(UInt64(bitPattern: record.sequence), bytes: 8, to: &out)
        append(UInt64(session.map { UInt16($0.count) } ?? noSession), bytes: 2, to: &out)
        if let session { out.append(contentsOf: session) }
        out.append(contentsOf: record.payload)
        let length = UInt64(out.count - headerSize)
        let checksum = UInt64(CRC32.checksum(out[headerSize...]))
        for index in 0..<4 {
            out[index] = UInt8(truncatingIfNeeded: length >> (8 * UInt64(index)))
            out[4 + index] = UInt8(truncatingIfNeeded: checksum >> (8 * UInt64(index)))
        }
        return out
    }

    /// Reads a journal file: its whole records, in order, up to the first
    /// damaged one. A missing file or one without the header has none.
    static func read(path: String) -> Contents {
        guard let data = FileManager.default.contents(atPath: path) else { return Contents() }
        let bytes = [UInt8](data)
        guard bytes.count >= magic.count, Array(bytes[0..<magic.count]) == magic else {
            return Contents(records: [], validLength: 0, discardedBytes: bytes.count)
        }
        var contents = Contents(validLength: magic.count)
        var offset = magic.count
        while offset + headerSize <= bytes.count {
            let length = Int(integer(bytes, at: offset, size: 4))
            let checksum = UInt32(integer(bytes, at: offset + 4, size: 4))
            let start = offset + headerSize
            guard length >= 10, start + length <= bytes.count else { break }
            let body = bytes[start..<start + length]
            guard CRC32.checksum(body) == checksum else { break }
            let sequence = Int64(bitPattern: integer(bytes, at: start, size: 8))
            let sessionLength = UInt16(integer(bytes, at: start + 8, size: 2))
            var payloadStart = start + 10
            var session: String?
            if sessionLength != noSession {
                guard payloadStart + Int(sessionLength) <= start + length else { break }
                session = String(decoding: bytes[payloadStart..<payloadStart + Int(sessionLength)], as: UTF8.self)
                payloadStart += Int(sessionLength)
            }
            contents.records.append(Record(sequence: sequence, sessionID: session, payload: Array(bytes[payloadStart..<start + length])))
            offset = start + length
            contents.validLength = offset
        }
        contents.discardedBytes = bytes.count - contents.validLength
        return contents
    }

    private static func append(_ value: UInt64, bytes: Int, to out: inout [UInt8]) {
        for index in 0..<bytes { out.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(index)))) }
    }

    private static func integer(_ bytes: [UInt8], at offset: Int, size: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in 0..<size { value |= UInt64(bytes[offset + index]) << (8 * UInt64(index)) }
        return value
    }
}

/// CRC-32 (IEEE 802.3, the polynomial of zlib and PNG), for the journal's
/// record checksums.
enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    static func checksum<Bytes: Collection>(_ bytes: Bytes) -> UInt32 where Bytes.Element == UInt8 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }
}
