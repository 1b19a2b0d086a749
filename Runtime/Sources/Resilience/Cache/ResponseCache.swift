import Foundation
import HTTPTypes
import RuntimeSupport

/// A disk cache of HTTP responses for one app, partitioned by who is signed
/// in: each credential subject (a user id) has its own folder, and an entry
/// also records its subject, so one user never reads another's responses.
///
/// - Bounded: when the entries pass ``maximumBytes``, the oldest stored are
///   deleted first.
/// - Each entry is one file, written to a temporary name and renamed, so a
///   reader sees a whole entry or none; a torn or unreadable file is a miss
///   (and is deleted). Entries are not fsynced: a cache may lose its newest
///   entries in a power cut, never its consistency.
/// - ``signIn(subject:)`` selects the partition (and persists the choice
///   for the next launch); ``signOut()`` deletes the subject's entries.
/// - On Apple platforms the folder gets the data-protection class
///   `completeUntilFirstUserAuthentication` (readable by background tasks
///   after the first unlock).
///
/// Used through ``ResponseCacheMiddleware``.
public final class ResponseCache: Sendable {
    /// The folder the cache owns.
    public let folder: URL
    /// The most bytes the entries may take on disk.
    public let maximumBytes: Int
    /// The largest single response body kept (larger ones are not cached).
    public let maximumEntryBytes: Int
    let now: @Sendable () -> Date
    private let state: Locked<State>

    private struct State {
        var subject: String?
        /// Entry file name -> (bytes, stored at), loaded from the folder on first use.
        var index: [String: (bytes: Int, storedAt: Date)]?
        var totalBytes = 0
    }

    /// A cache in `folder` (created, with the parents, if missing). Reads
    /// the subject a previous launch signed in.
    public init(
        folder: URL, maximumBytes: Int = 20 * 1024 * 1024, maximumEntryBytes: Int = 2 * 1024 * 1024, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.folder = folder
        self.maximumBytes = maximumBytes
        self.maximumEntryBytes = min(maximumEntryBytes, maximumBytes)
        self.now = now
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        CacheFileProtection.apply(to: folder)
        let subject = (try? Data(contentsOf: folder.appendingPathComponent(Self.subjectFileName))).map { String(decoding: $0, as: UTF8.self) }
        state = Locked(State(subject: subject?.isEmpty == false ? subject : nil))
    }

    /// The signed-in subject whose partition is in use (nil: anonymous).
    public var subject: String? { state.withLock { $0.subject } }

    /// The bytes the entries take.
    public var totalBytes: Int { state.withLock { state in Self.loadIndex(&state, folder: folder); return state.totalBytes } }

    /// Uses `subject`'s partition from now on, and in later launches.
    public func signIn(subject: String) {
        state.withLock { $0.subject = subject }
        try? Data(subject.utf8).write(to: folder.appendingPathComponent(Self.subjectFileName), options: .atomic)
    }

    /// Deletes the signed-in subject's entries and returns to the anonymous
    /// partition (logout).
    public func signOut() {
        let subject = state.withLock { state -> String? in
            let subject = state.subject
            state.subject = nil
            return subject
        }
        try? FileManager.default.removeItem(at: folder.appendingPathComponent(Self.subjectFileName))
        if let subject { removeEntries(ofPartition: Self.partitionName(subject)) }
    }

    /// Deletes every entry of every subject.
    public func removeAll() {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names where name.hasSuffix(Self.entrySuffix) {
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        }
        state.withLock { state in
            state.index = [:]
            state.totalBytes = 0
        }
    }

    // MARK: Entries

    /// The stored response for `key` in the current partition, if any.
    func entry(for key: String, anonymous: Bool) -> CacheEntry? {
        let subject = anonymous ? nil : self.subject
        let name = Self.fileName(key: key, subject: subject)
        guard let data = try? Data(contentsOf: folder.appendingPathComponent(name)) else { return nil }
        guard let entry = CacheEntry.decode(data), entry.key == key, entry.subject == subject else {
            remove(name)
            return nil
        }
        return entry
    }

    /// Stores `entry` (replacing the key's previous one) and evicts the
    /// oldest entries beyond ``maximumBytes``.
    func store(_ entry: CacheEntry) {
        let name = Self.fileName(key: entry.key, subject: entry.subject)
        let data = entry.encoded()
        guard data.count <= maximumEntryBytes + 64 * 1024 else { return }
        // Foundation's atomic write: a temporary file renamed over the entry.
        guard (try? data.write(to: folder.appendingPathComponent(name), options: .atomic)) != nil else { return }
        let evicted = state.withLock { state -> [String] in
            Self.loadIndex(&state, folder: folder)
            state.totalBytes -= state.index?[name]?.bytes ?? 0
            state.index?[name] = (data.count, entry.storedAt)
            state.totalBytes += data.count
            var evicted: [String] = []
            if state.totalBytes > maximumBytes, let index = state.index {
                for (oldName, old) in index.sorted(by: { $0.value.storedAt < $1.value.storedAt }) where state.totalBytes > maximumBytes {
                    state.index?[oldName] = nil
                    state.totalBytes -= old.bytes
                    evicted.append(oldName)
                }
            }
            return evicted
        }
        for name in evicted { try? FileManager.default.removeItem(at: folder.appendingPathComponent(name)) }
    }

    /// Deletes the stored response for `key` in the current partition.
    func remove(key: String, anonymous: Bool) {
        remove(Self.fileName(key: key, subject: anonymous ? nil : subject))
    }

    private func remove(_ name: String) {
        try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        state.withLock { state in
            if let old = state.index?.removeValue(forKey: name) { state.totalBytes -= old.bytes }
        }
    }

    private func removeEntries(ofPartition partition: String) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names where name.hasPrefix(partition + "-") && name.hasSuffix(Self.entrySuffix) { remove(name) }
    }

    private static func loadIndex(_ state: inout State, folder: URL) {
        guard state.index == nil else { return }
        var index: [String: (bytes: Int, storedAt: Date)] = [:]
        var total = 0
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names where name.hasSuffix(entrySuffix) {
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(name).path) else { continue }
            let bytes = (attributes[.size] as? NSNumber)?.intValue ?? 0
            index[name] = (bytes, attributes[.modificationDate] as? Date ?? .distantPast)
            total += bytes
        }
        state.index = index
        state.totalBytes = total
    }

    // MARK: Names

    static let subjectFileName = "subject"
    static let entrySuffix = ".response"

    /// A partition's file-name prefix: a hash of the subject (the entry
    /// itself holds the subject, so a collision is a miss, not a leak).
    static func partitionName(_ subject: String?) -> String {
        subject.map { "u" + fnv1a($0) } ?? "anonymous"
    }

    static func fileName(key: String, subject: String?) -> String {
        partitionName(subject) + "-" + fnv1a(key) + entrySuffix
    }

    /// FNV-1a, 64 bits, as 16 hex digits: a stable file name, not a secret.
    static func fnv1a(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
