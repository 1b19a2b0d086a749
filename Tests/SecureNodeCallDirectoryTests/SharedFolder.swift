import Foundation
import SecureNodeCallDirectory

/// A temporary shared folder, and the host's writes the extension tests
/// need, made directly with the module's formats.
struct SharedFolder {
    let files: CallDirectoryFolder
    var url: URL { files.url }

    init() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("call-directory-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        files = CallDirectoryFolder(url)
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }

    /// A file of the folder other than the shared ones.
    func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    /// Writes `entries` as a snapshot at `url` (the current one by default); returns its fingerprint.
    @discardableResult
    func writeSnapshot(_ entries: [CallDirectoryPhoneNumber: String], to url: URL? = nil) throws -> CallDirectoryFingerprint {
        var data = Data()
        for number in entries.keys.sorted() {
            CallDirectorySnapshotFormat.appendLine(number, label: entries[number]!, to: &data)
        }
        let target = url ?? files.snapshot
        try data.write(to: target)
        return try CallDirectorySnapshotFormat.validate(target).fingerprint
    }

    /// Writes the changes from `held` (what iOS holds) to `wanted` (the
    /// current snapshot, written too), as the host does at an export.
    @discardableResult
    func writeChanges(from held: [CallDirectoryPhoneNumber: String], to wanted: [CallDirectoryPhoneNumber: String]) throws -> CallDirectoryChangesWriter.Counts {
        let base = file("held.snapshot")
        let baseFingerprint = try writeSnapshot(held, to: base)
        let targetFingerprint = try writeSnapshot(wanted)
        return try CallDirectoryChangesWriter.write(
            from: base, baseFingerprint: baseFingerprint, to: files.snapshot, targetFingerprint: targetFingerprint, into: files.changes)
    }

    /// The host after a reload iOS reported successful: confirms the
    /// extension's attempt made since `previousAttemptID` when it handed
    /// the current snapshot; returns whether it did.
    @discardableResult
    func confirm(since previousAttemptID: String?) throws -> Bool {
        let current = try CallDirectorySnapshotFormat.validate(files.snapshot).fingerprint
        guard let state = CallDirectoryLoadState.confirming(
            CallDirectoryAttempt.read(in: files), previousAttemptID: previousAttemptID, currentSnapshot: current)
        else { return false }
        try state.write(in: files)
        return true
    }

    /// The id of the extension's last attempt (a host's reload ticket).
    var lastAttemptID: String? { CallDirectoryAttempt.read(in: files)?.id }
}
