import Foundation

/// A value behind a lock, for the doubles' state that server threads share.
///
/// `@unchecked Sendable` is safe: `value` is only read or written inside
/// `withLock`, which holds `lock` for the whole access.
package final class LockedValue<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    /// Wraps `value`.
    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value while holding the lock.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

extension JSONText {
    /// A JSON object from a request body, or nil.
    static func object(_ bytes: [UInt8]) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any]
    }

    /// JSON text for `value`.
    static func text(_ value: Any) -> String {
        precondition(JSONSerialization.isValidJSONObject(value), "not a JSON array or object: \(type(of: value))")
        let data = (try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}

/// JSON helpers for the doubles.
enum JSONText {}
