import Foundation

/// One sync generation of the dataset as lookups see it: a base file and,
/// after incremental syncs, a small delta file that overlays it (changed
/// records and removed numbers). Immutable: a sync builds a new snapshot and
/// swaps it in whole, so a lookup (or a batch of lookups) that holds a
/// snapshot sees exactly one generation.
final class LookupSnapshot: Sendable {
    /// The sync generation this snapshot shows (0: nothing synced yet).
    let generation: UInt64
    let base: LookupFile?
    let delta: LookupFile?

    init(generation: UInt64, base: LookupFile?, delta: LookupFile?) {
        self.generation = generation
        self.base = base
        self.delta = delta
    }

    /// The record for `number`: the delta's entry when it has one, else the base's.
    func record(for number: Int64) -> BrandingRecord? {
        if let delta, let entry = delta.entry(for: number) {
            guard case .record(let record) = entry else { return nil }
            return record
        }
        guard case .record(let record)? = base?.entry(for: number) else { return nil }
        return record
    }
}

/// The current snapshot, swapped by syncs and read by any thread.
///
/// A lock rather than an actor: a lookup runs on the caller's thread with no
/// suspension (CallKit and notification extensions call synchronously), and
/// the critical section is one reference copy.
final class LookupSnapshotSlot: @unchecked Sendable {
    // `@unchecked Sendable` is safe: `snapshot` is read and written only
    // inside `lock.withLock`, and `LookupSnapshot` itself is immutable and
    // `Sendable`, so a reference taken out of the lock is safe to use.
    private let lock = NSLock()
    private var snapshot: LookupSnapshot

    init(_ snapshot: LookupSnapshot) {
        self.snapshot = snapshot
    }

    /// The snapshot lookups should read now.
    var current: LookupSnapshot {
        lock.withLock { snapshot }
    }

    /// Makes `snapshot` the one later lookups read; readers holding the
    /// previous one finish on it.
    func replace(with snapshot: LookupSnapshot) {
        lock.withLock { self.snapshot = snapshot }
    }
}
