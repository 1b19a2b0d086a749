import ClientRuntime
import Foundation
import GRDB
import MobileTrackerAPI

/// The tracker's durable queue: every event, profile update and location
/// update is a row in SQLite before the call that made it returns, and is
/// deleted only after the server accepted it (or refused it for good).
///
/// - WAL with `synchronous = NORMAL`: a committed row survives the app being
///   killed (the kill test SIGKILLs a delivering process 100 times); only a
///   power loss right after a call can lose it.
/// - Each append is one statement in autocommit mode, and the table has no
///   `AUTOINCREMENT` (whose bookkeeping row is a second page written per
///   commit): about 33 us per append here, down from 50. Row ids still only
///   grow while rows exist, so id order is recording order.
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
    private let limits: Limits
    /// Rows and payload bytes, kept in memory so an insert needs no count query.
    private let size: Locked<(count: Int, bytes: Int)>

    init(path: String, limits: Limits) throws {
        var configuration = Configuration()
        configuration.label = "TrackerQueue"
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL")
        }
        queue = try DatabaseQueue(path: path, configuration: configuration)
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
        try migrator.migrate(queue)
        self.limits = limits
        let current = try queue.read { db in
            let row = try Row.fetchOne(db, sql: "SELECT COUNT(*), COALESCE(SUM(LENGTH(payload)), 0) FROM queue")!
            return (count: row[0] as Int, bytes: row[1] as Int)
        }
        size = Locked(current)
    }

    /// Records `item` (committed when this returns). `sessionID` nil: the
    /// session is not known yet; delivery fills in the current one.
    func append(_ item: Item, sessionID: String?) throws {
        let payload: Data
        if case .event(let name, let data) = item {
            payload = Data(EventPayloadWriter.event(name: name, data: data))
        } else {
            payload = try JSONCoding.makeEncoder().encode(item)
        }
        let overflow = size.withLock { size -> Bool in
            size.count += 1
            size.bytes += payload.count
            return size.count > limits.maximumCount || size.bytes > limits.maximumBytes
        }
        // One statement in autocommit mode: SQLite's own implicit
        // transaction, without GRDB's BEGIN and COMMIT around it.
        try queue.writeWithoutTransaction { db in
            try db.cachedStatement(sql: "INSERT INTO queue (session_id, payload) VALUES (?, ?)").execute(arguments: [sessionID, payload])
            if overflow { try db.inTransaction { try self.dropOldest(db); return .commit } }
        }
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

    /// The oldest rows, in order.
    func oldest(limit: Int) throws -> [Entry] {
        try queue.read { db in
            try Row.fetchAll(db, sql: "SELECT id, session_id, payload FROM queue ORDER BY id LIMIT ?", arguments: [limit]).compactMap { row in
                guard let item = try? JSONCoding.makeDecoder().decode(Item.self, from: row[2] as Data) else { return nil }
                return Entry(id: row[0], sessionID: row[1], item: item)
            }
        }
    }

    /// Removes a delivered row.
    func markDelivered(_ entry: Entry) throws { try remove(entry, counter: "delivered") }

    /// Removes a row the server refused for good.
    func markRejected(_ entry: Entry) throws { try remove(entry, counter: "dropped_rejected") }

    private func remove(_ entry: Entry, counter: String) throws {
        try queue.write { db in
            guard let bytes = try Int.fetchOne(db, sql: "SELECT LENGTH(payload) FROM queue WHERE id = ?", arguments: [entry.id]) else { return }
            try db.execute(sql: "DELETE FROM queue WHERE id = ?", arguments: [entry.id])
            try db.execute(sql: "UPDATE counts SET \(counter) = \(counter) + 1")
            size.withLock { $0.count -= 1; $0.bytes -= bytes }
        }
    }

    /// Gives rows recorded before the session was known the session `id`.
    func assignSession(_ id: String) throws {
        try queue.write { db in try db.execute(sql: "UPDATE queue SET session_id = ? WHERE session_id IS NULL", arguments: [id]) }
    }

    /// The counters.
    func counts() throws -> Counts {
        try queue.read { db in
            let row = try Row.fetchOne(db, sql: "SELECT (SELECT COUNT(*) FROM queue), delivered, dropped_rejected, dropped_overflow FROM counts")!
            return Counts(pending: row[0], delivered: row[1], droppedRejected: row[2], droppedOverflow: row[3])
        }
    }
}

