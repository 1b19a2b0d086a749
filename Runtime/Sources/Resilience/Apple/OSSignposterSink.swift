#if canImport(os)
import Foundation
import os

// ios-check: with ../Diagnostics/SignpostSink.swift

/// `OSSignposter` intervals: one signposter per subsystem, in the Points of
/// Interest category so Instruments shows them without configuration; each
/// interval's state kept until it ends, under a number of its own.
///
/// An Apple adapter: this file imports only Foundation and os, so `make ios-check`
/// type-checks it for iOS on its own.
final class OSSignposterSink: SignpostSink, @unchecked Sendable {
    // @unchecked Sendable: `signposters`, `open` and `next`, the only
    // mutable state, are read and written only while `lock` is held; a
    // signposter and an interval's state leave the lock only to be passed
    // to OSSignposter's begin and end, which emit through os_signpost, a
    // call the system takes from any thread.

    static let shared = OSSignposterSink()

    private let lock = NSLock()
    private var signposters: [String: OSSignposter] = [:]
    private var open: [UInt64: (OSSignposter, OSSignpostIntervalState)] = [:]
    private var next: UInt64 = 0

    func beginInterval(_ name: StaticString, subsystem: String, detail: String) -> SignpostInterval {
        let signposter = lock.withLock {
            if let known = signposters[subsystem] { return known }
            let made = OSSignposter(subsystem: subsystem, category: .pointsOfInterest)
            signposters[subsystem] = made
            return made
        }
        let state = signposter.beginInterval(name, id: signposter.makeSignpostID(), "\(detail, privacy: .public)")
        return lock.withLock {
            next += 1
            open[next] = (signposter, state)
            return SignpostInterval(id: next)
        }
    }

    func endInterval(_ name: StaticString, _ interval: SignpostInterval) {
        guard let (signposter, state) = lock.withLock({ open.removeValue(forKey: interval.id) }) else { return }
        signposter.endInterval(name, state)
    }
}
#endif
