import Foundation
import RuntimeSupport

/// A clock the tests move by hand (cooldowns, expiries), shared by a
/// backend double and the SDK under test so both see the same time.
package final class ManualClock: Sendable {
    private let current = Locked(Date(timeIntervalSince1970: 1_800_000_000))

    /// Starts at a fixed instant.
    package init() {}

    /// The clock's time.
    package var now: Date { current.withLock { $0 } }

    /// Moves the clock `seconds` forward.
    package func advance(by seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }
}
