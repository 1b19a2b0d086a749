import ClientRuntime
import DurableStore
import Foundation
import GRDB
import MobileTrackerAPI
import RuntimeSupport

/// The tracker's durable queue: every event, profile update and location
/// update is on disk before the call that made it returns, and is deleted
/// only after the server accepted it (or refused it for good).
///
/// - New rows go to an ``EventJournal`` first: one `write(2)` of a
///   checksummed record, a few microseconds on the caller's time, and as
///   safe against a kill as an SQLite commit in WAL mode with
///   `synchronous = NORMAL` (only a power loss right after a call can lose
///   it). A background import moves them into SQLite in batches, one
///   transaction per batch, recording the last journal sequence imported in
///   the same transaction, so a kill at any point neither loses a record nor
///   imports one twice. Delivery and counts import first, so they see every
///   row recorded before them.
/// - SQLite in WAL mode holds what waits for delivery; a row's id is its
///   journal sequence number, so id order is recording order.
/// - Order: rows are delivered by id, the order they were recorded in, so
///   each session's events arrive in order.
/// - Bounded: past ``Limits/maximumCount`` rows or ``Limits/maximumBytes``
///   of payload, the oldest rows are dropped and counted, so a device that
///   stays offline for months does not fill its disk.
final class EventQueue: Sendable {
    /// What is queued.
    enum Item: Codable, Sendable, Hashable {
        /// `POST /v2/tracking-session-data`.
        case event(name: String, data: [String: JSONValue]?)
        /// `PUT /v1/customer-profiles/set`.
        case profile(CustomerProfileUpdateRequest)
        /// `PUT /v2/tracking-session/{id}/location`.
        case location(LocationUpdateRequest)
    }

    /// A queued row.
    struct Entry: Sendable {
        let id: Int64
        let sessionID: String?
        let item: Item
    }

    /// The queue's bounds.
    struct Limits: Sendable {
        var maximumCount: Int
        var maximumBytes: Int
    }

    /// Counters kept with the queue (they survive restarts).
    struct Counts: Sendable, Hashable {
        var pending: Int
        var delivered: Int
        var droppedRejected: Int
        var droppedOverflow: Int
    }

    private let queue: DatabaseQueue
    private let journal: EventJournal
    private let limits: Limits
    /// Rows and payload bytes in SQLite, kept in memory so an import needs
    /// no count query.
    private let size: Locked<(count: Int, bytes: Int)>
    /// Held for a whole import, so batches go in one after another.
    private let importing = Locked(())
    /// Whether a background import is already scheduled.
    private let importScheduled = Locked(false)
    /// The oldest rows, read ahead of delivery in one query: delivery takes
    /// one row at a time, and a read per row cost as much as the row's
    /// request. It holds the `readAheadCount` oldest rows as they were when
    /// read and only shrinks from the front as rows are delivered or
    /// refused; any other change to those rows (an overflow drop, a session
    /// filled in) empties it, inside the same database transaction, and so
    /// does finding a row gone that another instance over the same files
    /// delivered (so at most that one row goes out twice, as before).
    /// New rows never belong in it: their ids come after every row in it.
    private let readAhead = Locked<[Entry]>([])

    /// Rows read per query for delivery (see `readAhead`).
    static let readAheadCount = 64

    /// Journal records that start a background import without waiting for
    /// the delay (it keeps the journal, which is outside the queue's bounds,
    /// small).
    static let importBatchSize = 512
    /// How long a background import waits after the first new record, so
    /// one transaction takes a burst of records.
    static let importDelay = Duration.milliseconds(50)

