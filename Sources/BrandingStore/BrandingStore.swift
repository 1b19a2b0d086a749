import Foundation
import GRDB

/// The device's branding dataset: SQLite (WAL, a `DatabasePool`) holds the
/// records, the sync cursor and the server config; a memory-mapped lookup
/// file beside it answers `lookup(e164:)` in about a microsecond.
///
/// Every sync applies in one write transaction together with its cursor, so
/// a reader sees the old dataset or the new one, never a mix, and a failure
/// (or a crash) at any point leaves the previous dataset and cursor. The
/// lookup file is derived from the database: each sync writes the next one
/// (a new base for a full sync, a small delta over the base for an
/// incremental one) before it commits, swaps it in after, and opening the
/// store rebuilds it whenever its generation is not the database's.
public final class BrandingStore: Sendable {
    private let pool: DatabasePool
    private let slot: LookupSnapshotSlot
    /// One sync at a time: the transaction and the lookup-file swap after it.
    private let syncLock = NSLock()
    private let basePath: String
    private let deltaPath: String

    /// Opens (or creates) the store at `path` and migrates it; the lookup
    /// files live beside it (`<path>.lookup`, `<path>.lookup-delta`).
    public init(path: String) throws {
        var configuration = Configuration()
        configuration.label = "BrandingStore"
        // WAL with synchronous=NORMAL: a sync is still all-or-nothing after a
        // crash (the WAL replays whole transactions only); a power loss may
        // lose the last sync, which the next one repeats from the kept cursor.
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        pool = try DatabasePool(path: path, configuration: configuration)
        try Self.migrator.migrate(pool)
        basePath = path + ".lookup"
        deltaPath = path + ".lookup-delta"
        slot = LookupSnapshotSlot(LookupSnapshot(generation: 0, base: nil, delta: nil))
        slot.replace(with: try loadSnapshot())
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: branding, sync state") { db in
            try db.execute(sql: """
                CREATE TABLE branding (
                    number INTEGER PRIMARY KEY NOT NULL,
                    e164 TEXT NOT NULL,
                    brand_name TEXT NOT NULL,
                    brand_id TEXT NOT NULL,
                    logo_url TEXT,
                    call_reason TEXT,
                    updated_at TEXT NOT NULL
                ) WITHOUT ROWID;
                CREATE TABLE sync_state (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    cursor TEXT NOT NULL,
                    config TEXT,
                    kind TEXT NOT NULL
                );
                """)
        }
        migrator.registerMigration("v2: sync generation for the lookup file") { db in
            try db.execute(sql: "ALTER TABLE sync_state ADD COLUMN generation INTEGER NOT NULL DEFAULT 0")
        }
        return migrator
    }

    // MARK: Sync

    /// Applies a sync batch atomically with its cursor. Invalid records are
    /// skipped and counted; a batch that cannot be applied as a whole throws
    /// ``SyncRejection`` and changes nothing.
    @discardableResult
    public func apply(_ batch: SyncBatch) throws -> SyncOutcome {
        try apply(batch.kind, records: batch.records, cursor: batch.cursor, config: batch.config)
    }

    /// Applies a sync from a sequence of records, reading each once: a full
    /// sync of a million records never holds them all in memory (the
    /// sequence can decode them as it goes). Atomic with the cursor, like
    /// ``apply(_:)``.
    @discardableResult
    public func apply<Records: Sequence<IncomingBrandingRecord>>(
        _ kind: SyncBatch.Kind, records: Records, cursor: String, config: String? = nil
    ) throws -> SyncOutcome {
        try apply(kind, records: records, state: { SyncState(cursor: cursor, config: config) }, failAfterWrites: nil)
    }

    /// Applies a sync whose cursor and config are known only once its
    /// records have been read (a response decoded as it arrives, where
    /// `synced_at` may follow the records): `finalState` is called after
    /// the last record, inside the transaction, and a throw from it (or
    /// from anything else) leaves the store as it was.
    @discardableResult
    public func apply<Records: Sequence<IncomingBrandingRecord>>(
        _ kind: SyncBatch.Kind, records: Records, finalState: () throws -> SyncState
    ) throws -> SyncOutcome {
        try apply(kind, records: records, state: finalState, failAfterWrites: nil)
    }

    /// `apply`, with a failure injected after `failAfterWrites` row writes
    /// (tests prove the rollback with it).
    func apply(_ batch: SyncBatch, failAfterWrites: Int?) throws -> SyncOutcome {
        try apply(batch.kind, records: batch.records, state: { SyncState(cursor: batch.cursor, config: batch.config) }, failAfterWrites: failAfterWrites)
    }

    func apply<Records: Sequence<IncomingBrandingRecord>>(
        _ kind: SyncBatch.Kind, records: Records, state: () throws -> SyncState, failAfterWrites: Int?
    ) throws -> SyncOutcome {
        // The cursor is checked when it is known, before anything commits.
        func checkedState() throws -> SyncState {
            let final = try state()
            guard !final.cursor.isEmpty else { throw SyncRejection.missingCursor }
            return final
        }
        return try syncLock.withLock {
            try repairSnapshotIfStale()
            switch kind {
            case .full: return try applyFull(records, state: checkedState, failAfterWrites: failAfterWrites)
            case .incremental: return try applyIncremental(records, state: checkedState, failAfterWrites: failAfterWrites)
            }
        }
    }

    /// Stores the answer of a server lookup (`GET /lookup`) for one number,
    /// leaving the cursor and config as they are: the next sync stays
    /// authoritative over it. Never rewrites the base lookup file (it runs
    /// at ring time). Returns false, storing nothing, when the record is not
    /// valid or no sync has been applied yet.
    @discardableResult
    public func storeLookupAnswer(_ incoming: IncomingBrandingRecord) throws -> Bool {
        guard incoming.isActive, let number = BrandingRecord.number(e164: incoming.e164),
              case .valid(let record, _) = Self.validate(incoming)
        else { return false }
        return try syncLock.withLock {
            try repairSnapshotIfStale()
            guard slot.current.generation > 0 else { return false }
            _ = try applyChanges([number: .record(record)], state: .generationOnly, allowCompaction: false, failAfterWrites: nil)
            return true
        }
    }

    /// The generation the database holds (0 before the first sync).
    private func databaseGeneration() throws -> UInt64 {
        try pool.read { db in
            try Int64.fetchOne(db, sql: "SELECT generation FROM sync_state WHERE id = 1")
        }.map { UInt64($0) } ?? 0
    }

    /// Reloads (or rebuilds) the lookup files when the snapshot lags the
    /// database: after a failure between a commit and its file swap, the
    /// next sync starts from files that match the database again.
    private func repairSnapshotIfStale() throws {
        if slot.current.generation != (try databaseGeneration()) { slot.replace(with: try loadSnapshot()) }
    }

    /// Runs the file swap after a commit. The sync is committed whatever
    /// happens here; the lookup files are derived, so a failure (a rename,
    /// a mapping) is repaired from the database at once, or before the next
    /// sync, or at the next open.
    private func afterCommit(_ swap: () throws -> LookupSnapshot) {
        do {
            slot.replace(with: try swap())
        } catch {
            if let repaired = try? loadSnapshot() { slot.replace(with: repaired) }
        }
    }

    /// A fresh name for a file being written (one per write, so two writers
    /// never truncate each other's file).
    private func pendingPath(for path: String) -> String { path + ".pending-" + UUID().uuidString }

    /// Counts row writes and throws the injected failure once past the limit.
    private struct WriteCounter {
        let failAfter: Int?
        var writes = 0
        mutating func wrote() throws {
            writes += 1
            if let failAfter, writes > failAfter { throw InjectedFailure() }
        }
    }

    private static let upsertSQL = """
        INSERT INTO branding (number, e164, brand_name, brand_id, logo_url, call_reason, updated_at)
        VALUES (?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (number) DO UPDATE SET e164 = excluded.e164, brand_name = excluded.brand_name,
            brand_id = excluded.brand_id, logo_url = excluded.logo_url, call_reason = excluded.call_reason,
            updated_at = excluded.updated_at
        """

    /// The arguments of ``upsertSQL`` for a record.
    private static func upsertArguments(_ number: Int64, _ record: BrandingRecord) -> StatementArguments {
        [number, record.e164, record.brandName, record.brandID, record.logoURL, record.callReason, record.updatedAt]
    }

    /// Replaces the dataset: rows and the next base lookup file are written
    /// in one pass over the records; a number twice (found when the file's
    /// index is sorted) refuses the batch before the commit.
    private func applyFull<Records: Sequence<IncomingBrandingRecord>>(
        _ records: Records, state: () throws -> SyncState, failAfterWrites: Int?
    ) throws -> SyncOutcome {
        let generation = slot.current.generation + 1
        let pending = pendingPath(for: basePath)
        var outcome = SyncOutcome()
        do {
            let writer = try LookupFileWriter(path: pending, generation: generation)
            try pool.write { db in
                var counter = WriteCounter(failAfter: failAfterWrites)
                try db.execute(sql: "DELETE FROM branding")
                let insert = try db.cachedStatement(sql: Self.upsertSQL)
                // A counter, not `enumerated()`: 7% of a 1M-record sync when measured.
                var position = -1
                for incoming in records {
                    position += 1
                    // An inactive record in a full sync is simply not part of the dataset.
                    guard let number = BrandingRecord.number(e164: incoming.e164) else {
                        outcome.skip(SkippedRecord(index: incoming.sourceIndex ?? position, reason: Self.notANumber))
                        continue
                    }
                    guard incoming.isActive else { continue }
                    let record: BrandingRecord
                    switch Self.validate(incoming) {
                    case .invalid(let reason):
                        outcome.skip(SkippedRecord(index: incoming.sourceIndex ?? position, reason: reason))
                        continue
                    case .valid(let valid, let wasClamped):
                        record = valid
                        if wasClamped { outcome.clamped += 1 }
                    }
                    try insert.execute(arguments: Self.upsertArguments(number, record))
                    try writer.append(number, .record(record))
                    try counter.wrote()
                    outcome.stored += 1
                }
                let final = try state()
                try writer.finish()
                try Self.writeState(db, cursor: final.cursor, config: final.config, kind: "full", generation: generation)
            }
        } catch {
            unlink(pending)
            throw Self.rejection(for: error)
        }
        afterCommit { try install(pending: pending, generation: generation) }
        return outcome
    }

    /// Upserts active records and deletes inactive ones; the lookup delta
    /// (every change since the base) is rewritten, or the base rebuilt once
    /// the delta has grown past a hundredth of it.
    private func applyIncremental<Records: Sequence<IncomingBrandingRecord>>(
        _ records: Records, state: () throws -> SyncState, failAfterWrites: Int?
    ) throws -> SyncOutcome {
        var outcome = SyncOutcome()
        var changes: [Int64: LookupFile.Entry] = [:]
        var position = -1
        for incoming in records {
            position += 1
            guard let number = BrandingRecord.number(e164: incoming.e164) else {
                outcome.skip(SkippedRecord(index: incoming.sourceIndex ?? position, reason: Self.notANumber))
                continue
            }
            guard changes[number] == nil else { throw SyncRejection.duplicateNumber(incoming.e164) }
            if !incoming.isActive {
                changes[number] = .removed
                continue
            }
            switch Self.validate(incoming) {
            case .invalid(let reason):
                outcome.skip(SkippedRecord(index: incoming.sourceIndex ?? position, reason: reason))
            case .valid(let record, let wasClamped):
                if wasClamped { outcome.clamped += 1 }
                changes[number] = .record(record)
            }
        }
        let final = try state()
        return try applyChanges(
            changes, state: .sync(cursor: final.cursor, config: final.config), allowCompaction: true, failAfterWrites: failAfterWrites, outcome: outcome)
    }

    /// What a change set writes to `sync_state` besides the generation.
    private enum StateUpdate {
        /// A sync: its cursor and config.
        case sync(cursor: String, config: String?)
        /// A lookup answer: the generation only.
        case generationOnly
    }

    /// Writes upserts and deletions in one transaction with the state, and
    /// the lookup delta (every change since the base) before the commit; with
    /// `allowCompaction`, a delta past a hundredth of the base is replaced by
    /// a new base instead.
    private func applyChanges(
        _ changes: [Int64: LookupFile.Entry], state: StateUpdate, allowCompaction: Bool, failAfterWrites: Int?, outcome: SyncOutcome = SyncOutcome()
    ) throws -> SyncOutcome {
        var outcome = outcome
        let current = slot.current
        let generation = current.generation + 1
        var merged: [Int64: LookupFile.Entry] = [:]
        if let delta = current.delta { for (number, entry) in delta.entries() { merged[number] = entry } }
        merged.merge(changes) { _, new in new }
        let baseCount = current.base?.count ?? 0
        let compact = current.base == nil || (allowCompaction && merged.count > max(2_000, baseCount / 100))
        let pending = pendingPath(for: deltaPath)
        do {
            let writer = compact ? nil : try LookupFileWriter(path: pending, generation: generation, baseGeneration: current.base!.generation)
            try pool.write { db in
                var counter = WriteCounter(failAfter: failAfterWrites)
                let insert = try db.cachedStatement(sql: Self.upsertSQL)
                let delete = try db.cachedStatement(sql: "DELETE FROM branding WHERE number = ?")
                for number in changes.keys.sorted() {
                    switch changes[number]! {
                    case .record(let record):
                        try insert.execute(arguments: Self.upsertArguments(number, record))
                        outcome.stored += 1
                    case .removed:
                        try delete.execute(arguments: [number])
                        outcome.deleted += db.changesCount
                    }
                    try counter.wrote()
                }
                if let writer {
                    writer.reserve(merged.count)
                    for (number, entry) in merged { try writer.append(number, entry) }
                    try writer.finish()
                }
                switch state {
                case .sync(let cursor, let config):
                    try Self.writeState(db, cursor: cursor, config: config, kind: "incremental", generation: generation)
                case .generationOnly:
                    try db.execute(sql: "UPDATE sync_state SET generation = ? WHERE id = 1", arguments: [Int64(generation)])
                }
            }
        } catch {
            unlink(pending)
            throw Self.rejection(for: error)
        }
        afterCommit {
            if compact { return try rebuildBase(generation: generation) }
            guard rename(pending, deltaPath) == 0 else {
                unlink(pending)
                throw LookupFileWriter.Failure.system("rename", path: pending, errno: errno)
            }
            return LookupSnapshot(generation: generation, base: current.base, delta: try LookupFile(path: deltaPath))
        }
        return outcome
    }

    private static func writeState(_ db: Database, cursor: String, config: String?, kind: String, generation: UInt64) throws {
        try db.execute(
            sql: "INSERT OR REPLACE INTO sync_state (id, cursor, config, kind, generation) VALUES (1, ?, ?, ?, ?)",
            arguments: [cursor, config, kind, Int64(generation)])
    }

    /// A duplicate found by the lookup file's sort is the batch's fault: say so.
    private static func rejection(for error: Error) -> Error {
        if case LookupFileWriter.Failure.duplicateNumber(let number) = error { return SyncRejection.duplicateNumber("+\(number)") }
        return error
    }

    /// Moves a written base file into place; the snapshot that reads it.
    private func install(pending: String, generation: UInt64) throws -> LookupSnapshot {
        guard rename(pending, basePath) == 0 else {
            unlink(pending)
            throw LookupFileWriter.Failure.system("rename", path: pending, errno: errno)
        }
        unlink(deltaPath)
        return LookupSnapshot(generation: generation, base: try LookupFile(path: basePath), delta: nil)
    }

    /// Writes the base lookup file from the database (ascending by number,
    /// as the table is clustered by it) and swaps it in.
    private func rebuildBase(generation: UInt64) throws -> LookupSnapshot {
        let pending = pendingPath(for: basePath)
        do {
            let writer = try LookupFileWriter(path: pending, generation: generation)
            try pool.read { db in
                let rows = try Row.fetchCursor(db, sql: "SELECT \(Self.recordColumns), number FROM branding ORDER BY number")
                while let row = try rows.next() {
                    do {
                        try writer.append(row[6], .record(Self.record(row)))
                    } catch LookupFileWriter.Failure.fieldTooLong {
                        // Not written by this version (values are clamped in bytes
                        // too); a row no entry can hold must not stop the store opening.
                        continue
                    }
                }
            }
            try writer.finish()
        } catch {
            unlink(pending)
            throw error
        }
        return try install(pending: pending, generation: generation)
    }

    /// The lookup files that match the database's generation, or a base
    /// rebuilt from the database when they do not (a crash between a
    /// commit and the file swap, a torn or missing file).
    private func loadSnapshot() throws -> LookupSnapshot {
        removePendingFiles()
        let generation = try databaseGeneration()
        let base = try? LookupFile(path: basePath)
        if let base, base.baseGeneration == 0 {
            if base.generation == generation {
                unlink(deltaPath)
                return LookupSnapshot(generation: generation, base: base, delta: nil)
            }
            if let delta = try? LookupFile(path: deltaPath), delta.generation == generation, delta.baseGeneration == base.generation {
                return LookupSnapshot(generation: generation, base: base, delta: delta)
            }
        }
        return try rebuildBase(generation: generation)
    }

    /// Removes lookup files a process left half-written when it died.
    private func removePendingFiles() {
        let folder = (basePath as NSString).deletingLastPathComponent
        let prefixes = [(basePath as NSString).lastPathComponent + ".pending-", (deltaPath as NSString).lastPathComponent + ".pending-"]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where prefixes.contains(where: name.hasPrefix) {
            unlink((folder as NSString).appendingPathComponent(name))
        }
    }

    /// A failure injected by tests.
    struct InjectedFailure: Error {}

    /// What validation makes of an incoming record.
    enum Validation {
        /// Storable, with whether a value was clamped to fit a limit.
        case valid(BrandingRecord, clamped: Bool)
        /// Not storable, and why.
        case invalid(String)
    }

    static let notANumber = "phone_number_e164: not an E.164 number (+ and 1 to 15 digits)"

    /// The record with values clamped to the limits, and whether any was;
    /// invalid when it cannot be stored (an empty brand name, an id or an
    /// `updated_at` longer than one can be). The brand id may be empty: the
    /// iOS README lists it as optional, and lookup answers carry none.
    static func validate(_ incoming: IncomingBrandingRecord) -> Validation {
        let name = trimmed(incoming.brandName)
        guard !name.isEmpty else { return .invalid("brand_name: empty") }
        guard incoming.brandID.utf8.count <= BrandingRecord.Limits.brandID else {
            return .invalid("brand_id: longer than \(BrandingRecord.Limits.brandID) bytes")
        }
        guard incoming.updatedAt.utf8.count <= BrandingRecord.Limits.timestamp else {
            return .invalid("updated_at: longer than \(BrandingRecord.Limits.timestamp) bytes")
        }
        var clamped = false
        func clamp(_ text: String, _ limit: Int) -> String {
            // At most `limit` bytes is at most `limit` characters: no need to count them.
            guard text.utf8.count > limit else { return text }
            var result = text
            if text.count > limit {
                clamped = true
                result = String(text.prefix(limit))
            }
            // A character can be many bytes (a letter with hundreds of
            // combining marks): cap the bytes too, at four per allowed
            // character, cutting between scalars (one character alone may be
            // over the cap, and the text must not come out empty).
            let byteLimit = limit * 4
            guard result.utf8.count > byteLimit else { return result }
            clamped = true
            var bytes = 0
            var scalars = String.UnicodeScalarView()
            for scalar in result.unicodeScalars {
                bytes += String(scalar).utf8.count
                guard bytes <= byteLimit else { break }
                scalars.append(scalar)
            }
            return String(scalars)
        }
        var logo = incoming.logoURL
        if let url = logo, url.utf8.count > BrandingRecord.Limits.logoURL {
            // A cut URL points nowhere: drop it.
            logo = nil
            clamped = true
        }
        let record = BrandingRecord(
            e164: incoming.e164, brandName: clamp(name, BrandingRecord.Limits.brandName), brandID: incoming.brandID,
            logoURL: logo, callReason: incoming.callReason.map { clamp($0, BrandingRecord.Limits.callReason) }, updatedAt: incoming.updatedAt)
        return .valid(record, clamped: clamped)
    }

    /// `text` without leading and trailing white space; the text itself
    /// (no copy) when it starts and ends with a visible ASCII character,
    /// which is almost every brand name.
    private static func trimmed(_ text: String) -> String {
        let utf8 = text.utf8
        if let first = utf8.first, let last = utf8.last, first > 0x20, first < 0x7F, last > 0x20, last < 0x7F { return text }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    // MARK: Reads

    /// The record for a number, from the local lookup file only; nil when
    /// there is none or the text is not an E.164 number. Synchronous, safe
    /// from any thread, never touches the network or the database.
    public func lookup(e164: String) -> BrandingRecord? {
        guard let number = BrandingRecord.number(e164: e164) else { return nil }
        return slot.current.record(for: number)
    }

    /// Several lookups answered from one sync generation: a sync finishing
    /// meanwhile is seen by all of them or by none.
    public func lookup(e164s: [String]) -> [BrandingRecord?] {
        let snapshot = slot.current
        return e164s.map { text in BrandingRecord.number(e164: text).flatMap(snapshot.record(for:)) }
    }

    /// How many syncs this store has applied (0 before the first): the
    /// version lookups read, and what tells an exporter the dataset changed.
    public var syncGeneration: UInt64 { slot.current.generation }

    /// The cursor of the last applied sync (nil before the first: sync in full).
    public func cursor() throws -> String? {
        try pool.read { db in try String.fetchOne(db, sql: "SELECT cursor FROM sync_state WHERE id = 1") }
    }

    /// The server config stored with the last sync, as JSON.
    public func config() throws -> String? {
        try pool.read { db in try String.fetchOne(db, sql: "SELECT config FROM sync_state WHERE id = 1") }
    }

    /// How many records are stored.
    public func count() throws -> Int {
        try pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM branding") ?? 0 }
    }

    /// The distinct logo URLs of the stored records (what a logo cache
    /// prefetches after a sync), in ascending order.
    public func logoURLs() throws -> [String] {
        try pool.read { db in try String.fetchAll(db, sql: "SELECT DISTINCT logo_url FROM branding WHERE logo_url IS NOT NULL ORDER BY logo_url") }
    }

    /// Every stored record, ascending by number (for exports and checks).
    public func allRecords() throws -> [BrandingRecord] {
        try pool.read { db in
            try Row.fetchAll(db, sql: "SELECT \(Self.recordColumns) FROM branding ORDER BY number")
                .map(Self.record)
        }
    }

    /// Calls `body` with every stored number and brand name, ascending by
    /// number, from one consistent snapshot (a sync running meanwhile is not
    /// seen half-applied).
    public func forEachNumber(_ body: (Int64, String) throws -> Void) throws {
        try pool.read { db in
            let rows = try Row.fetchCursor(db, sql: "SELECT number, brand_name FROM branding ORDER BY number")
            while let row = try rows.next() { try body(row[0], row[1]) }
        }
    }

    /// The columns `record(_:)` reads, in its order.
    private static let recordColumns = "e164, brand_name, brand_id, logo_url, call_reason, updated_at"

    /// A record from a row that starts with ``recordColumns``.
    private static func record(_ row: Row) -> BrandingRecord {
        BrandingRecord(e164: row[0], brandName: row[1], brandID: row[2], logoURL: row[3], callReason: row[4], updatedAt: row[5])
    }
}
