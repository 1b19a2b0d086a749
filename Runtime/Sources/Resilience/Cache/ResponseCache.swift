import Foundation
import HTTPTypes
import RuntimeSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
/// - The entries this process wrote or read last stay decoded in memory too
///   (each up to `heldEntryBytes`, all together up to `heldBytes`), so
///   a hit or a revalidation of a recent answer touches no file; they go
///   with their files (sign-out, eviction, removal).
/// - ``signIn(subject:)`` selects the partition (and persists the choice
///   for the next launch); ``signOut()`` returns to the anonymous one.
/// - The folder gets a ``DataAtRest`` policy (by default
///   ``DataAtRest/foregroundOnly``: unreadable while the device is locked,
///   left out of backups), which its files inherit.
/// - Only the signed-in subject's partition is kept: ``signIn(subject:)``
///   deletes every other user's entries, ``signOut()`` every user's.
///
/// Used through ``ResponseCacheMiddleware``.
public final class ResponseCache: Sendable {
    /// The folder the cache owns.
    public let folder: URL
    /// The most bytes the entries may take on disk.
    public let maximumBytes: Int
    /// The largest single response body kept (larger ones are not cached).
    public let maximumEntryBytes: Int
    /// The largest entry also held decoded in memory.
    package let heldEntryBytes = 64 * 1024
    /// The most bytes of entries held in memory at once.
    package let heldBytes = 1024 * 1024
    package let now: @Sendable () -> Date
    /// Whether the folder took its ``DataAtRest`` policy; nothing is
    /// written in a folder that did not.
    private let protected: Bool
    private let state: Locked<State>

    private struct State {
        var subject: String?
        /// Entry file name -> (bytes, stored at), loaded from the folder on first use.
        var index: [String: IndexEntry]?
        var totalBytes = 0
        /// The bytes of the entries held decoded (``IndexEntry/held``).
        var heldBytes = 0
        /// The names held, oldest first (a name dropped since may linger
        /// until it comes first or the list is compacted).
        var heldOrder: [String] = []

        /// Forgets the index's entry `name` (and what it held); its bytes.
        mutating func drop(_ name: String) {
            guard let old = index?.removeValue(forKey: name) else { return }
            totalBytes -= old.bytes
            if old.held != nil { heldBytes -= old.bytes }
        }

        /// Holds `entry` (of `bytes` encoded) decoded for `name`, when it is
        /// small enough, there is room, and the index still describes the
        /// file it was read from (`readAs`: no store replaced it meanwhile;
        /// and the same size, which ``drop(_:)`` takes back).
        /// The oldest held entries make room for it.
        mutating func hold(_ entry: CacheEntry, bytes: Int, name: String, readAs: IndexEntry? = nil, entryLimit: Int, limit: Int) {
            guard let known = index?[name], known.held == nil, known.bytes == bytes, bytes <= entryLimit else { return }
            if let readAs, known.storedAt != readAs.storedAt || known.digest != readAs.digest { return }
            var released = 0
            while heldBytes + bytes > limit, released < heldOrder.count {
                let oldest = heldOrder[released]
                released += 1
                if let old = index?[oldest], old.held != nil {
                    index?[oldest]?.held = nil
                    heldBytes -= old.bytes
                }
            }
            heldOrder.removeFirst(released)
            guard heldBytes + bytes <= limit else { return }
            index?[name]?.held = entry
            heldBytes += bytes
            heldOrder.append(name)
            // Names dropped or released since: keep the list about as long as what is held.
            if heldOrder.count > 64, heldOrder.count > 2 * (index?.count ?? 0) {
                heldOrder.removeAll { index?[$0]?.held == nil }
            }
        }
    }

