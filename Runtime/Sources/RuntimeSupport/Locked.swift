import Foundation

/// A value behind a lock, for state that synchronous code on several threads
/// shares (a `Mutex` from the Synchronization module needs iOS 18; this
/// works from the package's floor, iOS 16).
///
/// ```swift
/// let counts = Locked([String: Int]())
/// counts.withLock { $0["sent", default: 0] += 1 }
/// ```
public final class Locked<Value>: @unchecked Sendable {
    // `@unchecked Sendable` is safe: `value` is only read and written inside
    // `withLock`, which holds `lock` for the whole access, and no reference to
    // it escapes the closure except as a copy.
    // Inlinable, so that a caller in another module gets a specialized call
    // (a lock taken on hot paths, such as every tracked event).
    @usableFromInline let lock = NSLock()
    @usableFromInline var value: Value

    /// Wraps `value`.
    public init(_ value: Value) { self.value = value }

    /// Runs `body` with the value, under the lock, and returns what it returns.
    @inlinable
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    /// A copy of the value, taken under the lock. Prefer it to
    /// `withLock { $0 }` for a value that is a closure: `withLock` passes the
    /// value `inout` through a generic function, and an unspecialized call
    /// re-wraps a stored closure in reabstraction thunks on every access,
    /// so a closure read thousands of times ends up thousands of calls deep.
    @inlinable
    public func read() -> Value {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
}
