/// Whether the device is online, as the app reports it (from
/// `NWPathMonitor` on Apple platforms, or anything else).
///
/// While offline, ``RetryMiddleware`` waits for connectivity before a retry
/// instead of spending its attempts on a network that is not there.
public actor Connectivity {
    private var online: Bool
    private var waiters: [CheckedContinuation<Void, Never>] = []

    /// Creates the signal; the default assumes online.
    public init(isOnline: Bool = true) {
        online = isOnline
    }

    /// Whether the app last reported the device online.
    public var isOnline: Bool { online }

    /// Reports a change; going online wakes every waiting retry.
    public func update(isOnline: Bool) {
        online = isOnline
        guard isOnline else { return }
        let woken = waiters
        waiters.removeAll()
        for waiter in woken { waiter.resume() }
    }

    /// Returns at once when online, else when the app reports the device online.
    public func waitUntilOnline() async {
        guard !online else { return }
        await withCheckedContinuation { waiters.append($0) }
    }
}
