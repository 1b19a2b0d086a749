import Foundation
import RuntimeSupport
import SDKCore

/// Whether the app is handling a call right now. Ring time belongs to the
/// call: while one is in progress the SDK sends no request of any kind (the
/// client's innermost middleware and the logo fetches wait for
/// ``waitUntilNoCall()``), and never syncs (a sync writes the whole dataset).
///
/// The host app reports calls from its CallKit/telecom callbacks, on any
/// thread; calls can overlap (call waiting), so starts and ends are counted.
/// A lookup at ring time opens the quiet time itself (``ringStarted(bound:)``),
/// whatever the order of the host's calls: in the usual CallKit order the
/// app looks the caller up before it reports the call, and nothing may go
/// out in between. That window lasts until the host reports the end of its
/// calls, or at most its bound when the host never reports one.
package final class CallActivity: Sendable {
    private struct State {
        var activeCalls = 0
        /// A ring-time lookup's quiet window, until the calls end or the
        /// clock's reading (``SDKClock/elapsed``) passes this.
        var ringingUntil: Duration?
        var nextWaiter = 0
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]

        func isQuiet(at now: Duration) -> Bool {
            activeCalls == 0 && (ringingUntil.map { $0 <= now } ?? true)
        }
    }

    private let state = Locked(State())
    private let clock: SDKClock

    /// No call in progress; ring time measured on `clock`.
    package init(clock: SDKClock = .system) {
        self.clock = clock
    }

    /// A call started ringing or was placed.
    package func callStarted() {
        state.withLock { $0.activeCalls += 1 }
    }

    /// A call ended (answered and hung up, missed, rejected). When it was the
    /// last one, the ring window closes with it and requests held back
    /// during the calls go out.
    package func callEnded() {
        let released = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.activeCalls = max(0, state.activeCalls - 1)
            guard state.activeCalls == 0 else { return [] }
            state.ringingUntil = nil
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in released { waiter.resume() }
    }

    /// Ring time began (a lookup of an incoming number): no request goes
    /// out until the host reports the end of its calls, or for `bound` when
    /// it reports none (the SDK's default, 60 s, outlasts a phone's ring).
    package func ringStarted(bound: Duration) {
        let until = clock.elapsed() + bound
        state.withLock { state in
            state.ringingUntil = max(state.ringingUntil ?? until, until)
        }
        let clock = self.clock
        Task { [weak self] in
            // Measured from the lookup, not from when this task runs.
            let remaining = until - clock.elapsed()
            if remaining > .zero { try? await clock.sleep(remaining) }
            self?.releaseIfQuiet()
        }
    }

    /// Wakes the waiters once nothing keeps the SDK quiet any more.
    private func releaseIfQuiet() {
        let released = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard state.isQuiet(at: clock.elapsed()) else { return [] }
            state.ringingUntil = nil
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in released { waiter.resume() }
    }

    /// Whether any call is being handled, or ring time is open.
    package var isCallInProgress: Bool {
        let now = clock.elapsed()
        return state.withLock { !$0.isQuiet(at: now) }
    }

    /// Requests and downloads held back now, waiting for the calls to end
    /// (a test waits for what it asserts is held).
    package var heldBack: Int {
        state.withLock { $0.waiters.count }
    }

    /// Returns once no call is in progress (at once when none is), or when
    /// the waiting task is cancelled.
    package func waitUntilNoCall() async {
        // Almost always no call: return without suspending.
        let now = clock.elapsed()
        guard let id = state.withLock({ state -> Int? in
            guard !state.isQuiet(at: now) else { return nil }
            state.nextWaiter += 1
            return state.nextWaiter
        }) else { return }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = clock.elapsed()
                let waiting = state.withLock { state -> Bool in
                    guard !state.isQuiet(at: now), !Task.isCancelled else { return false }
                    state.waiters[id] = continuation
                    return true
                }
                if !waiting { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }
}