    /// A cache in `folder` (created, with the parents, if missing, with the
    /// `dataAtRest` policy). Reads the subject a previous launch signed in.
    public init(
        folder: URL, maximumBytes: Int = 20 * 1024 * 1024, maximumEntryBytes: Int = 2 * 1024 * 1024, now: @escaping @Sendable () -> Date = { Date() },
        dataAtRest: DataAtRest = .foregroundOnly
    ) {
        self.folder = folder
        self.maximumBytes = maximumBytes
        self.maximumEntryBytes = min(maximumEntryBytes, maximumBytes)
        self.now = now
        // A folder that cannot be given its policy gets nothing written in
        // it: the cache then answers nothing, rather than keep a user's
        // answers unprotected.
        protected = (try? PrivateFile.makeFolder(folder, protection: dataAtRest)) != nil
        let subject = (try? Data(contentsOf: folder.appendingPathComponent(Self.subjectFileName))).map { String(decoding: $0, as: UTF8.self) }
        state = Locked(State(subject: subject?.isEmpty == false ? subject : nil))
    }

    /// What the index knows of one entry file.
    private struct IndexEntry {
        var bytes: Int
        var storedAt: Date
        /// A hash of what was last written in this process (status, body,
        /// freshness, validators): the same response again is not rewritten.
        var digest: Int?
        /// When the server last confirmed the written response unchanged,
        /// if later than `storedAt`.
        var confirmedAt: Date?
        /// The entry, decoded, when this process wrote or read it and holds it.
        var held: CacheEntry?
    }

    /// The signed-in subject whose partition is in use (nil: anonymous).
    public var subject: String? { state.withLock { $0.subject } }

    /// The bytes the entries take.
    public var totalBytes: Int { state.withLock { state in Self.loadIndex(&state, folder: folder); return state.totalBytes } }

    /// Uses `subject`'s partition from now on, and in later launches, and
    /// deletes every other user's entries (a user signing in never finds
    /// another's, and nothing of an earlier user stays on the device).
    public func signIn(subject: String) {
        state.withLock { $0.subject = subject }
        if protected { try? PrivateFile.write(Data(subject.utf8), to: folder.appendingPathComponent(Self.subjectFileName), synchronize: false) }
        removeEntries(ofPartitions: { $0 != Self.partitionName(subject) && $0 != Self.partitionName(nil) })
    }

