import Foundation
import Resilience

/// The document's dual storage: every value under `__GT_{brandId}_{key}` in
/// the primary store and in a backup file of its own, each with an expiry.
///
/// - Read: the primary first; if it lacks the value (or it expired), the
///   backup, and a value found there is written back to the primary
///   (repair).
/// - Write: both stores.
/// - Clear: every key and file with the brand's prefix.
///
/// What identifies a person (the user's email and id, the session's
/// metadata: ``Key/isPersonal``) lives only in the backup file, protected
/// and out of backups: the primary store is `UserDefaults` on Apple
/// platforms, which every device backup carries and no protection class
/// covers. Such a value an earlier version left in the primary moves to
/// its file when the storage opens.
final class TrackerStorage: Sendable {
    /// The keys the document lists, and the session's metadata.
    enum Key: String, CaseIterable {
        case sessionID = "session_id"
        case deviceID = "device_id"
        case sessionEmail = "session_email"
        case identifyID = "identify_id"
        case brandID = "brand_id"
        /// The session's metadata (`setMetadata`), a JSON object: kept with
        /// the session so a relaunch that restores the session restores it.
        case sessionMetadata = "session_metadata"

        /// Whether the value identifies a person, and so is kept in the
        /// protected file only, never in the primary store.
        var isPersonal: Bool { self == .sessionEmail || self == .identifyID || self == .sessionMetadata }
    }

    private struct Stored: Codable {
        var value: String
        var expires: Double
    }

    let prefix: String
    private let primary: any TrackerKeyValueStore
    private let folder: URL
    private let lifetime: TimeInterval
    private let now: @Sendable () -> Date

    init(brandID: String, primary: any TrackerKeyValueStore, folder: URL, lifetime: TimeInterval, now: @escaping @Sendable () -> Date) throws {
        prefix = "__GT_\(brandID)_"
        self.primary = primary
        self.folder = folder
        self.lifetime = lifetime
        self.now = now
        // Tracking may run in the background after the first unlock; nothing goes into a backup.
        try PrivateFile.makeFolder(folder, protection: .background)
        for key in Key.allCases where key.isPersonal {
            let name = prefix + key.rawValue
            guard let text = primary.string(forKey: name) else { continue }
            if (try? PrivateFile.read(file(name))) == nil { try PrivateFile.write(Data(text.utf8), to: file(name)) }
            primary.remove(forKey: name)
        }
    }

    func value(_ key: Key) -> String? {
        let name = prefix + key.rawValue
        if !key.isPersonal, let text = primary.string(forKey: name), let stored = decode(text), stored.expires > now().timeIntervalSince1970 {
            return stored.value
        }
        guard let data = try? PrivateFile.read(file(name)), let stored = decode(String(decoding: data, as: UTF8.self)),
            stored.expires > now().timeIntervalSince1970
        else {
            return nil
        }
        if !key.isPersonal { primary.set(String(decoding: data, as: UTF8.self), forKey: name) }
        return stored.value
    }

    func set(_ value: String, for key: Key) throws {
        let name = prefix + key.rawValue
        let data = try JSONEncoder().encode(Stored(value: value, expires: now().timeIntervalSince1970 + lifetime))
        if !key.isPersonal { primary.set(String(decoding: data, as: UTF8.self), forKey: name) }
        try PrivateFile.write(data, to: file(name))
    }

    /// Removes every value of this brand from both stores.
    func clear(keepingBrand: Bool) {
        for name in primary.allKeys() where name.hasPrefix(prefix) {
            if keepingBrand, name == prefix + Key.brandID.rawValue { continue }
            primary.remove(forKey: name)
        }
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in files where name.hasPrefix(prefix) {
            if keepingBrand, name == prefix + Key.brandID.rawValue { continue }
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        }
    }

    private func file(_ name: String) -> URL { folder.appendingPathComponent(name) }

    private func decode(_ text: String) -> Stored? { try? JSONDecoder().decode(Stored.self, from: Data(text.utf8)) }
}
