import DurableStore
import Foundation
import GRDB
import SecureNodeAPI

/// Billing events (imprints and call events) on disk until the server has
/// them: each is written here first, with its `event_key` fixed at that
/// moment, and delivered later by ``OutboxDelivery``, which sends the same
/// key on every attempt and after any restart, so the server's dedupe by key
/// bills each event once.
///
/// Recording is one small SQLite transaction (WAL): no network, no waiting
/// for a delivery. Delivered events are removed; events the server states
/// are invalid (a 400 or 422 with its error body) are removed and counted.
package final class BillingOutbox: Sendable {
    /// Which endpoint an event goes to.
    package typealias Kind = BillingEventKind

    /// One event waiting for delivery.
    package struct Entry: Sendable, Hashable {
        /// The row id (delivery order among events due at the same time).
        package let id: Int64
        /// The endpoint.
        package let kind: Kind
        /// The key the server dedupes by; the same on every attempt.
        package let eventKey: String
        /// The request body as JSON, as recorded.
        package let payload: Data
        /// Attempts made so far.
        package let attempts: Int
        /// The key of an earlier event whose server `event_id` this one
        /// sends as `meta.call_event_id` (a returned call), if any.
        package let refersTo: String?
    }

    /// What the outbox holds and has done.
    package typealias Counts = BillingCounts

    private let queue: DatabaseQueue
    private let encoder = JSONCoding.makeEncoder()

    /// The wall clock deliveries are dated by (the SDK's `now`).
    private let now: @Sendable () -> Date

    /// Opens (or creates) the outbox database at `path`; `now` dates deliveries.
    package init(path: String, now: @escaping @Sendable () -> Date = { Date() }) throws {
        self.now = now
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: outbox") { db in
            try db.execute(sql: """
                CREATE TABLE outbox (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    event_key TEXT NOT NULL UNIQUE,
                    kind TEXT NOT NULL,
                    payload BLOB NOT NULL,
                    attempts INTEGER NOT NULL DEFAULT 0,
                    next_attempt_at REAL NOT NULL
                );
                CREATE INDEX outbox_due ON outbox (next_attempt_at, id);
                CREATE TABLE outbox_counts (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    delivered INTEGER NOT NULL,
                    dropped INTEGER NOT NULL
                );
                INSERT INTO outbox_counts (id, delivered, dropped) VALUES (1, 0, 0);
                """)
        }
        migrator.registerMigration("v2: follow-up events") { db in
            try db.execute(sql: """
                ALTER TABLE outbox ADD COLUMN refers_to TEXT;
                CREATE TABLE event_ids (
                    event_key TEXT PRIMARY KEY NOT NULL,
                    event_id TEXT NOT NULL,
                    delivered_at REAL NOT NULL
                );
                """)
        }
        // secure_delete: an event holds the caller's and the called number;
        // once delivered and deleted, its bytes are overwritten.
        queue = try DurableDatabase.openQueue(path: path, label: "BillingOutbox", deletion: .overwrite, migrations: migrator)
    }

    /// A new event key: a lowercase UUID.
    package static func makeEventKey() -> String { UUID().uuidString.lowercased() }

    /// Records an imprint for delivery; returns its event key (the request's).
    @discardableResult
    package func record(_ imprint: ImprintRequest) throws -> String {
        try insert(kind: .imprint, eventKey: imprint.eventKey, body: imprint)
    }

    /// Records a call event for delivery; an event without a key gets one
    /// now, and keeps it. Returns the key.
    ///
    /// With `refersTo`, the event follows up an earlier one (a returned
    /// call): it is sent with the earlier event's server `event_id` as
    /// `meta.call_event_id`, and waits for that event's delivery to learn it.
    @discardableResult
    package func record(_ event: UsageEventRequest, refersTo: String? = nil) throws -> String {
        var event = event
        let key = event.eventKey ?? Self.makeEventKey()
        event.eventKey = key
        return try insert(kind: .callEvent, eventKey: key, body: event, refersTo: refersTo)
    }

    private func insert(kind: Kind, eventKey: String, body: some Encodable, refersTo: String? = nil) throws -> String {
        let payload = try encoder.encode(body)
        try queue.write { db in
            // The same key recorded twice is the same event: keep the first.
            try db.execute(
                sql: "INSERT OR IGNORE INTO outbox (event_key, kind, payload, next_attempt_at, refers_to) VALUES (?, ?, ?, 0, ?)",
                arguments: [eventKey, kind.rawValue, payload, refersTo])
        }
        return eventKey
    }

    /// What a follow-up event can send for the event it refers to.
    package typealias Reference = BillingEventReference

    /// The state of the event recorded with `eventKey`, for follow-ups.
    package func reference(to eventKey: String) throws -> Reference {
        try queue.read { db in
            if let id = try String.fetchOne(db, sql: "SELECT event_id FROM event_ids WHERE event_key = ?", arguments: [eventKey]) {
                return .delivered(eventID: id)
            }
            let pending = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM outbox WHERE event_key = ?)", arguments: [eventKey]) ?? false
            return pending ? .pending : .unknown
        }
    }

    /// Events whose next attempt is due at `now`, oldest first.
    package func due(at now: Date, limit: Int = 32) throws -> [Entry] {
        try queue.read { db in
            try Row.fetchAll(db, sql: """
                SELECT id, kind, event_key, payload, attempts, refers_to FROM outbox
                WHERE next_attempt_at <= ? ORDER BY next_attempt_at, id LIMIT ?
                """, arguments: [now.timeIntervalSince1970, limit])
                .map { row in
                    Entry(id: row[0], kind: Kind(rawValue: row[1]) ?? .callEvent, eventKey: row[2], payload: row[3], attempts: row[4], refersTo: row[5])
                }
        }
    }

    /// When the earliest pending event is due; nil when none is pending.
    package func nextAttemptDate() throws -> Date? {
        try queue.read { db in
            try Double.fetchOne(db, sql: "SELECT MIN(next_attempt_at) FROM outbox").map(Date.init(timeIntervalSince1970:))
        }
    }

    /// Removes a delivered event, keeping the server's `event_id` for
    /// follow-ups that refer to it. The last one out erases what the
    /// deleted events left (see `eraseDeletedIfEmpty`).
    package func markDelivered(_ entry: Entry, eventID: String? = nil) throws {
        defer { eraseDeletedIfEmpty() }
        try queue.write { db in
            try db.execute(sql: "DELETE FROM outbox WHERE id = ?", arguments: [entry.id])
            guard db.changesCount > 0 else { return }
            try db.execute(sql: "UPDATE outbox_counts SET delivered = delivered + 1")
            if let eventID {
                try db.execute(
                    sql: "INSERT OR REPLACE INTO event_ids (event_key, event_id, delivered_at) VALUES (?, ?, ?)",
                    arguments: [entry.eventKey, eventID, now().timeIntervalSince1970])
            }
        }
    }

    /// Removes an event the server refused for good, counting it.
    package func markDropped(_ entry: Entry) throws {
        defer { eraseDeletedIfEmpty() }
        try queue.write { db in
            try db.execute(sql: "DELETE FROM outbox WHERE id = ?", arguments: [entry.id])
            if db.changesCount > 0 { try db.execute(sql: "UPDATE outbox_counts SET dropped = dropped + 1") }
        }
    }

    /// Once no event waits, erases the deleted events' numbers from the
    /// write-ahead log too: `secure_delete` zeroes them in the database
    /// file, but the log keeps the pages they were written in until it is
    /// checkpointed and truncated. Best effort: a reader holding the log
    /// open defers it to the next time the outbox empties.
    func eraseDeletedIfEmpty() {
        guard (try? queue.read({ try Bool.fetchOne($0, sql: "SELECT NOT EXISTS (SELECT 1 FROM outbox)") })) == true else { return }
        _ = try? queue.writeWithoutTransaction { try $0.checkpoint(.truncate) }
    }

    /// Keeps an event for another attempt at `date`; `countingAttempt`
    /// false when the attempt says nothing about the event (delivery paused).
    package func reschedule(_ entry: Entry, at date: Date, countingAttempt: Bool = true) throws {
        try queue.write { db in
            try db.execute(
                sql: "UPDATE outbox SET attempts = attempts + ?, next_attempt_at = ? WHERE id = ?",
                arguments: [countingAttempt ? 1 : 0, date.timeIntervalSince1970, entry.id])
        }
    }

    /// Makes every event waiting out a backoff due at `date` (connectivity
    /// came back: waits counted while the device was offline are moot).
    /// Attempts are kept, so later backoffs still grow. Returns how many moved.
    @discardableResult
    package func makeAllDue(at date: Date) throws -> Int {
        try queue.write { db in
            try db.execute(sql: "UPDATE outbox SET next_attempt_at = ? WHERE next_attempt_at > ?", arguments: [date.timeIntervalSince1970, date.timeIntervalSince1970])
            return db.changesCount
        }
    }

    /// Pending, delivered and dropped counts.
    package func counts() throws -> Counts {
        try queue.read { db in
            let pending = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM outbox") ?? 0
            let row = try Row.fetchOne(db, sql: "SELECT delivered, dropped FROM outbox_counts WHERE id = 1")
            return Counts(pending: pending, delivered: row?[0] ?? 0, dropped: row?[1] ?? 0)
        }
    }
}