    /// Returns to the anonymous partition and deletes every user's entries
    /// (sign-out, an expired session). Anonymous entries (answers to
    /// requests without credentials) stay.
    public func signOut() {
        state.withLock { $0.subject = nil }
        try? FileManager.default.removeItem(at: folder.appendingPathComponent(Self.subjectFileName))
        removeEntries(ofPartitions: { $0 != Self.partitionName(nil) })
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
            state.heldBytes = 0
            state.heldOrder = []
        }
    }

    // MARK: Entries

    /// The stored response for `key` in `subject`'s partition (nil: the
    /// anonymous one), if any.
    func entry(for key: String, subject: String?) -> CacheEntry? {
        let name = Self.fileName(key: key, subject: subject)
        // The index knows every entry: a miss costs no file system call.
        let known = state.withLock { state -> IndexEntry? in
            Self.loadIndex(&state, folder: folder)
            return state.index?[name]
        }
        guard let known else { return nil }
        var entry: CacheEntry
        if let held = known.held {
            // The file name is a hash: a held entry of another key or subject is a miss, as a file's would be.
            guard held.key == key, held.subject == subject else { return nil }
            entry = held
        } else {
            guard let data = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path) else { return nil }
            guard let decoded = CacheEntry.decode(data), decoded.key == key, decoded.subject == subject else {
                remove(name)
                return nil
            }
            entry = decoded
            state.withLock { $0.hold(decoded, bytes: data.count, name: name, readAs: known, entryLimit: heldEntryBytes, limit: heldBytes) }
        }
        if let confirmedAt = known.confirmedAt, confirmedAt > entry.storedAt { entry.storedAt = confirmedAt }
        return entry
    }

    /// Stores `entry` (replacing the key's previous one) and evicts the
    /// oldest entries beyond ``maximumBytes``.
    ///
    /// The same response as the one this process last wrote for the key
    /// (status, body, freshness, validators) is not rewritten: only its confirmation
    /// time is kept, in memory, so concurrent identical answers cost one
    /// write. After a relaunch its age counts from the last write (older,
    /// never younger, than the truth).
    func store(_ entry: CacheEntry) {
        let name = Self.fileName(key: entry.key, subject: entry.subject)
        var hasher = Hasher()
        hasher.combine(entry.status)
        hasher.combine(entry.body)
        hasher.combine(entry.freshFor)
        hasher.combine(entry.mayServeStale)
        // The validators and directives too (not `Date`, which changes on every answer).
        for pair in entry.headers where pair.count == 2 && ["etag", "last-modified", "cache-control", "vary"].contains(pair[0].lowercased()) {
            hasher.combine(pair)
        }
        let digest = hasher.finalize()
        // A response to a user who has signed out since the request left is not kept.
        let unchanged = state.withLock { state -> Bool in
            if entry.subject != nil, entry.subject != state.subject { return true }
            Self.loadIndex(&state, folder: folder)
            guard let known = state.index?[name], known.digest == digest else { return false }
            state.index?[name]?.confirmedAt = max(known.confirmedAt ?? entry.storedAt, entry.storedAt)
            return true
        }
        if unchanged { return }
        let data = entry.encoded()
        guard protected, data.count <= maximumEntryBytes + 64 * 1024 else { return }
        guard Self.replace(folder.appendingPathComponent(name), with: data) else { return }
        let evicted = state.withLock { state -> [String] in
            // Signed out while the file was written: sign-out's deletion must win.
            if entry.subject != nil, entry.subject != state.subject { return [name] }
            Self.loadIndex(&state, folder: folder)
            state.drop(name)
            state.index?[name] = IndexEntry(bytes: data.count, storedAt: entry.storedAt, digest: digest)
            state.totalBytes += data.count
            state.hold(entry, bytes: data.count, name: name, entryLimit: heldEntryBytes, limit: heldBytes)
            var evicted: [String] = []
            if state.totalBytes > maximumBytes, let index = state.index {
                for (oldName, _) in index.sorted(by: { $0.value.storedAt < $1.value.storedAt }) where state.totalBytes > maximumBytes {
                    state.drop(oldName)
                    evicted.append(oldName)
                }
            }
            return evicted
        }
        for name in evicted { try? FileManager.default.removeItem(at: folder.appendingPathComponent(name)) }
    }

    /// Deletes the stored response for `key` in `subject`'s partition.
    func remove(key: String, subject: String?) {
        remove(Self.fileName(key: key, subject: subject))
    }

    /// Writes `data` beside `url` and renames it over `url`: a reader sees
    /// the old entry or the new one. No fsync (a cache may lose its newest
    /// entries in a power cut; a torn one reads as a miss).
    private static func replace(_ url: URL, with data: Data) -> Bool {
        (try? PrivateFile.write(data, to: url, synchronize: false)) != nil
    }

    private func remove(_ name: String) {
        try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        state.withLock { $0.drop(name) }
    }

    /// Deletes the entries whose partition `matches`.
    /// Deletes the entries whose partition `matches`: their files, and what
    /// the index knows and holds of them even when a file is gone already.
    private func removeEntries(ofPartitions matches: (String) -> Bool) {
        func partition(_ name: String) -> String? { name.firstIndex(of: "-").map { String(name[..<$0]) } }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names where name.hasSuffix(Self.entrySuffix) {
            guard let prefix = partition(name), matches(prefix) else { continue }
            remove(name)
        }
        state.withLock { state in
            for name in state.index?.keys.filter({ partition($0).map(matches) ?? false }) ?? [] { state.drop(name) }
        }
    }

    private static func loadIndex(_ state: inout State, folder: URL) {
        guard state.index == nil else { return }
        var index: [String: IndexEntry] = [:]
        var total = 0
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names where name.hasSuffix(entrySuffix) {
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(name).path) else { continue }
            let bytes = (attributes[.size] as? NSNumber)?.intValue ?? 0
            index[name] = IndexEntry(bytes: bytes, storedAt: attributes[.modificationDate] as? Date ?? .distantPast)
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
