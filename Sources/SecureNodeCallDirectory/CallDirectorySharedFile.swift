import Foundation

/// How both processes write the files they share so that a crash at any
/// point leaves either the old file or the new one, never a torn one: a
/// temporary file of a name no other writer uses, fsynced, renamed over
/// the target, then the folder fsynced (the rename is durable).
enum CallDirectorySharedFile {
    /// Writes `text` to `url` atomically and durably.
    static func write(_ text: String, to url: URL) throws {
        let temporary = url.deletingLastPathComponent().appendingPathComponent(url.lastPathComponent + ".tmp-" + UUID().uuidString)
        do {
            try writeDurably(Array(text.utf8), to: temporary)
            try rename(temporary, to: url)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
        synchronizeFolder(of: url)
    }

    /// Creates the file at `url` holding `bytes`, fsynced.
    private static func writeDurably(_ bytes: [UInt8], to url: URL) throws {
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw failure(url) }
        defer { close(descriptor) }
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { throw failure(url) }
            written += count
        }
        guard fsync(descriptor) == 0 else { throw failure(url) }
    }

    /// The lines of a small shared file whose first line is `magic` and
    /// `version`, each later line `key value`, as a dictionary; nil when
    /// the file is missing or not of that kind and version.
    static func readFields(_ url: URL, magic: String, version: Int) -> [String: String]? {
        guard let data = try? Data(contentsOf: url), data.count < 4096 else { return nil }
        var lines = String(decoding: data, as: UTF8.self).split(separator: "\n")
        guard !lines.isEmpty, lines.removeFirst() == "\(magic) \(version)" else { return nil }
        var fields: [String: String] = [:]
        for line in lines {
            guard let space = line.firstIndex(of: " ") else { return nil }
            fields[String(line[..<space])] = String(line[line.index(after: space)...])
        }
        return fields
    }

    /// The text of a small shared file: `magic` and `version`, then one
    /// `key value` line per field, in the order given.
    static func text(magic: String, version: Int, fields: KeyValuePairs<String, String>) -> String {
        "\(magic) \(version)\n" + fields.map { "\($0.key) \($0.value)\n" }.joined()
    }

    /// `rename(2)`: atomic within a folder, replacing `target`.
    static func rename(_ source: URL, to target: URL) throws {
        guard Foundation.rename(source.path, target.path) == 0 else { throw failure(target) }
    }

    /// The error `errno` names, about `url`.
    private static func failure(_ url: URL) -> CocoaError {
        CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path, NSUnderlyingErrorKey: POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)])
    }

    /// Makes the renames in the folder of `url` durable.
    static func synchronizeFolder(of url: URL) {
        let descriptor = open(url.deletingLastPathComponent().path, O_RDONLY)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        fsync(descriptor)
    }
}
