import Foundation
import RuntimeSupport

/// How a file an SDK keeps is protected on the device: its data-protection
/// class (when iOS lets it be read) and whether it goes into backups. The
/// SDKs choose per file (docs/Decisions.md has the table):
///
/// - ``foregroundOnly``: `complete`, no backup. Readable only while the
///   device is unlocked; what no background work needs (Safepocket's and
///   SOUL's cache and queue, a pending PKCE verifier and state, SOUL's
///   pending sign-in).
/// - ``background``: `completeUntilFirstUserAuthentication`, no backup.
///   Readable after the first unlock since boot; what background refresh,
///   ring-time recording or the Call Directory extension read (SecureNode's
///   dataset, outbox and snapshot, MobileTracker's queue).
///
/// Nothing an SDK keeps is backed up: caches and queues are rebuilt or
/// belong to this device (a restored queue would send a write twice from
/// two devices), and a backup is a copy of a user's data off the device.
///
/// Applied by `apply(to:)`: on Apple platforms through the file's
/// attributes (an Apple adapter); on Linux, which has neither, recorded in
/// `applied(to:)` so tests can check every file's policy, and refused
/// where a test says so (`refuse(under:reason:)`).
public struct DataAtRest: Sendable, Hashable, CustomStringConvertible {
    /// The data-protection class.
    package enum Protection: String, Sendable, Hashable {
        /// `FileProtectionType.complete`: unreadable while the device is locked.
        case complete
        /// `FileProtectionType.completeUntilFirstUserAuthentication`:
        /// readable once the device was unlocked after boot.
        case completeUntilFirstUserAuthentication
    }

    /// The file's protection class.
    package var protection: Protection
    /// Whether the file is left out of iCloud and computer backups.
    package var excludedFromBackup: Bool

    /// A policy.
    package init(protection: Protection, excludedFromBackup: Bool) {
        self.protection = protection
        self.excludedFromBackup = excludedFromBackup
    }

    /// `complete`, no backup: files no background work reads.
    public static let foregroundOnly = DataAtRest(protection: .complete, excludedFromBackup: true)
    /// `completeUntilFirstUserAuthentication`, no backup: files background
    /// work or an app extension reads.
    public static let background = DataAtRest(protection: .completeUntilFirstUserAuthentication, excludedFromBackup: true)

    /// `complete, no backup`.
    public var description: String { protection.rawValue + (excludedFromBackup ? ", no backup" : ", backed up") }

    /// Gives `url` (a file or a folder: files created in a folder inherit
    /// its class) this policy, or throws `DataAtRestError` when the file
    /// system refuses it: a file an SDK cannot protect is not written (the
    /// SDKs protect a file before it takes its name, so nothing is left
    /// behind unprotected).
    package func apply(to url: URL) throws(DataAtRestError) {
        #if canImport(Darwin)
        do {
            try FileAttributes.apply(complete: protection == .complete, excludedFromBackup: excludedFromBackup, to: url)
        } catch {
            throw DataAtRestError(path: url.path, policy: self, reason: String(describing: error))
        }
        #else
        let path = url.standardizedFileURL.path
        let refusal = Self.ledger.withLock { ledger -> String? in
            if let reason = ledger.refusals.first(where: { path == $0.key || path.hasPrefix($0.key + "/") })?.value { return reason }
            ledger.applied[path] = self
            return nil
        }
        if let refusal { throw DataAtRestError(path: url.path, policy: self, reason: refusal) }
        #endif
    }

    #if !canImport(Darwin)
    /// Makes `apply(to:)` throw for `folder` and everything under it,
    /// with `reason`, as iOS does when it cannot set a protection class
    /// (Linux, for tests: every file an SDK writes there must fail to be
    /// written rather than be written unprotected).
    package static func refuse(under folder: URL, reason: String = "the file system refused the protection class") {
        ledger.withLock { $0.refusals[folder.standardizedFileURL.path] = reason }
    }

    /// Ends `refuse(under:reason:)` for `folder`.
    package static func stopRefusing(under folder: URL) {
        ledger.withLock { _ = $0.refusals.removeValue(forKey: folder.standardizedFileURL.path) }
    }

    /// A file protected under one name was renamed: its policy goes with it,
    /// as the attributes of a renamed file do on iOS.
    static func moved(from source: URL, to destination: URL) {
        ledger.withLock { ledger in
            if let policy = ledger.applied.removeValue(forKey: source.standardizedFileURL.path) {
                ledger.applied[destination.standardizedFileURL.path] = policy
            }
        }
    }

    /// What `apply(to:)` recorded for `url` (Linux, where files have no
    /// protection class or backup flag): nil when nothing was applied.
    package static func applied(to url: URL) -> DataAtRest? {
        ledger.withLock { $0.applied[url.standardizedFileURL.path] }
    }

    /// The policy `url` has as iOS would apply it: its own, or else the
    /// nearest folder's between it and `folder` (files inherit their
    /// folder's class); nil when none was applied (Linux).
    package static func effective(for url: URL, within folder: URL) -> DataAtRest? {
        let root = folder.standardizedFileURL.path
        var current = url.standardizedFileURL
        while true {
            if let policy = applied(to: current) { return policy }
            guard current.path != root, current.path.hasPrefix(root), current.pathComponents.count > 1 else { return nil }
            current = current.deletingLastPathComponent().standardizedFileURL
        }
    }

    /// Every file under `folder` (temporary files of a write in progress
    /// aside) whose effective policy is not `expected`, with what it has:
    /// what an audit of an SDK's folder reports (Linux).
    package static func files(in folder: URL, notProtectedAs expected: DataAtRest) -> [String] {
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) else { return [] }
        var wrong: [String] = []
        for case let file as URL in walker where (try? file.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
            guard !file.lastPathComponent.hasSuffix(".tmp") else { continue }
            let policy = effective(for: file, within: folder)
            if policy != expected { wrong.append("\(file.path): \(policy.map(\.description) ?? "no policy")") }
        }
        return wrong
    }

    /// What was applied, by path, and the folders where applying fails.
    private static let ledger = Locked<(applied: [String: DataAtRest], refusals: [String: String])>(([:], [:]))
    #endif
}

/// A ``DataAtRest`` policy could not be given to a file: the file system
/// refused its protection class or its backup flag. The file was not
/// written (or the folder not made ready), so nothing is left unprotected.
package struct DataAtRestError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file or folder.
    package let path: String
    /// The policy it could not be given.
    package let policy: DataAtRest
    /// What the file system said.
    package let reason: String

    /// What failed, where and why.
    package var description: String {
        "could not protect \(path) as \(policy): \(reason); nothing was written there unprotected"
    }
}
