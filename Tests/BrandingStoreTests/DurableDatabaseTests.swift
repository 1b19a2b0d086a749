import DurableStore
import Foundation
import GRDB
import Testing

/// The rules every durable store opens with (``DurableDatabase``), read back
/// from SQLite on each kind of connection a store uses: a queue's one
/// connection, a pool's writer and a pool's reader.
@Suite struct DurableDatabaseTests {
    /// Runs `body` with a fresh database path in a temporary folder of its
    /// own, removed afterwards.
    static func withFreshPath(_ body: (String) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("durable-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try body(folder.appendingPathComponent("store.sqlite").path)
    }

    /// One table, so the migrator has something to bring the file to.
    static var migrations: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in try db.execute(sql: "CREATE TABLE row (id INTEGER PRIMARY KEY)") }
        return migrator
    }

    /// The pragmas of one connection, as SQLite reports them.
    struct Pragmas: Equatable, CustomStringConvertible {
        var journalMode: String
        var synchronous: Int
        var secureDelete: Int
        var busyTimeout: Int

        init(_ db: Database) throws {
            journalMode = try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? "?"
            synchronous = try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? -1
            secureDelete = try Int.fetchOne(db, sql: "PRAGMA secure_delete") ?? -1
            busyTimeout = try Int.fetchOne(db, sql: "PRAGMA busy_timeout") ?? -1
        }

        init(journalMode: String, synchronous: Int, secureDelete: Int, busyTimeout: Int) {
            self.journalMode = journalMode
            self.synchronous = synchronous
            self.secureDelete = secureDelete
            self.busyTimeout = busyTimeout
        }

        var description: String {
            "journal_mode=\(journalMode) synchronous=\(synchronous) secure_delete=\(secureDelete) busy_timeout=\(busyTimeout)"
        }
    }

    /// WAL, `synchronous = NORMAL` (1), the 5 s lock wait, and the deletion
    /// rule asked for (`secure_delete` ON is 1, FAST is 2).
    static func expected(_ deletion: DurableDatabase.Deletion) -> Pragmas {
        Pragmas(journalMode: "wal", synchronous: 1, secureDelete: deletion == .overwrite ? 1 : 2, busyTimeout: 5000)
    }

    @Test(arguments: [DurableDatabase.Deletion.overwrite, .whereFree])
    func aQueueOpensWithEveryRule(deletion: DurableDatabase.Deletion) throws {
        try Self.withFreshPath { path in
            let queue = try DurableDatabase.openQueue(path: path, label: "Test", deletion: deletion, migrations: Self.migrations)
            let connection = try queue.read(Pragmas.init)
            #expect(connection == Self.expected(deletion), "the queue's connection")
            #expect(try queue.read { try $0.tableExists("row") }, "the migrations ran")
        }
    }

    @Test(arguments: [DurableDatabase.Deletion.overwrite, .whereFree])
    func aPoolsWriterAndReadersOpenWithEveryRule(deletion: DurableDatabase.Deletion) throws {
        try Self.withFreshPath { path in
            let pool = try DurableDatabase.openPool(path: path, label: "Test", deletion: deletion, migrations: Self.migrations)
            let writer = try pool.writeWithoutTransaction(Pragmas.init)
            #expect(writer == Self.expected(deletion), "the writer")
            // GRDB gives its readers a longer lock wait of its own (they may wait
            // out a checkpoint); the other rules are the store's.
            var reader = try pool.read(Pragmas.init)
            #expect(reader.busyTimeout >= 5000, "a reader waits for a lock at least as long as the writer")
            reader.busyTimeout = 5000
            #expect(reader == Self.expected(deletion), "a reader")
            #expect(try pool.read { try $0.tableExists("row") }, "the migrations ran")
        }
    }

    @Test func aQueueReopenedOnAPoolsFileKeepsWAL() throws {
        // WAL is a property of the file: a store opened later as a queue (an
        // app extension's) finds it set, and the pool's file stays WAL.
        try Self.withFreshPath { path in
            do { _ = try DurableDatabase.openPool(path: path, label: "Test", deletion: .whereFree, migrations: Self.migrations) }
            let queue = try DurableDatabase.openQueue(path: path, label: "Test", deletion: .whereFree, migrations: Self.migrations)
            #expect(try queue.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") } == "wal")
        }
    }
}
