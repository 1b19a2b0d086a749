import Foundation
import GRDB

/// Syncs: a batch (full or incremental) applied in one transaction with its
/// cursor and the next lookup file, and lookup answers stored between syncs.
extension BrandingStore {
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
              case .valid(let record, _, _) = Self.validate(incoming)
        else { return false }
        return try syncLock.withLock {
            try repairSnapshotIfStale()
            guard slot.current.generation > 0 else { return false }
            _ = try applyChanges([number: .record(record)], state: .generationOnly, allowCompaction: false, failAfterWrites: nil)
            return true
        }
    }

    /// The generation the database holds (0 before the first sync).
    func databaseGeneration() throws -> UInt64 {
        try pool.read { db in
            try Int64.fetchOne(db, sql: "SELECT generation FROM sync_state WHERE id = 1")
        }.map { UInt64($0) } ?? 0
    }

    /// Reloads (or rebuilds) the lookup files when the snapshot lags the
    /// database: after a failure between a commit and its file swap, the
    /// next sync starts from files that match the database again.
    func repairSnapshotIfStale() throws {
        if slot.current.generation != (try databaseGeneration()) { slot.replace(with: try loadSnapshot()) }
    }

    /// Runs the file swap after a commit. The sync is committed whatever
    /// happens here; the lookup files are derived, so a failure (a rename,
    /// a mapping) is repaired from the database at once, or before the next
    /// sync, or at the next open.
    func afterCommit(_ swap: () throws -> LookupSnapshot) {
        do {
            slot.replace(with: try swap())
        } catch {
            if let repaired = try? loadSnapshot() { slot.replace(with: repaired) }
        }
    }

    /// A fresh name for a file being written (one per write, so two writers
    /// never truncate each other's file).
    func pendingPath(for path: String) -> String { path + ".pending-" + UUID().uuidString }

    /// Counts row writes and throws the injected failure once past the limit.
    struct WriteCounter {
        let failAfter: Int?
        var writes = 0
        mutating func wrote() throws {
            writes += 1
            if let failAfter, writes > failAfter { throw InjectedFailure() }
        }
    }

    static let upsertSQL = """
        INSERT INTO branding (number, e164, brand_name, brand_id, logo_url, call_reason, updated_at)
        VALUES (?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (number) DO UPDATE SET e164 = excluded.e164, brand_name = excluded.brand_name,
            brand_id = excluded.brand_id, logo_url = excluded.logo_url, call_reason = excluded.call_reason,
            updated_at = excluded.updated_at
        """

    /// The arguments of ``upsertSQL`` for a record.
    static func upsertArguments(_ number: Int64, _ record: BrandingRecord) -> StatementArguments {
        [number, record.e164, record.brandName, record.brandID, record.logoURL, record.callReason, record.updatedAt]
    }

    /// Replaces the dataset: rows and the next base lookup file are written
    /// in one pass over the records; a number twice (found when the file's
    /// index is sorted) refuses the batch before the commit.
    func applyFull<Records: Sequence<IncomingBrandingRecord>>(
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
                    if let reason = incoming.unusableReason {
                        outcome.skip(SkippedRecord(index: incoming.sourceIndex ?? position, reason: reason))
                        continue
                    }
                    guard incoming.isActive else { continue }
                    let record: BrandingRecord
                    switch Self.validate(incoming) {
                    case .invalid(let reason):
                        outcome.skip(SkippedRecord(index: incoming.sourceIndex ?? position, reason: reason))
                        continue
                    case .valid(let valid, let wasClamped, let dropped):
                        record = valid
                        if wasClamped { outcome.clamped += 1 }
                        outcome.droppedFields += dropped
                    }
                    try insert.execute(arguments: Self.upsertArguments(number, record))
                    try writer.append(number, .record(record))
                    try counter.wrote()
                    outcome.stored += 1
                }
                let final = try state()
                try writer.finish()
                outcome.retryPending = outcome.skipped > 0 || final.unreadableRecords > 0
                try Self.writeState(
                    db, cursor: final.cursor, config: final.config, kind: "full", generation: generation, retry: outcome.retryPending)
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
    func applyIncremental<Records: Sequence<IncomingBrandingRecord>>(
        _ records: Records, state: () throws -> SyncState, failAfterWrites: Int?
    ) throws -> SyncOutcome {
        var outcome = SyncOutcome()
        var changes: [Int64: LookupFile.Entry] = [:]
        var unbranded: Set<Int64> = []
        var position = -1
        for incoming in records {
            position += 1
            guard let number = BrandingRecord.number(e164: incoming.e164) else {
                outcome.skip(SkippedRecord(index: incoming.sourceIndex ?? position, reason: Self.notANumber))
                continue
            }
            guard changes[number] == nil else { throw SyncRejection.duplicateNumber(incoming.e164) }
            if let reason = incoming.unusableReason {
                outcome.skip(SkippedRecord(index: incoming.sourceIndex ?? position, reason: reason))
                changes[number] = .removed
                unbranded.insert(number)
                continue
            }
            if !incoming.isActive {
                changes[number] = .removed
                continue
            }
            switch Self.validate(incoming) {
            case .invalid(let reason):
                // The server says this number changed and the change cannot be shown: no old brand either.
                outcome.skip(SkippedRecord(index: incoming.sourceIndex ?? position, reason: reason))
                changes[number] = .removed
                unbranded.insert(number)
            case .valid(let record, let wasClamped, let dropped):
                if wasClamped { outcome.clamped += 1 }
                outcome.droppedFields += dropped
                changes[number] = .record(record)
            }
        }
        let final = try state()
        outcome.retryPending = outcome.skipped > 0 || final.unreadableRecords > 0
        return try applyChanges(
            changes, state: .sync(cursor: final.cursor, config: final.config, retry: outcome.retryPending), allowCompaction: true,
            failAfterWrites: failAfterWrites, outcome: outcome, unbranded: unbranded)
    }

    /// What a change set writes to `sync_state` besides the generation.
    enum StateUpdate {
        /// A sync: its cursor and config, and whether a record of it was not
        /// applied (the range is fetched again next time).
        case sync(cursor: String, config: String?, retry: Bool)
        /// A lookup answer: the generation only.
        case generationOnly
    }

    /// Writes upserts and deletions in one transaction with the state, and
    /// the lookup delta (every change since the base) before the commit; with
    /// `allowCompaction`, a delta past a hundredth of the base is replaced by
    /// a new base instead.
    func applyChanges(
        _ changes: [Int64: LookupFile.Entry], state: StateUpdate, allowCompaction: Bool, failAfterWrites: Int?, outcome: SyncOutcome = SyncOutcome(),
        unbranded: Set<Int64> = []
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
                        if unbranded.contains(number) {
                            outcome.unbranded += db.changesCount
                        } else {
                            outcome.deleted += db.changesCount
                        }
                    }
                    try counter.wrote()
                }
                if let writer {
                    writer.reserve(merged.count)
                    for (number, entry) in merged { try writer.append(number, entry) }
                    try writer.finish()
                }
                switch state {
                case .sync(let cursor, let config, let retry):
                    try Self.writeState(db, cursor: cursor, config: config, kind: "incremental", generation: generation, retry: retry)
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

    /// Writes the sync's state. With `retry`, the point to fetch again
    /// from is kept: an earlier one still pending, else the cursor this
    /// sync started from ('' when it had none: the next sync is full).
    static func writeState(_ db: Database, cursor: String, config: String?, kind: String, generation: UInt64, retry: Bool) throws {
        var retryFrom: String?
        if retry {
            let prior = try Row.fetchOne(db, sql: "SELECT cursor, retry_from FROM sync_state WHERE id = 1")
            retryFrom = (prior?[1] as String?) ?? (kind == "full" ? "" : (prior?[0] as String?) ?? "")
        }
        try db.execute(
            sql: "INSERT OR REPLACE INTO sync_state (id, cursor, config, kind, generation, retry_from) VALUES (1, ?, ?, ?, ?, ?)",
            arguments: [cursor, config, kind, Int64(generation), retryFrom])
    }

    /// A duplicate found by the lookup file's sort is the batch's fault: say so.
    static func rejection(for error: Error) -> Error {
        if case LookupFileWriter.Failure.duplicateNumber(let number) = error { return SyncRejection.duplicateNumber("+\(number)") }
        return error
    }
}
