/// Whether the device is online, as the app reports it (from
/// `NWPathMonitor` on Apple platforms, or anything else).
///
/// While offline, ``RetryMiddleware`` waits for connectivity before a retry
/// instead of spending its attempts on a network that is not there.
public actor Connectivity {
    private var online: Bool
    private var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
    private var nextWaiter = 0
    private var reconnectActions: [@Sendable () async -> Void] = []

    /// Creates the signal; the default assumes online.
    public init(isOnline: Bool = true) {
        online = isOnline
    }

    /// Whether the app last reported the device online.
    public var isOnline: Bool { online }

    /// Reports a change; going online wakes every waiting retry.
    public func update(isOnline: Bool) {
        let wasOnline = online
        online = isOnline
        guard isOnline else { return }
        let woken = waiters.values
        waiters.removeAll()
        for waiter in woken { waiter.resume() }
        if !wasOnline {
            for action in reconnectActions { Task { await action() } }
        }
    }

    /// Runs `action` (in a task of its own) each time the device is
    /// reported back online after being offline: how queued writes are sent
    /// when connectivity returns. The action is kept as long as this
    /// object lives.
    public func whenOnline(_ action: @escaping @Sendable () async -> Void) {
        reconnectActions.append(action)
    }

    /// Returns at once when online, else when the app reports the device
    /// online, or when the waiting task is cancelled (then it throws
    /// `CancellationError`).
    public func waitUntilOnline() async throws {
        guard !online else { return }
        try Task.checkCancellation()
        let id = nextWaiter
        nextWaiter += 1
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                if Task.isCancelled {
                    continuation.resume()
                } else {
                    waiters[id] = continuation
                }
            }
        } onCancel: {
            Task { await self.cancelWaiter(id) }
        }
        try Task.checkCancellation()
    }

    private func cancelWaiter(_ id: Int) {
        waiters.removeValue(forKey: id)?.resume()
    }
}
