import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a ``LookupFile`` from entries in any order: entries stream to disk
/// through a buffer as they come, and only the (number, offset) pairs stay
/// in memory (16 bytes per entry) until `finish` sorts them into the index.
final class LookupFileWriter {
    /// Why a file could not be written.
    enum Failure: Error, CustomStringConvertible {
        /// A system call failed.
        case system(String, path: String, errno: Int32)
        /// The same number was written twice.
        case duplicateNumber(Int64)
        /// A field is longer than a lookup entry can hold.
        case fieldTooLong(Int)

        var description: String {
            switch self {
            case .system(let call, let path, let code): return "\(call) \(path) failed: \(String(cString: strerror(code)))"
            case .duplicateNumber: return "the same number was written twice"
            case .fieldTooLong(let length): return "a field of \(length) bytes does not fit a lookup entry"
            }
        }
    }

    let path: String
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private var written = 0
    private var index: [(number: Int64, offset: UInt64)] = []
    private let generation: UInt64
    private let baseGeneration: UInt64
    private var finished = false

    /// Creates (truncates) the file at `path`.
    init(path: String, generation: UInt64, baseGeneration: UInt64 = 0) throws {
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw Failure.system("open", path: path, errno: errno) }
        self.path = path
        self.generation = generation
        self.baseGeneration = baseGeneration
        buffer.reserveCapacity(1 << 20)
        buffer.append(contentsOf: repeatElement(0, count: LookupFile.headerSize))
    }

    deinit {
        if !finished { close(descriptor) }
    }

    /// Reserves room for `count` index pairs.
    func reserve(_ count: Int) { index.reserveCapacity(count) }

    /// Appends a number's entry; a field too long for an entry throws
    /// before anything is written, so the file stays whole.
    func append(_ number: Int64, _ entry: LookupFile.Entry) throws {
        if case .record(let record) = entry {
            // Field by field, not through an array: this runs a million times a sync.
            func check(_ field: String?) throws {
                guard let length = field?.utf8.count, length >= Int(LookupFile.absent) else { return }
                throw Failure.fieldTooLong(length)
            }
            try check(record.e164)
            try check(record.brandName)
            try check(record.brandID)
            try check(record.logoURL)
            try check(record.callReason)
            try check(record.updatedAt)
        }
        index.append((number, UInt64(written + buffer.count)))
        switch entry {
        case .removed:
            buffer.append(0)
        case .record(let record):
            buffer.append(1)
            try appendField(record.e164)
            try appendField(record.brandName)
            try appendField(record.brandID)
            try appendField(record.logoURL)
            try appendField(record.callReason)
            try appendField(record.updatedAt)
        }
        if buffer.count >= 1 << 20 { try flush() }
    }

    private func appendField(_ text: String?) throws {
        guard let text else {
            buffer.append(UInt8(truncatingIfNeeded: LookupFile.absent))
            buffer.append(UInt8(truncatingIfNeeded: LookupFile.absent >> 8))
            return
        }
        let length = text.utf8.count
        guard length < Int(LookupFile.absent) else { throw Failure.fieldTooLong(length) }
        buffer.append(UInt8(truncatingIfNeeded: length))
        buffer.append(UInt8(truncatingIfNeeded: length >> 8))
        buffer.append(contentsOf: text.utf8)
    }

    private func flush() throws {
        try buffer.withUnsafeBytes { raw in
            var start = 0
            while start < raw.count {
                let result = systemWrite(descriptor, raw.baseAddress! + start, raw.count - start)
                guard result > 0 else {
                    if result < 0, errno == EINTR { continue }
                    throw Failure.system("write", path: path, errno: errno)
                }
                start += result
            }
        }
        written += buffer.count
        buffer.removeAll(keepingCapacity: true)
    }

    /// Sorts the index (refusing a number written twice), writes it and the
    /// header, fsyncs and closes. The file is complete on disk when this returns.
    func finish() throws {
        index.sort { $0.number < $1.number }
        for position in index.indices.dropFirst() where index[position].number == index[position - 1].number {
            throw Failure.duplicateNumber(index[position].number)
        }
        while (written + buffer.count) % 8 != 0 { buffer.append(0) }
        let indexOffset = written + buffer.count
        func appendWord(_ value: UInt64) { withUnsafeBytes(of: value) { buffer.append(contentsOf: $0) } }
        for pair in index {
            appendWord(UInt64(bitPattern: pair.number))
            if buffer.count >= 1 << 20 { try flush() }
        }
        for pair in index {
            appendWord(pair.offset)
            if buffer.count >= 1 << 20 { try flush() }
        }
        try flush()
        var header: [UInt8] = LookupFile.magic
        withUnsafeBytes(of: LookupFile.version) { header.append(contentsOf: $0) }
        withUnsafeBytes(of: UInt32(0)) { header.append(contentsOf: $0) }
        for word in [generation, baseGeneration, UInt64(index.count), UInt64(indexOffset)] {
            withUnsafeBytes(of: word) { header.append(contentsOf: $0) }
        }
        let wroteHeader = header.withUnsafeBytes { pwrite(descriptor, $0.baseAddress!, $0.count, 0) }
        guard wroteHeader == header.count else { throw Failure.system("pwrite", path: path, errno: errno) }
        guard fsync(descriptor) == 0 else { throw Failure.system("fsync", path: path, errno: errno) }
        finished = true
        close(descriptor)
    }
}

/// `write(2)` under a name that does not clash with the writer's methods.
@inline(__always)
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
