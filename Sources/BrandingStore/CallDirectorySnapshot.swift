import Foundation
import SecureNodeCallDirectory

/// The host's side of the files the Call Directory extension reads
/// (`CallDirectoryFolder`): the snapshot, every stored number with its
/// label, strictly ascending by numeric value and without duplicates
/// (CallKit rejects anything else), one `<digits>\t<label>\n` line each
/// (`CallDirectorySnapshotFormat`); and, when the host knows what iOS
/// holds, the changes from it (`CallDirectoryChangesFormat`).
///
/// Written with a two-phase commit in a folder shared with the extension (an
/// App Group container on iOS): the new snapshot goes to a temporary file,
/// is fsynced and read back to check the order; when the load iOS holds is
/// confirmed (`CallDirectoryLoadState`), a streaming merge of the
/// snapshot iOS holds (``reloaded``) and the new one writes the changes,
/// fsynced and read back too. Then the old changes go, the current
/// snapshot becomes `previous` (for ``rollback()``), the new one takes its
/// name with an atomic rename, and the new changes theirs. A failure at any
/// step leaves the current snapshot as it was; a crash between the renames
/// leaves no changes file, and the next incremental request loads the
/// complete list.
///
/// Around each reload: ``reloadTicket()`` before it, ``didReload(_:)``
/// after a reload iOS reported successful (it confirms the extension's
/// attempt, and keeps the snapshot as ``reloaded``), ``reloadFailed()``
/// after a refused one (what iOS holds becomes unknown, and the snapshot
/// iOS last loaded is put back, so the extension keeps serving what the
/// phone shows).
///
/// The extension links `SecureNodeCallDirectory` only and handles each
/// request with `CallDirectoryLoader`; ``forEachEntry(in:chunkSize:_:)``
/// reads a snapshot the same way: in ascending order, a chunk at a time,
/// never the whole file in memory (a Call Directory extension has a few
/// megabytes).
public struct CallDirectorySnapshot: Sendable {
    /// The folder holding the snapshots.
    public let folder: URL

    private var files: CallDirectoryFolder { CallDirectoryFolder(folder) }

    /// The snapshot the extension reads.
    public var current: URL { files.snapshot }
    /// The snapshot before the last export.
    public var previous: URL { folder.appendingPathComponent("call-directory.previous") }
    /// The snapshot iOS last loaded (see ``didReload(_:)``).
    public var reloaded: URL { folder.appendingPathComponent("call-directory.reloaded") }
    /// The changes from the snapshot iOS holds to the current one, when
    /// the host knows what iOS holds.
    public var changes: URL { files.changes }
    private var pending: URL { folder.appendingPathComponent("call-directory.pending") }
    private var pendingChanges: URL { folder.appendingPathComponent("call-directory.changes-pending") }

    /// A snapshot in `folder`.
    public init(folder: URL) {
        self.folder = folder
    }

    /// A snapshot that failed its check (before it could replace the
    /// current one, or when read).
    public typealias InvalidSnapshot = CallDirectoryFormatError

