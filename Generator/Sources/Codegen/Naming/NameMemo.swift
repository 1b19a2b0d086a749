import Foundation

/// Remembers the Swift names made from raw names: a large spec names the
/// same raw strings (`id`, `url`, `node_id`) thousands of times, and
/// splitting them into words again each time was a fifth of translation.
/// Safe to use from the rendering threads.
final class NameMemo: @unchecked Sendable {
    // @unchecked Sendable: `table` is read and written only while `lock` is
    // held, and `make` runs outside the lock on values it owns.
    private let lock = NSLock()
    private var table: [String: String] = [:]
    /// Beyond this many names the table starts over, so a process that
    /// generates many specs (tests, a build plugin host) stays bounded.
    private static let capacity = 200_000

    /// The name for `raw`, made by `make` the first time.
    func value(for raw: String, _ make: (String) -> String) -> String {
        lock.lock()
        let known = table[raw]
        lock.unlock()
        if let known { return known }
        let made = make(raw)
        lock.lock()
        if table.count >= Self.capacity { table.removeAll(keepingCapacity: true) }
        table[raw] = made
        lock.unlock()
        return made
    }
}
