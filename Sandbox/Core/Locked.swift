import Foundation

/// A value behind a lock: the sandbox's mutable state, shared by the
/// server's concurrent requests.
final class Locked<Value>: @unchecked Sendable {
    // Safe: `value` is only read and written inside `withLock`, which holds
    // `lock` for the whole access; no reference to it escapes the closure
    // except as a copy.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
