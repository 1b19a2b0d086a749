import Foundation
import GRDB

/// Reads: lookups from the lookup file, and the database's contents.
extension BrandingStore {
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

    /// The `since` the next sync sends: the last cursor, unless a record of
    /// an earlier sync could not be applied; then the cursor that sync
    /// started from, or nil (a full sync) when it was full. See
    /// ``SyncOutcome/retryPending``.
    public func nextSyncCursor() throws -> String? {
        try pool.read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT cursor, retry_from FROM sync_state WHERE id = 1") else { return nil }
            let retryFrom: String? = row[1]
            if let retryFrom { return retryFrom.isEmpty ? nil : retryFrom }
            return row[0]
        }
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
    static let recordColumns = "e164, brand_name, brand_id, logo_url, call_reason, updated_at"

    /// A record from a row that starts with ``recordColumns``.
    static func record(_ row: Row) -> BrandingRecord {
        BrandingRecord(e164: row[0], brandName: row[1], brandID: row[2], logoURL: row[3], callReason: row[4], updatedAt: row[5])
    }
}
