import Foundation
import Resilience
import RuntimeSupport

/// `OSSignposter` as the SDKs use it, holding its documented rules: an
/// interval ends with the state its `beginInterval` returned and the same
/// name, once. What breaks a rule is recorded in ``violations`` (on a
/// device the interval would not show in Instruments, or the system logs a
/// fault); intervals never ended are in ``openIntervals``.
package final class SimulatedSignposter: SignpostSink {
    /// A finished interval.
    package struct Interval: Sendable, Equatable {
        /// Its name.
        package var name: String
        /// The SDK's subsystem.
        package var subsystem: String
        /// Its public detail.
        package var detail: String

        /// An interval named `name` of `subsystem`, with `detail`.
        package init(name: String, subsystem: String, detail: String) {
            self.name = name
            self.subsystem = subsystem
            self.detail = detail
        }
    }

    private struct State {
        var next: UInt64 = 0
        var open: [UInt64: Interval] = [:]
        var ended: Set<UInt64> = []
        var finished: [Interval] = []
        var violations: [String] = []
    }

    private let state = Locked(State())

    /// A signposter with no interval yet.
    package init() {}

    /// The intervals begun and ended, in the order they ended.
    package var finished: [Interval] { state.read().finished }
    /// The intervals begun and not ended.
    package var openIntervals: [Interval] { state.read().open.values.sorted { $0.name < $1.name } }
    /// The rules broken.
    package var violations: [String] { state.read().violations }

    /// Begins an interval.
    package func beginInterval(_ name: StaticString, subsystem: String, detail: String) -> SignpostInterval {
        state.withLock {
            $0.next += 1
            $0.open[$0.next] = Interval(name: "\(name)", subsystem: subsystem, detail: detail)
            return SignpostInterval(id: $0.next)
        }
    }

    /// Ends an interval, checking that it is open and named as it began.
    package func endInterval(_ name: StaticString, _ interval: SignpostInterval) {
        state.withLock {
            guard let begun = $0.open.removeValue(forKey: interval.id) else {
                $0.violations.append($0.ended.contains(interval.id) ? "interval \(interval.id) (\(name)) ended twice" : "interval \(interval.id) (\(name)) ended, never begun")
                return
            }
            $0.ended.insert(interval.id)
            if begun.name != "\(name)" {
                $0.violations.append("interval \(interval.id) begun as \(begun.name), ended as \(name)")
                return
            }
            $0.finished.append(begun)
        }
    }
}
