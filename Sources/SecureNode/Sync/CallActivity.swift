import Foundation

/// Whether the app is handling a call right now. The SDK never syncs while
/// a call is being handled: a sync writes the whole dataset, and ring time
/// belongs to the call.
///
/// The host app reports calls from its CallKit/telecom callbacks, on any
/// thread; calls can overlap (call waiting), so starts and ends are counted.
public final class CallActivity: @unchecked Sendable {
    // `@unchecked Sendable` is safe: `activeCalls` is read and written only
    // while `lock` is held.
    private let lock = NSLock()
    private var activeCalls = 0

    /// No call in progress.
    public init() {}

    /// A call started ringing or was placed.
    public func callStarted() {
        lock.withLock { activeCalls += 1 }
    }

    /// A call ended (answered and hung up, missed, rejected).
    public func callEnded() {
        lock.withLock { activeCalls = max(0, activeCalls - 1) }
    }

    /// Whether any call is being handled.
    public var isCallInProgress: Bool {
        lock.withLock { activeCalls > 0 }
    }
}
