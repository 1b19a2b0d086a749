import Foundation

/// A shared file's lines, read a chunk at a time: memory holds one chunk
/// and the line being read, never the file. Every byte read goes into
/// ``fingerprint``, so a reader that reached the end knows the file's.
final class CallDirectoryLineReader {
    private let handle: FileHandle
    private let chunkSize: Int
    private let file: CallDirectoryFormatError.File
    private var buffer: [UInt8] = []
    /// Where the next line starts in `buffer`.
    private var start = 0
    /// `buffer[start..<scanned]` holds no line break.
    private var scanned = 0
    private var reachedEnd = false
    /// Lines handed out so far.
    private(set) var lineNumber = 0
    /// The fingerprint of every byte read so far.
    private(set) var fingerprint = CallDirectoryFingerprint()

    /// Opens `url`, a file of kind `file` (named in errors).
    init(url: URL, file: CallDirectoryFormatError.File, chunkSize: Int) throws {
        handle = try FileHandle(forReadingFrom: url)
        self.file = file
        self.chunkSize = max(1, chunkSize)
    }

    deinit {
        try? handle.close()
    }

    /// The next line without its `\n`, valid until the next call; nil at
    /// the end of the file. Throws ``CallDirectoryFormatError`` when the
    /// file ends inside a line (a line without its `\n`).
    func nextLine() throws -> ArraySlice<UInt8>? {
        while true {
            if let newline = nextLineBreak() {
                let line = buffer[start..<newline]
                start = newline + 1
                scanned = start
                lineNumber += 1
                return line
            }
            scanned = buffer.count
            if reachedEnd {
                guard start == buffer.count else {
                    throw CallDirectoryFormatError(file: file, line: lineNumber + 1, reason: "the last line is not terminated")
                }
                return nil
            }
            try readChunk()
        }
    }

    /// The index of the first `\n` at or after `scanned`.
    private func nextLineBreak() -> Int? {
        guard scanned < buffer.count else { return nil }
        return buffer.withUnsafeBufferPointer { bytes -> Int? in
            guard let base = bytes.baseAddress, let found = memchr(base + scanned, Int32(UInt8(ascii: "\n")), bytes.count - scanned) else {
                return nil
            }
            return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
        }
    }

    /// Drops the lines already handed out and appends the next chunk.
    private func readChunk() throws {
        if start > 0 {
            buffer.removeSubrange(..<start)
            scanned -= start
            start = 0
        }
        guard let chunk = try handle.read(upToCount: chunkSize), !chunk.isEmpty else {
            reachedEnd = true
            return
        }
        chunk.withUnsafeBytes { fingerprint.combine($0) }
        buffer.append(contentsOf: chunk)
    }
}
