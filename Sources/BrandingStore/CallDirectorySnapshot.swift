import Foundation

/// The file the Call Directory extension reads: every stored number with its
/// label, strictly ascending by numeric value and without duplicates (CallKit
/// rejects anything else), one `<digits>\t<label>\n` line each.
///
/// Written with a two-phase commit in a folder shared with the extension (an
/// App Group container on iOS): the new snapshot goes to a temporary file,
/// is fsynced and read back to check the order, then the current snapshot
/// becomes `previous` (for ``rollback()``) and the new one takes its name
/// with an atomic rename. A failure at any step leaves the current snapshot
/// as it was.
public struct CallDirectorySnapshot: Sendable {
    /// The folder holding the snapshots.
    public let folder: URL

    /// The snapshot the extension reads.
    public var current: URL { folder.appendingPathComponent("call-directory.snapshot") }
    /// The snapshot before the last export.
    public var previous: URL { folder.appendingPathComponent("call-directory.previous") }
    private var pending: URL { folder.appendingPathComponent("call-directory.pending") }

    /// A snapshot in `folder`.
    public init(folder: URL) {
        self.folder = folder
    }

    /// A snapshot that failed its check before it could replace the current one.
    public struct InvalidSnapshot: Error, Sendable, CustomStringConvertible {
        /// The 1-based line at fault.
        public let line: Int
        /// What is wrong.
        public let reason: String

        /// `invalid Call Directory snapshot at line 12: ...`.
        public var description: String { "invalid Call Directory snapshot at line \(line): \(reason)" }
    }

    /// Writes a new snapshot of `store` and makes it current; returns how
    /// many numbers it holds.
    @discardableResult
    public func export(from store: BrandingStore) throws -> Int {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: pending.path, contents: nil)
        let handle = try FileHandle(forWritingTo: pending)
        var count = 0
        do {
            var buffer = Data()
            buffer.reserveCapacity(1 << 20)
            try store.forEachNumber { number, label in
                buffer.append(contentsOf: String(number).utf8)
                buffer.append(UInt8(ascii: "\t"))
                buffer.append(contentsOf: Self.label(label).utf8)
                buffer.append(UInt8(ascii: "\n"))
                count += 1
                if buffer.count >= 1 << 20 {
                    try handle.write(contentsOf: buffer)
                    buffer.removeAll(keepingCapacity: true)
                }
            }
            try handle.write(contentsOf: buffer)
            try handle.synchronize()
            try handle.close()
            let checked = try Self.validate(pending)
            guard checked == count else { throw InvalidSnapshot(line: checked, reason: "\(checked) lines written back, \(count) expected") }
        } catch {
            try? handle.close()
            try? FileManager.default.removeItem(at: pending)
            throw error
        }
        // Phase two: keep the current snapshot for rollback, then switch.
        if FileManager.default.fileExists(atPath: current.path) {
            if FileManager.default.fileExists(atPath: previous.path) { try FileManager.default.removeItem(at: previous) }
            try FileManager.default.linkItem(at: current, to: previous)
        }
        try Self.rename(pending, to: current)
        try Self.synchronizeFolder(folder)
        return count
    }

    /// Makes the previous snapshot current again.
    public func rollback() throws {
        guard FileManager.default.fileExists(atPath: previous.path) else { return }
        try Self.rename(previous, to: current)
        try Self.synchronizeFolder(folder)
    }

    /// Reads a snapshot and checks every line; returns the number of entries.
    @discardableResult
    public static func validate(_ url: URL) throws -> Int {
        let data = try Data(contentsOf: url)
        var count = 0
        var last: Int64 = 0
        var lineNumber = 0
        for line in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).dropLast() {
            lineNumber += 1
            guard let tab = line.firstIndex(of: UInt8(ascii: "\t")),
                let number = Int64(String(decoding: line[line.startIndex..<tab], as: UTF8.self)), number > 0
            else { throw InvalidSnapshot(line: lineNumber, reason: "expected '<digits>\\t<label>'") }
            guard number > last else {
                throw InvalidSnapshot(line: lineNumber, reason: number == last ? "duplicate number" : "numbers must ascend")
            }
            last = number
            count += 1
        }
        if let final = data.last, final != UInt8(ascii: "\n") {
            throw InvalidSnapshot(line: lineNumber + 1, reason: "the last line is not terminated")
        }
        return count
    }

    /// A label on one line: tabs and line breaks become spaces.
    static func label(_ text: String) -> String {
        String(text.map { $0 == "\t" || $0.isNewline ? " " : $0 })
    }

    private static func rename(_ source: URL, to target: URL) throws {
        guard Foundation.rename(source.path, target.path) == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: target.path, NSUnderlyingErrorKey: POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)])
        }
    }

    private static func synchronizeFolder(_ folder: URL) throws {
        let descriptor = open(folder.path, O_RDONLY)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        fsync(descriptor)
    }
}

/// When to ask iOS to reload the Call Directory extension: only when the
/// snapshot changed since the last reload, and not more often than
/// `minimumInterval` (reloads are expensive and iOS rate-limits them).
public struct CallDirectoryReloadPolicy: Sendable, Hashable {
    /// The shortest time between two reloads.
    public var minimumInterval: TimeInterval
    /// The snapshot's count and modification time at the last reload.
    public private(set) var lastReload: (version: String, at: Date)?

    /// A policy; 15 minutes between reloads by default.
    public init(minimumInterval: TimeInterval = 15 * 60) {
        self.minimumInterval = minimumInterval
    }

    /// Whether to reload now for a snapshot at `version`.
    public func shouldReload(version: String, now: Date) -> Bool {
        guard let lastReload else { return true }
        return lastReload.version != version && now.timeIntervalSince(lastReload.at) >= minimumInterval
    }

    /// Records a reload.
    public mutating func didReload(version: String, at date: Date) {
        lastReload = (version, date)
    }

    /// Equal when interval and last reload are.
    public static func == (lhs: CallDirectoryReloadPolicy, rhs: CallDirectoryReloadPolicy) -> Bool {
        lhs.minimumInterval == rhs.minimumInterval && lhs.lastReload?.version == rhs.lastReload?.version && lhs.lastReload?.at == rhs.lastReload?.at
    }

    /// Hashes the interval and last version.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(minimumInterval)
        hasher.combine(lastReload?.version)
    }
}
