import GRDB

/// The one way the SDKs open a SQLite database they keep data in (the
/// branding dataset, the billing outbox, the tracker's queue): the same
/// lock wait, journal, durability and deletion rules, then the store's
/// migrations, so a rule changes in one place.
///
/// - **Lock wait**: another process (an app extension) or a closing
///   instance may hold the lock for a moment; opens and writes wait up to
///   5 seconds for it rather than fail.
/// - **WAL with `synchronous = NORMAL`**: a committed transaction survives
///   the app being killed (the WAL replays whole transactions only); only a
///   power loss right after a commit can lose it. WAL is a property of the
///   file, set once when a store opens: a pool's readers do not ask again
///   (GRDB's `DatabasePool` sets it on its writer), and a queue's one
///   connection sets it before its migrations.
/// - **`secure_delete`**: ``Deletion`` says how deleted rows' bytes go.
package enum DurableDatabase {
    /// What happens to the bytes of deleted rows.
    package enum Deletion: String, Sendable {
        /// Overwritten with zeros (`secure_delete = ON`): for rows that hold
        /// what identifies a person (a caller's number, a user's id), so a
        /// delivered and deleted row does not linger in the file's free pages.
        case overwrite = "ON"
        /// Zeroed where that costs no extra I/O (`secure_delete = FAST`): for
        /// published data that is rewritten whole (the branding dataset),
        /// where `overwrite` would rewrite every freed page at each full sync.
        case whereFree = "FAST"
    }

    /// The configuration every store opens with; `label` names its
    /// connections in GRDB's traces.
    package static func configuration(label: String, deletion: Deletion) -> Configuration {
        var configuration = Configuration()
        configuration.label = label
        configuration.busyMode = .timeout(5)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL; PRAGMA secure_delete = \(deletion.rawValue)")
        }
        return configuration
    }

    /// Opens (or creates) the database at `path` as one serial connection
    /// and brings it to the latest of `migrations`.
    package static func openQueue(path: String, label: String, deletion: Deletion, migrations: DatabaseMigrator) throws -> DatabaseQueue {
        let queue = try DatabaseQueue(path: path, configuration: configuration(label: label, deletion: deletion))
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA journal_mode = WAL")
        }
        try migrations.migrate(queue)
        return queue
    }

    /// Opens (or creates) the database at `path` as a pool (readers beside
    /// the one writer) and brings it to the latest of `migrations`.
    package static func openPool(path: String, label: String, deletion: Deletion, migrations: DatabaseMigrator) throws -> DatabasePool {
        let pool = try DatabasePool(path: path, configuration: configuration(label: label, deletion: deletion))
        try migrations.migrate(pool)
        return pool
    }
}
