import Foundation

/// The whole of a Call Directory extension request, in one call:
/// ``handleRequest(_:in:chunkSize:)``.
///
/// Which list iOS gets:
///
/// | request | what iOS holds | handed |
/// | --- | --- | --- |
/// | not incremental | nothing | the complete list (``CallDirectoryLoadMode/complete``) |
/// | incremental | known: the confirmed load, no request since, a changes file starting from it | the changes (``CallDirectoryLoadMode/incremental``) |
/// | incremental | not known | remove all, then the complete list (``CallDirectoryLoadMode/reset``) |
///
/// Files are read a chunk at a time and every line is checked before it
/// is handed; the first bad line cancels the request, so iOS discards
/// everything handed in it and keeps what it held. A missing snapshot is
/// an empty list (the host has not exported yet).
public enum CallDirectoryLoader {
    /// Handles one request of the extension whose shared files are in
    /// `folder` (``CallDirectoryFolder``): records the attempt, hands iOS
    /// the changes or the complete list through `context`, and completes
    /// the request, or cancels it at the first line that fails its check.
    /// Returns what it did; never throws (every outcome ends the request).
    ///
    /// ```swift
    /// override func beginRequest(with context: CXCallDirectoryExtensionContext) {
    ///     CallDirectoryLoader.handleRequest(context, in: folder)
    /// }
    /// ```
    @discardableResult
    public static func handleRequest(
        _ context: some CallDirectoryContext, in folder: URL, chunkSize: Int = CallDirectorySnapshotFormat.defaultChunkSize
    ) -> CallDirectoryLoadReport {
        let files = CallDirectoryFolder(folder)
        let plan = plan(incremental: context.isIncremental, files: files, chunkSize: chunkSize)
        var attempt = CallDirectoryAttempt(id: UUID().uuidString, mode: plan.mode, outcome: .loading)
        var counts = (removed: 0, added: 0)
        do {
            do {
                try attempt.write(in: files)
            } catch {
                throw CallDirectoryLoadError.unrecordedAttempt(reason: "\(error)")
            }
            let fingerprint: CallDirectoryFingerprint
            switch plan {
            case .complete:
                fingerprint = try handSnapshot(files.snapshot, to: context, chunkSize: chunkSize, added: &counts.added)
            case .reset:
                context.removeAllEntries()
                fingerprint = try handSnapshot(files.snapshot, to: context, chunkSize: chunkSize, added: &counts.added)
            case .incremental(let changes):
                fingerprint = try handChanges(changes, to: context, counts: &counts)
            }
            attempt.outcome = .completing
            attempt.fingerprint = fingerprint
            do {
                try attempt.write(in: files)
            } catch {
                throw CallDirectoryLoadError.unrecordedAttempt(reason: "\(error)")
            }
            let completing = attempt
            context.complete { expired in
                completing.record(expired ? .expired : .completed, in: files)
            }
            return CallDirectoryLoadReport(mode: plan.mode, removed: counts.removed, added: counts.added, fingerprint: fingerprint, error: nil)
        } catch {
            let reason = loadError(error, reading: plan)
            attempt.record(.cancelled, in: files)
            context.cancel(with: reason)
            return CallDirectoryLoadReport(mode: plan.mode, removed: counts.removed, added: counts.added, fingerprint: nil, error: reason)
        }
    }

    /// Records that iOS reported the extension's last request failed
    /// (`CXCallDirectoryExtensionContextDelegate.requestFailed`): the host
    /// then confirms nothing for it.
    public static func requestFailed(in folder: URL) {
        let files = CallDirectoryFolder(folder)
        CallDirectoryAttempt.read(in: files)?.record(.failed, in: files)
    }

    /// What a request hands iOS, decided before anything is handed.
    private enum Plan {
        case complete
        case reset
        case incremental(CallDirectoryChangesReader)

        var mode: CallDirectoryLoadMode {
            switch self {
            case .complete: return .complete
            case .reset: return .reset
            case .incremental: return .incremental
            }
        }
    }

    /// Incremental only when iOS holds a confirmed load, no request came
    /// since, and the changes file's first line says it starts from that
    /// load; anything else in an incremental request is a reset. A changes
    /// file that cannot be opened, or whose first line is not its header,
    /// is not used (nothing was handed yet, so the complete list is safe).
    private static func plan(incremental: Bool, files: CallDirectoryFolder, chunkSize: Int) -> Plan {
        guard incremental else { return .complete }
        guard let held = CallDirectoryLoadState.read(in: files).held(lastAttempt: CallDirectoryAttempt.read(in: files)),
            let changes = try? CallDirectoryChangesReader(url: files.changes, chunkSize: chunkSize), changes.base == held
        else { return .reset }
        return .incremental(changes)
    }

    /// Adds every entry of the snapshot at `url` (none when there is no
    /// snapshot yet); returns its fingerprint.
    private static func handSnapshot(
        _ url: URL, to context: some CallDirectoryContext, chunkSize: Int, added: inout Int
    ) throws -> CallDirectoryFingerprint {
        guard FileManager.default.fileExists(atPath: url.path) else { return CallDirectoryFingerprint() }
        let reader = try CallDirectorySnapshotReader(url: url, chunkSize: chunkSize)
        while let entry = try reader.next() {
            context.addEntry(entry.number, label: String(decoding: entry.label, as: UTF8.self))
            added += 1
        }
        return reader.fingerprint
    }

    /// Hands every change, removals first; returns the fingerprint they lead to.
    private static func handChanges(
        _ changes: CallDirectoryChangesReader, to context: some CallDirectoryContext, counts: inout (removed: Int, added: Int)
    ) throws -> CallDirectoryFingerprint {
        while let change = try changes.next() {
            switch change {
            case .removal(let number):
                context.removeEntry(number)
                counts.removed += 1
            case .addition(let number, let label):
                context.addEntry(number, label: String(decoding: label, as: UTF8.self))
                counts.added += 1
            }
        }
        return changes.target
    }

    /// `error` as the reason given to iOS.
    private static func loadError(_ error: any Error, reading plan: Plan) -> CallDirectoryLoadError {
        switch error {
        case let error as CallDirectoryLoadError: return error
        case let error as CallDirectoryFormatError: return .invalidFile(error)
        default:
            let name: String
            if case .incremental = plan { name = "the changes" } else { name = "the snapshot" }
            return .unreadableFile(name: name, reason: "\(error)")
        }
    }
}
