import DurableStore
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
    let pool: DatabasePool
    let slot: LookupSnapshotSlot
    /// One sync at a time: the transaction and the lookup-file swap after it.
    let syncLock = NSLock()
    let basePath: String
    let deltaPath: String

    /// Opens (or creates) the store at `path` and migrates it; the lookup
    /// files live beside it (`<path>.lookup`, `<path>.lookup-delta`).
    public init(path: String) throws {
        // secure_delete where free: the dataset holds businesses' published
        // numbers, not the user's; overwriting would rewrite every freed page
        // of the old dataset at each full sync (docs/Decisions.md, "Data at
        // rest"). A power loss may lose the last sync, which the next one
        // repeats from the kept cursor.
        pool = try DurableDatabase.openPool(path: path, label: "BrandingStore", deletion: .whereFree, migrations: Self.migrator)
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
        migrator.registerMigration("v3: the cursor to fetch again from after a record was not applied") { db in
            // NULL: none pending; '': the next sync is full; else the `since` to send.
            try db.execute(sql: "ALTER TABLE sync_state ADD COLUMN retry_from TEXT")
        }
        return migrator
    }
}
