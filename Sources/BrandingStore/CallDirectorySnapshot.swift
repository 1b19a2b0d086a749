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
/// as it was. The snapshot iOS last loaded is kept as `reloaded`
/// (``didReload()``), so a reload that fails can put it back
/// (``rollbackToLastReload()``) and the extension keeps serving what the
/// phone shows.
///
/// The extension reads the snapshot with ``forEachEntry(in:_:)``: in
/// ascending order, a chunk at a time, never the whole file in memory (a
/// Call Directory extension has a few megabytes).
public struct CallDirectorySnapshot: Sendable {
    /// The folder holding the snapshots.
    public let folder: URL

    /// The snapshot the extension reads.
    public var current: URL { folder.appendingPathComponent("call-directory.snapshot") }
    /// The snapshot before the last export.
    public var previous: URL { folder.appendingPathComponent("call-directory.previous") }
    /// The snapshot iOS last loaded (see ``didReload()``).
    public var reloaded: URL { folder.appendingPathComponent("call-directory.reloaded") }
    private var pending: URL { folder.appendingPathComponent("call-directory.pending") }

    /// A snapshot in `folder`.
    public init(folder: URL) {
        self.folder = folder
    }

    /// A snapshot that failed its check before it could replace the current one.
    public struct InvalidSnapshot: Error, Sendable, Hashable, CustomStringConvertible {
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
        try commit { handle in
            var count = 0
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
            return count
        }
    }

    /// Makes an empty snapshot current (branding turned off: the phone
    /// must stop showing labels once iOS reloads the extension), keeping
    /// the one it replaces for ``rollback()`` like any export.
    public func exportEmpty() throws {
        try commit { _ in 0 }
    }

    /// The two-phase commit of an export: `write` fills the pending file
    /// and returns how many entries it wrote; the file is fsynced, read
    /// back and checked, then renamed over the current snapshot.
    @discardableResult
    private func commit(_ write: (FileHandle) throws -> Int) throws -> Int {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: pending.path, contents: nil)
        let handle = try FileHandle(forWritingTo: pending)
        let count: Int
        do {
            count = try write(handle)
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

    /// Records that iOS loaded the current snapshot (the extension reload
    /// succeeded): it is kept as ``reloaded``.
    public func didReload() throws {
        guard FileManager.default.fileExists(atPath: current.path) else { return }
        try replaceWithLink(reloaded, to: current)
    }

    /// Puts the snapshot iOS last loaded back as the current one, after a
    /// reload failed; returns false (changing nothing) when no reload ever
    /// succeeded.
    @discardableResult
    public func rollbackToLastReload() throws -> Bool {
        guard FileManager.default.fileExists(atPath: reloaded.path) else { return false }
        try replaceWithLink(current, to: reloaded)
        return true
    }

    /// Makes `target` another name of `source`'s file, atomically (a link
    /// under a temporary name, then a rename over `target`).
    private func replaceWithLink(_ target: URL, to source: URL) throws {
        let temporary = folder.appendingPathComponent("call-directory.link-" + UUID().uuidString)
        try FileManager.default.linkItem(at: source, to: temporary)
        do {
            try Self.rename(temporary, to: target)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
        try Self.synchronizeFolder(folder)
    }

    /// Reads a snapshot and checks every line; returns the number of entries.
    @discardableResult
    public static func validate(_ url: URL) throws -> Int {
        var count = 0
        try forEachEntry(in: url) { _, _ in count += 1 }
        return count
    }

    /// Calls `body` with each entry of the snapshot at `url` (the current
    /// one by default, for the extension), in ascending order, reading the
    /// file a chunk at a time: memory holds one chunk, not the snapshot.
    /// Throws ``InvalidSnapshot`` at the first line out of order or out of
    /// shape (the entries before it have been delivered).
    ///
    /// ```swift
    /// // In the Call Directory extension:
    /// try CallDirectorySnapshot.forEachEntry(in: snapshot.current) { number, label in
    ///     context.addIdentificationEntry(withNextSequentialPhoneNumber: number, label: label)
    /// }
    /// ```
    public static func forEachEntry(in url: URL, chunkSize: Int = 64 << 10, _ body: (Int64, String) throws -> Void) throws {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        var carry: [UInt8] = []
        var last: Int64 = 0
        var lineNumber = 0
        func entry(_ line: ArraySlice<UInt8>) throws {
            lineNumber += 1
            guard let tab = line.firstIndex(of: UInt8(ascii: "\t")), let number = parseNumber(line[line.startIndex..<tab]) else {
                throw InvalidSnapshot(line: lineNumber, reason: "expected '<digits>\\t<label>'")
            }
            guard number > last else {
                throw InvalidSnapshot(line: lineNumber, reason: number == last ? "duplicate number" : "numbers must ascend")
            }
            last = number
            try body(number, String(decoding: line[(tab + 1)...], as: UTF8.self))
        }
        while let chunk = try handle.read(upToCount: chunkSize), !chunk.isEmpty {
            carry.append(contentsOf: chunk)
            var start = carry.startIndex
            while let newline = carry[start...].firstIndex(of: UInt8(ascii: "\n")) {
                try entry(carry[start..<newline])
                start = newline + 1
            }
            carry.removeSubrange(..<start)
        }
        if !carry.isEmpty { throw InvalidSnapshot(line: lineNumber + 1, reason: "the last line is not terminated") }
    }

    /// A positive number of at most 15 digits (E.164 without the `+`).
    private static func parseNumber(_ digits: ArraySlice<UInt8>) -> Int64? {
        guard !digits.isEmpty, digits.count <= 15 else { return nil }
        var value: Int64 = 0
        for byte in digits {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int64(byte - UInt8(ascii: "0"))
        }
        return value > 0 ? value : nil
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

    /// A policy; 15 minutes between reloads by default; `lastReload` is the
    /// reload an earlier launch recorded, if any.
    public init(minimumInterval: TimeInterval = 15 * 60, lastReload: (version: String, at: Date)? = nil) {
        self.minimumInterval = minimumInterval
        self.lastReload = lastReload
    }

    /// Whether to reload now for a snapshot at `version`; `immediately`
    /// skips the minimum interval (branding switched off or back on: the
    /// phone must not keep showing, or keep hiding, labels for 15 minutes).
    public func shouldReload(version: String, now: Date, immediately: Bool = false) -> Bool {
        guard let lastReload else { return true }
        return lastReload.version != version && (immediately || now.timeIntervalSince(lastReload.at) >= minimumInterval)
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
