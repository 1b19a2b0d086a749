import Foundation
import GRDB

/// The device's branding dataset in SQLite (WAL, a `DatabasePool`): records
/// keyed by number, the sync cursor and the server config.
///
/// Every sync applies in one write transaction together with its cursor, so
/// a reader sees the old dataset or the new one, never a mix, and a failure
/// (or a crash) at any point leaves the previous dataset and cursor. Reads
/// run concurrently with a sync on the previous snapshot.
public final class BrandingStore: Sendable {
    private let pool: DatabasePool
    /// A read-only connection for lookups: one statement each, no
    /// transaction to open and no pooled connection to borrow, which is what
    /// keeps a lookup in microseconds. WAL lets it read while a sync writes;
    /// each statement sees the last committed dataset whole.
    private let lookupConnection: DatabaseQueue

    /// Opens (or creates) the store at `path` and migrates it.
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
        var readOnly = Configuration()
        readOnly.readonly = true
        readOnly.label = "BrandingStore.lookup"
        lookupConnection = try DatabaseQueue(path: path, configuration: readOnly)
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
        return migrator
    }

    // MARK: Sync

    /// Applies a sync batch atomically with its cursor. Invalid records are
    /// skipped and counted; a batch that cannot be applied as a whole throws
    /// ``SyncRejection`` and changes nothing.
    @discardableResult
    public func apply(_ batch: SyncBatch) throws -> SyncOutcome {
        try apply(batch, failAfterWrites: nil)
    }

    /// `apply`, with a failure injected after `failAfterWrites` row writes
    /// (tests prove the rollback with it).
    func apply(_ batch: SyncBatch, failAfterWrites: Int?) throws -> SyncOutcome {
        guard !batch.cursor.isEmpty else { throw SyncRejection.missingCursor }
        var outcome = SyncOutcome()
        var upserts: [(Int64, BrandingRecord)] = []
        var deletions: [Int64] = []
        var seen = Set<Int64>()
        upserts.reserveCapacity(batch.records.count)
        for incoming in batch.records {
            guard let number = BrandingRecord.number(e164: incoming.e164) else {
                outcome.skipped += 1
                continue
            }
            guard seen.insert(number).inserted else { throw SyncRejection.duplicateNumber(incoming.e164) }
            if !incoming.isActive {
                deletions.append(number)
                continue
            }
            guard let (record, wasClamped) = Self.validated(incoming) else {
                outcome.skipped += 1
                continue
            }
            if wasClamped { outcome.clamped += 1 }
            upserts.append((number, record))
        }
        try pool.write { db in
            var writes = 0
            func wrote() throws {
                writes += 1
                if let failAfterWrites, writes > failAfterWrites { throw InjectedFailure() }
            }
            if batch.kind == .full { try db.execute(sql: "DELETE FROM branding") }
            let insert = try db.cachedStatement(sql: """
                INSERT INTO branding (number, e164, brand_name, brand_id, logo_url, call_reason, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (number) DO UPDATE SET e164 = excluded.e164, brand_name = excluded.brand_name,
                    brand_id = excluded.brand_id, logo_url = excluded.logo_url, call_reason = excluded.call_reason,
                    updated_at = excluded.updated_at
                """)
            for (number, record) in upserts {
                try insert.execute(arguments: [number, record.e164, record.brandName, record.brandID, record.logoURL, record.callReason, record.updatedAt])
                try wrote()
            }
            if batch.kind == .incremental {
                let delete = try db.cachedStatement(sql: "DELETE FROM branding WHERE number = ?")
                for number in deletions {
                    try delete.execute(arguments: [number])
                    outcome.deleted += db.changesCount
                    try wrote()
                }
            }
            try db.execute(
                sql: "INSERT OR REPLACE INTO sync_state (id, cursor, config, kind) VALUES (1, ?, ?, ?)",
                arguments: [batch.cursor, batch.config, batch.kind == .full ? "full" : "incremental"])
        }
        outcome.stored = upserts.count
        return outcome
    }

    /// A failure injected by tests.
    struct InjectedFailure: Error {}

    /// The record with values clamped to the limits, and whether any was;
    /// nil when it cannot be stored (empty brand name or id).
    static func validated(_ incoming: IncomingBrandingRecord) -> (BrandingRecord, Bool)? {
        let name = incoming.brandName.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty, !incoming.brandID.isEmpty else { return nil }
        var clamped = false
        func clamp(_ text: String, _ limit: Int) -> String {
            guard text.count > limit else { return text }
            clamped = true
            return String(text.prefix(limit))
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
        return (record, clamped)
    }

    // MARK: Reads

    /// The record for a number, from the local store only; nil when there is
    /// none or the text is not an E.164 number. Never touches the network.
    public func lookup(e164: String) -> BrandingRecord? {
        guard let number = BrandingRecord.number(e164: e164) else { return nil }
        return try? lookupConnection.inDatabase { db in
            let statement = try db.cachedStatement(sql: """
                SELECT e164, brand_name, brand_id, logo_url, call_reason, updated_at FROM branding WHERE number = ?
                """)
            return try Row.fetchOne(statement, arguments: [number]).map(Self.record)
        }
    }

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

    /// Every stored record, ascending by number (for exports and checks).
    public func allRecords() throws -> [BrandingRecord] {
        try pool.read { db in
            try Row.fetchAll(db, sql: "SELECT e164, brand_name, brand_id, logo_url, call_reason, updated_at FROM branding ORDER BY number")
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

    private static func record(_ row: Row) -> BrandingRecord {
        BrandingRecord(e164: row[0], brandName: row[1], brandID: row[2], logoURL: row[3], callReason: row[4], updatedAt: row[5])
    }
}
