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
    }

    func value(_ key: Key) -> String? {
        let name = prefix + key.rawValue
        if let text = primary.string(forKey: name), let stored = decode(text), stored.expires > now().timeIntervalSince1970 {
            return stored.value
        }
        guard let data = try? PrivateFile.read(file(name)), let stored = decode(String(decoding: data, as: UTF8.self)),
            stored.expires > now().timeIntervalSince1970
        else {
            return nil
        }
        primary.set(String(decoding: data, as: UTF8.self), forKey: name)
        return stored.value
    }

    func set(_ value: String, for key: Key) throws {
        let name = prefix + key.rawValue
        let data = try JSONEncoder().encode(Stored(value: value, expires: now().timeIntervalSince1970 + lifetime))
        primary.set(String(decoding: data, as: UTF8.self), forKey: name)
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
