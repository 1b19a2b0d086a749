import Foundation

/// Bytes to a new file through a 1 MB buffer: memory holds the buffer,
/// not what is written.
final class CallDirectoryFileWriter {
    private let handle: FileHandle
    private var buffer = Data()
    private static let flushSize = 1 << 20

    /// Creates (or empties) the file at `url`.
    init(url: URL) throws {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
        handle = try FileHandle(forWritingTo: url)
        buffer.reserveCapacity(Self.flushSize)
    }

    deinit {
        try? handle.close()
    }

    /// Appends `bytes`.
    func write(_ bytes: some Sequence<UInt8>) throws {
        buffer.append(contentsOf: bytes)
        if buffer.count >= Self.flushSize { try flush() }
    }

    /// Appends one byte.
    func write(byte: UInt8) throws {
        buffer.append(byte)
        if buffer.count >= Self.flushSize { try flush() }
    }

    /// Appends the decimal digits of `number`.
    func write(number: CallDirectoryPhoneNumber) throws {
        CallDirectoryDigits.append(number, to: &buffer)
    }

    /// Appends the file at `url`, a chunk at a time.
    func append(contentsOf url: URL) throws {
        try flush()
        let source = try FileHandle(forReadingFrom: url)
        defer { try? source.close() }
        while let chunk = try source.read(upToCount: Self.flushSize), !chunk.isEmpty {
            try handle.write(contentsOf: chunk)
        }
    }

    /// Writes what is buffered, fsyncs and closes the file.
    func finish() throws {
        try flush()
        try handle.synchronize()
        try handle.close()
    }

    private func flush() throws {
        guard !buffer.isEmpty else { return }
        try handle.write(contentsOf: buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}