    /// Writes a new snapshot of `store` and makes it current; returns how
    /// many numbers it holds.
    @discardableResult
    public func export(from store: BrandingStore) throws -> Int {
        try commit { handle in
            var count = 0
            var buffer = Data()
            buffer.reserveCapacity(1 << 20)
            try store.forEachNumber { number, label in
                CallDirectorySnapshotFormat.appendLine(number, label: label, to: &buffer)
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
    /// back and checked, the changes from what iOS holds are prepared,
    /// then both are renamed into place.
    @discardableResult
    private func commit(_ write: (FileHandle) throws -> Int) throws -> Int {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: pending.path, contents: nil)
        let handle = try FileHandle(forWritingTo: pending)
        let count: Int
        let written: CallDirectorySnapshotFormat.Summary
        do {
            count = try write(handle)
            try handle.synchronize()
            try handle.close()
            written = try CallDirectorySnapshotFormat.validate(pending)
            guard written.count == count else {
                throw InvalidSnapshot(line: written.count, reason: "\(written.count) lines written back, \(count) expected")
            }
        } catch {
            try? handle.close()
            try? FileManager.default.removeItem(at: pending)
            throw error
        }
        let changesReady = prepareChanges(to: pending, fingerprint: written.fingerprint)
        // Phase two: the old changes lead to the old snapshot, so they go
        // first; keep the current snapshot for rollback, then switch.
        try removeChanges()
        if FileManager.default.fileExists(atPath: current.path) {
            if FileManager.default.fileExists(atPath: previous.path) { try FileManager.default.removeItem(at: previous) }
            try FileManager.default.linkItem(at: current, to: previous)
        }
        try Self.rename(pending, to: current)
        if changesReady { try Self.rename(pendingChanges, to: changes) }
        try Self.synchronizeFolder(folder)
        return count
    }

    /// Writes the changes from the snapshot iOS holds to `snapshot` into
    /// the pending changes file; false (no changes: the next incremental
    /// request loads the complete list) when what iOS holds is not known,
    /// or the changes cannot be written.
    private func prepareChanges(to snapshot: URL, fingerprint: CallDirectoryFingerprint) -> Bool {
        let state = CallDirectoryLoadState.read(in: files)
        guard let held = state.held(lastAttempt: CallDirectoryAttempt.read(in: files)), FileManager.default.fileExists(atPath: reloaded.path) else {
            return false
        }
        do {
            try CallDirectoryChangesWriter.write(from: reloaded, baseFingerprint: held, to: snapshot, targetFingerprint: fingerprint, into: pendingChanges)
            return true
        } catch {
            return false
        }
    }

    /// Makes the previous snapshot current again.
    public func rollback() throws {
        guard FileManager.default.fileExists(atPath: previous.path) else { return }
        try removeChanges()
        try Self.rename(previous, to: current)
        try Self.synchronizeFolder(folder)
    }

    /// What the host reads just before it asks iOS to reload the
    /// extension: the extension's last attempt then, so that
    /// ``didReload(_:)`` confirms only an attempt made after it.
    public struct ReloadTicket: Sendable, Hashable {
        /// The id of the extension's last attempt before the reload; nil when there was none.
        public let previousAttemptID: String?
    }

    /// The ticket of a reload about to be asked for.
    public func reloadTicket() -> ReloadTicket {
        ReloadTicket(previousAttemptID: CallDirectoryAttempt.read(in: files)?.id)
    }

    /// Records that iOS reported the reload successful: the current
    /// snapshot is kept as ``reloaded``, and, given the `ticket` taken
    /// before the reload, the extension's attempt is confirmed when it
    /// came after the ticket, handed everything and handed the current
    /// snapshot (`CallDirectoryLoadState.confirming(_:previousAttemptID:currentSnapshot:)`);
    /// the next export then prepares the changes from it. Returns whether
    /// it confirmed; when not, what iOS holds is unknown and the next
    /// request loads the complete list.
    @discardableResult
    public func didReload(_ ticket: ReloadTicket? = nil) throws -> Bool {
        guard FileManager.default.fileExists(atPath: current.path) else { return false }
        let attempt = CallDirectoryAttempt.read(in: files)
        let confirmed = ticket.flatMap { ticket in
            // A current snapshot that fails its check was never loaded whole: nothing to confirm.
            (try? CallDirectorySnapshotFormat.validate(current)).flatMap { snapshot in
                CallDirectoryLoadState.confirming(attempt, previousAttemptID: ticket.previousAttemptID, currentSnapshot: snapshot.fingerprint)
            }
        }
        guard let confirmed else {
            try markLoadUnknown()
            try replaceWithLink(reloaded, to: current)
            return false
        }
        // The snapshot first: a crash before the state leaves the old state,
        // whose fingerprint no longer matches `reloaded` (no changes are made from it).
        try replaceWithLink(reloaded, to: current)
        try confirmed.write(in: files)
        // The changes led to what iOS now holds: none left to hand. (Should
        // this write fail, the file left starts from another load: never used.)
        try? CallDirectoryChangesWriter.writeNone(at: confirmed.loaded ?? CallDirectoryFingerprint(), into: changes)
        return true
    }

    /// Records that what iOS holds is not known (a refused reload): the
    /// next request, incremental or not, loads the complete list.
    public func markLoadUnknown() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try CallDirectoryLoadState.unknown.write(in: files)
    }

    /// After a reload iOS refused: what iOS holds becomes unknown, then the
    /// snapshot iOS last loaded is put back as the current one
    /// (``rollbackToLastReload()``); returns whether there was one.
    @discardableResult
    public func reloadFailed() throws -> Bool {
        let marked = Result { try markLoadUnknown() }
        let restored = try rollbackToLastReload()
        try marked.get()
        return restored
    }

    /// Puts the snapshot iOS last loaded back as the current one, after a
    /// reload failed; returns false (changing nothing) when no reload ever
    /// succeeded.
    @discardableResult
    public func rollbackToLastReload() throws -> Bool {
        guard FileManager.default.fileExists(atPath: reloaded.path) else { return false }
        try removeChanges()
        try replaceWithLink(current, to: reloaded)
        return true
    }

    /// Removes the changes file, if any.
    private func removeChanges() throws {
        guard FileManager.default.fileExists(atPath: changes.path) else { return }
        try FileManager.default.removeItem(at: changes)
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
        try CallDirectorySnapshotFormat.validate(url).count
    }

    /// Calls `body` with each entry of the snapshot at `url` (the current
    /// one by default, for the extension), in ascending order, reading the
    /// file a chunk at a time: memory holds one chunk, not the snapshot.
    /// Throws ``InvalidSnapshot`` at the first line out of order or out of
    /// shape (the entries before it have been delivered).
    ///
    /// ```swift
    /// try CallDirectorySnapshot.forEachEntry(in: snapshot.current) { number, label in
    ///     print(number, label)
    /// }
    /// ```
    public static func forEachEntry(in url: URL, chunkSize: Int = 64 << 10, _ body: (Int64, String) throws -> Void) throws {
        try CallDirectorySnapshotFormat.forEachEntry(in: url, chunkSize: chunkSize, body)
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
