import Foundation
import RuntimeSupport

/// Whether the app is handling a call right now. Ring time belongs to the
/// call: while one is in progress the SDK sends no request of any kind (the
/// client's innermost middleware and the logo fetches wait for
/// ``waitUntilNoCall()``), and never syncs (a sync writes the whole dataset).
///
/// The host app reports calls from its CallKit/telecom callbacks, on any
/// thread; calls can overlap (call waiting), so starts and ends are counted.
public final class CallActivity: Sendable {
    private struct State {
        var activeCalls = 0
        var nextWaiter = 0
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
    }

    private let state = Locked(State())

    /// No call in progress.
    public init() {}

    /// A call started ringing or was placed.
    public func callStarted() {
        state.withLock { $0.activeCalls += 1 }
    }

    /// A call ended (answered and hung up, missed, rejected). When it was the
    /// last one, requests held back during the calls go out.
    public func callEnded() {
        let released = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.activeCalls = max(0, state.activeCalls - 1)
            guard state.activeCalls == 0 else { return [] }
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in released { waiter.resume() }
    }

    /// Whether any call is being handled.
    public var isCallInProgress: Bool {
        state.withLock { $0.activeCalls > 0 }
    }

    /// Returns once no call is in progress (at once when none is), or when
    /// the waiting task is cancelled.
    public func waitUntilNoCall() async {
        // Almost always no call: return without suspending.
        guard let id = state.withLock({ state -> Int? in
            guard state.activeCalls > 0 else { return nil }
            state.nextWaiter += 1
            return state.nextWaiter
        }) else { return }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let waiting = state.withLock { state -> Bool in
                    guard state.activeCalls > 0, !Task.isCancelled else { return false }
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
