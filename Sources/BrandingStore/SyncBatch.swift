import RuntimeSupport

/// What one sync response asks the store to do.
public struct SyncBatch: Sendable {
    /// How the records apply.
    public enum Kind: Sendable, Hashable {
        /// The records are the whole dataset: everything else is removed.
        case full
        /// The records changed since the cursor: active ones are upserted,
        /// inactive ones deleted.
        case incremental
    }

    /// Full or incremental.
    public var kind: Kind
    /// The records, as the server sent them.
    public var records: [IncomingBrandingRecord]
    /// The cursor to send as `since` next time (the response's `synced_at`).
    public var cursor: String
    /// The server's `config` object as JSON, stored with the dataset.
    public var config: String?

    /// Creates a batch.
    public init(kind: Kind, records: [IncomingBrandingRecord], cursor: String, config: String? = nil) {
        self.kind = kind
        self.records = records
        self.cursor = cursor
        self.config = config
    }
}

/// What applying a batch did.
public struct SyncOutcome: Sendable, Hashable {
    /// Records written (inserted or replaced).
    public var stored = 0
    /// Numbers removed because the server marked them inactive (incremental).
    public var deleted = 0
    /// Records that could not be applied (no readable number, no usable
    /// brand name, an unreadable `is_active`): each is listed in
    /// ``skippedRecords`` and brings ``retryPending``.
    public var skipped = 0
    /// Numbers whose stored branding an incremental sync removed because
    /// their new record could not be applied (counted in ``skipped`` too):
    /// no old brand shows for a number the server says changed.
    public var unbranded = 0
    /// Records stored with a value shortened or dropped to fit a limit.
    public var clamped = 0
    /// Optional fields (`logo_url`, `call_reason`, `brand_id`, `updated_at`)
    /// that were invalid and dropped, their records stored without them.
    public var droppedFields = 0
    /// Whether the next sync fetches this one's range again (from the cursor
    /// this sync started from, or in full) because a record could not be
    /// applied: the cursor never passes a record that was not applied.
    public var retryPending = false
    /// The first skipped records (at most ``reportedSkipsLimit``), by
    /// position in the response, with the reason each was skipped.
    public var skippedRecords: [SkippedRecord] = []

    /// How many skipped records ``skippedRecords`` lists; ``skipped`` counts them all.
    public static let reportedSkipsLimit = 100

    /// Creates an outcome.
    public init(stored: Int = 0, deleted: Int = 0, skipped: Int = 0, clamped: Int = 0, skippedRecords: [SkippedRecord] = []) {
        self.stored = stored
        self.deleted = deleted
        self.skipped = skipped
        self.clamped = clamped
        self.skippedRecords = skippedRecords
    }

    /// Counts a skipped record, listing it while the list has room.
    public mutating func skip(_ record: SkippedRecord) {
        skipped += 1
        if skippedRecords.count < Self.reportedSkipsLimit { skippedRecords.append(record) }
    }

    /// Adds skips found elsewhere (records that did not decode), keeping
    /// the list in response order.
    public mutating func merge(skips: [SkippedRecord], total: Int) {
        skipped += total
        if total > 0 { retryPending = true }
        skippedRecords = Array((skippedRecords + skips).sorted { $0.index < $1.index }.prefix(Self.reportedSkipsLimit))
    }
}

/// A record a sync left out, and why.
public struct SkippedRecord: Sendable, Hashable, CustomStringConvertible {
    /// Its position in the response's array (0-based).
    public var index: Int
    /// Why: the field at fault and what is wrong with it (no values, so
    /// no phone number is repeated).
    public var reason: String

    /// Creates a skipped record.
    public init(index: Int, reason: String) {
        self.index = index
        self.reason = reason
    }

    /// `record 12: updated_at: expected a date`.
    public var description: String { "record \(index): \(reason)" }
}

/// The cursor and config a sync stores with its records.
public struct SyncState: Sendable, Hashable {
    /// The cursor to send as `since` next time.
    public var cursor: String
    /// The server's `config` object as JSON.
    public var config: String?
    /// Records of the response that never reached the store (they did not
    /// decode and could not be salvaged): with any, the store keeps the
    /// point to fetch again from (``BrandingStore/nextSyncCursor()``).
    public var unreadableRecords: Int

    /// Creates a state.
    public init(cursor: String, config: String? = nil, unreadableRecords: Int = 0) {
        self.cursor = cursor
        self.config = config
        self.unreadableRecords = unreadableRecords
    }
}

/// Why a batch was refused; the store is unchanged when this is thrown.
public enum SyncRejection: Error, Sendable, Hashable, CustomStringConvertible {
    /// The same number appears twice in one batch, so which one wins is unknown.
    case duplicateNumber(String)
    /// The cursor is empty: the next incremental sync could not be asked for.
    case missingCursor

    /// What is wrong, with the number masked.
    public var description: String {
        switch self {
        case .duplicateNumber(let e164): return "sync refused: the number \(Self.mask(e164)) appears twice in one response"
        case .missingCursor: return "sync refused: the response has no cursor (synced_at)"
        }
    }

    /// `+*******5678`: every digit but the last four masked.
    static func mask(_ e164: String) -> String {
        PhoneMask.masked(e164)
    }
}
