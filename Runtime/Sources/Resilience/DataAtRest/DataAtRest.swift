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
/// Applied by ``apply(to:)``: on Apple platforms through the file's
/// attributes (an Apple adapter); on Linux, which has neither, recorded in
/// ``applied(to:)`` so tests can check every file's policy.
public struct DataAtRest: Sendable, Hashable, CustomStringConvertible {
    /// The data-protection class.
    public enum Protection: String, Sendable, Hashable {
        /// `FileProtectionType.complete`: unreadable while the device is locked.
        case complete
        /// `FileProtectionType.completeUntilFirstUserAuthentication`:
        /// readable once the device was unlocked after boot.
        case completeUntilFirstUserAuthentication
    }

    /// The file's protection class.
    public var protection: Protection
    /// Whether the file is left out of iCloud and computer backups.
    public var excludedFromBackup: Bool

    /// A policy.
    public init(protection: Protection, excludedFromBackup: Bool) {
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
    /// its class) this policy. Best effort: a file system that cannot take
    /// an attribute keeps the file as it is.
    public func apply(to url: URL) {
        #if canImport(Darwin)
        FileAttributes.apply(complete: protection == .complete, excludedFromBackup: excludedFromBackup, to: url)
        #else
        Self.ledger.withLock { $0[url.standardizedFileURL.path] = self }
        #endif
    }

    #if !canImport(Darwin)
    /// What ``apply(to:)`` recorded for `url` (Linux, where files have no
    /// protection class or backup flag): nil when nothing was applied.
    public static func applied(to url: URL) -> DataAtRest? {
        ledger.withLock { $0[url.standardizedFileURL.path] }
    }

    /// The policy `url` has as iOS would apply it: its own, or else the
    /// nearest folder's between it and `folder` (files inherit their
    /// folder's class); nil when none was applied (Linux).
    public static func effective(for url: URL, within folder: URL) -> DataAtRest? {
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
    public static func files(in folder: URL, notProtectedAs expected: DataAtRest) -> [String] {
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) else { return [] }
        var wrong: [String] = []
        for case let file as URL in walker where (try? file.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
            guard !file.lastPathComponent.hasSuffix(".tmp") else { continue }
            let policy = effective(for: file, within: folder)
            if policy != expected { wrong.append("\(file.path): \(policy.map(\.description) ?? "no policy")") }
        }
        return wrong
    }

    private static let ledger = Locked<[String: DataAtRest]>([:])
    #endif
}