    /// Opens the queue: the SQLite database at `path` and its journal beside
    /// it (`path` with `.journal` in place of the extension).
    init(path: String, limits: Limits) throws {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: queue") { db in
            try db.execute(sql: """
                CREATE TABLE queue (
                    id INTEGER PRIMARY KEY,
                    session_id TEXT,
                    payload BLOB NOT NULL
                );
                CREATE TABLE counts (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    delivered INTEGER NOT NULL,
                    dropped_rejected INTEGER NOT NULL,
                    dropped_overflow INTEGER NOT NULL
                );
                INSERT INTO counts VALUES (1, 0, 0, 0);
                """)
        }
        migrator.registerMigration("v2: journal") { db in
            // Rows queued before the journal existed keep their ids; journal
            // sequence numbers continue after them.
            try db.execute(sql: """
                CREATE TABLE journal (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    imported_through INTEGER NOT NULL
                );
                INSERT INTO journal VALUES (1, COALESCE((SELECT MAX(id) FROM queue), 0));
                """)
        }
        // secure_delete: an event may hold what identifies the user (an id,
        // an email); once delivered and deleted, its bytes are overwritten.
        queue = try DurableDatabase.openQueue(path: path, label: "TrackerQueue", deletion: .overwrite, migrations: migrator)
        let importedThrough = try queue.read { db in try Int64.fetchOne(db, sql: "SELECT imported_through FROM journal")! }
        journal = try EventJournal(
            path: URL(fileURLWithPath: path).deletingPathExtension().appendingPathExtension("journal").path, importedThrough: importedThrough)
        self.limits = limits
        size = Locked((count: 0, bytes: 0))
        try reloadSize()
    }

    /// Reads the size counters from the database (at launch, and after a
    /// failed transaction that had already counted its changes).
    private func reloadSize() throws {
        let current = try queue.read { db in
            let row = try Row.fetchOne(db, sql: "SELECT COUNT(*), COALESCE(SUM(LENGTH(payload)), 0) FROM queue")!
            return (count: row[0] as Int, bytes: row[1] as Int)
        }
        size.withLock { $0 = current }
    }

    /// Records `item` (in the journal when this returns). `sessionID` nil:
    /// the session is not known yet; delivery fills in the current one.
    func append(_ item: Item, sessionID: String?) throws {
        let payload: [UInt8]
        if case .event(let name, let data) = item {
            payload = EventPayloadWriter.event(name: name, data: data)
        } else {
            payload = try [UInt8](JSONCoding.makeEncoder().encode(item))
        }
        let pending = try journal.append(sessionID: sessionID, payload: payload)
        scheduleImport(now: pending >= Self.importBatchSize)
    }

    /// Starts a background import unless one is scheduled already.
    private func scheduleImport(now: Bool) {
        guard importScheduled.withLock({ scheduled in
            defer { scheduled = true }
            return !scheduled
        }) else { return }
        Task.detached(priority: .utility) { [self] in
            if !now { try? await Task.sleep(for: Self.importDelay) }
            importScheduled.withLock { $0 = false }
            do {
                try importJournal()
            } catch {
                // The records stay in the journal; the next import retries.
            }
        }
    }

    /// Moves every journal record into SQLite (see the type's notes).
    func importJournal() throws {
        try importing.withLock { _ in
            // A batch left by an interrupted import comes first, then the live file's.
            for _ in 0..<2 {
                guard let records = try journal.takeBatch() else { return }
                do {
                    try insert(records)
                } catch {
                    try? reloadSize()
                    throw error
                }
                journal.finishBatch()
            }
        }
    }

    /// Inserts a batch of journal records, each at most once, in one transaction.
    private func insert(_ records: [EventJournal.Record]) throws {
        try queue.write { db in
            let through = try Int64.fetchOne(db, sql: "SELECT imported_through FROM journal")!
            let insert = try db.cachedStatement(sql: "INSERT INTO queue (id, session_id, payload) VALUES (?, ?, ?)")
            var last = through
            var added = (count: 0, bytes: 0)
            for record in records where record.sequence > through {
                try insert.execute(arguments: [record.sequence, record.sessionID, Data(record.payload)])
                last = max(last, record.sequence)
                added.count += 1
                added.bytes += record.payload.count
            }
            try db.execute(sql: "UPDATE journal SET imported_through = ?", arguments: [last])
            let over = size.withLock { size in
                size.count += added.count
                size.bytes += added.bytes
                return size.count > limits.maximumCount || size.bytes > limits.maximumBytes
            }
            if over {
                readAhead.withLock { $0.removeAll() }
                try dropOldest(db)
            }
        }
    }

    /// Imports when the journal holds records.
    private func importIfNeeded() throws {
        if journal.hasRecordsToImport { try importJournal() }
    }

    private func dropOldest(_ db: Database) throws {
        var dropped = 0
        while true {
            let over = size.withLock { $0.count > limits.maximumCount || $0.bytes > limits.maximumBytes }
            guard over, let row = try Row.fetchOne(db, sql: "SELECT id, LENGTH(payload) FROM queue ORDER BY id LIMIT 1") else { break }
            try db.execute(sql: "DELETE FROM queue WHERE id = ?", arguments: [row[0] as Int64])
            let bytes: Int = row[1]
            size.withLock { $0.count -= 1; $0.bytes -= bytes }
            dropped += 1
        }
        if dropped > 0 { try db.execute(sql: "UPDATE counts SET dropped_overflow = dropped_overflow + ?", arguments: [dropped]) }
    }

    /// The oldest rows, in order (at most `limit`, which delivery keeps at
    /// 1; a larger `limit` than the read-ahead holds reads afresh).
    func oldest(limit: Int) throws -> [Entry] {
        if let ahead = readAhead.withLock({ $0.count >= limit ? Array($0.prefix(limit)) : nil }) { return ahead }
        try importIfNeeded()
        return try queue.read { db in
            // Reads and writes share one connection, one at a time: no write
            // runs between this query and storing its rows.
            let decoder = JSONCoding.makeDecoder()
            let rows = try Row.fetchAll(
                db, sql: "SELECT id, session_id, payload FROM queue ORDER BY id LIMIT ?", arguments: [max(limit, Self.readAheadCount)]
            ).compactMap { row -> Entry? in
                // A payload this version cannot read is skipped, left in place.
                guard let item = try? decoder.decode(Item.self, from: row[2] as Data) else { return nil }
                return Entry(id: row[0], sessionID: row[1], item: item)
            }
            readAhead.withLock { $0 = rows }
            return Array(rows.prefix(limit))
        }
    }

    /// Removes a delivered row.
    func markDelivered(_ entry: Entry) throws { try remove(entry, counter: "delivered") }

    /// Removes a row the server refused for good.
    func markRejected(_ entry: Entry) throws { try remove(entry, counter: "dropped_rejected") }

    private func remove(_ entry: Entry, counter: String) throws {
        do {
            try queue.write { db in
                readAhead.withLock { ahead in
                    if ahead.first?.id == entry.id { ahead.removeFirst() } else { ahead.removeAll { $0.id == entry.id } }
                }
                let delete = try db.cachedStatement(sql: "DELETE FROM queue WHERE id = ? RETURNING LENGTH(payload)")
                guard let bytes = try Int.fetchOne(delete, arguments: [entry.id]) else {
                    // Another instance over the same files removed it: what
                    // was read ahead may be gone too, so read afresh.
                    readAhead.withLock { $0.removeAll() }
                    return
                }
                try db.execute(sql: "UPDATE counts SET \(counter) = \(counter) + 1")
                size.withLock { $0.count -= 1; $0.bytes -= bytes }
            }
            if size.withLock({ $0.count == 0 }) { eraseDeletedRows() }
        } catch {
            // The row may still be there: the next read starts from the
            // database again, so it comes first, as it did before.
            readAhead.withLock { $0.removeAll() }
            throw error
        }
    }

    /// Once no row waits, erases the removed rows from the write-ahead log
    /// too: `secure_delete` zeroes them in the database file, but the log
    /// keeps the pages they were written in (an email, a location) until it
    /// is checkpointed and truncated. Best effort: a failure leaves it to the
    /// next time the queue empties.
    private func eraseDeletedRows() {
        _ = try? queue.writeWithoutTransaction { try $0.checkpoint(.truncate) }
    }

    /// Gives rows recorded before the session was known the session `id`.
    func assignSession(_ id: String) throws {
        try importJournal()
        try queue.write { db in
            readAhead.withLock { $0.removeAll() }
            try db.execute(sql: "UPDATE queue SET session_id = ? WHERE session_id IS NULL", arguments: [id])
        }
    }

    /// Whether no row waits: what a flush polls. One row is read at most
    /// (the read-ahead answers first), where ``counts()`` counts every row,
    /// which with 100,000 queued rows held the database long enough, polled
    /// every 20 ms, to slow delivery itself.
    func isEmpty() throws -> Bool {
        try importIfNeeded()
        if readAhead.withLock({ !$0.isEmpty }) { return false }
        return try queue.read { db in try !Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM queue)")! }
    }

    /// The counters.
    func counts() throws -> Counts {
        try importIfNeeded()
        return try queue.read { db in
            let row = try Row.fetchOne(db, sql: "SELECT (SELECT COUNT(*) FROM queue), delivered, dropped_rejected, dropped_overflow FROM counts")!
            return Counts(pending: row[0], delivered: row[1], droppedRejected: row[2], droppedOverflow: row[3])
        }
    }
}

