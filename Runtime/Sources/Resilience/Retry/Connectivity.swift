/// Whether the device is online.
///
/// Two kinds of signal, told apart by ``source``:
///
/// - **Reported** (``init(isOnline:)``, or ``systemDefault()`` on Apple
///   platforms, where `NWPathMonitor` feeds it): the app or the system
///   knows. While it says offline, SDK calls fail at once with `offline`
///   (reads fall back to the cache), writes are queued before any byte is
///   sent, and ``RetryMiddleware`` waits for connectivity instead of
///   spending its attempts on a network that is not there.
/// - **Observed from requests** (``observingRequests()``, the default
///   elsewhere): nobody reports, so a request that could not reach the
///   server (refused, unresolved, no route) marks the device offline and
///   the next answer from a server marks it online again. It is a guess,
///   so it never refuses a call nor holds a retry: every request is still
///   tried, and the first success runs the `whenOnline(while:_:)` actions
///   (queued writes are sent).
///
/// ``ConnectivityObservingMiddleware`` feeds an observed signal; the SDK
/// stacks include it.
public actor Connectivity {
    /// Where the signal comes from.
    public enum Source: Sendable, Hashable {
        /// The app or the operating system reports changes (``update(isOnline:)``).
        case reported
        /// Requests' outcomes are the only evidence (`observe(reachedServer:)`).
        case observedFromRequests
    }

    /// Where this signal comes from.
    public nonisolated let source: Source
    private var online: Bool
    private var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
    private var nextWaiter = 0
    private var reconnectActions: [ReconnectAction] = []

    /// An action run on reconnection for as long as its owner lives.
    private struct ReconnectAction {
        weak var owner: AnyObject?
        let run: @Sendable () async -> Void
    }

    /// A signal the app reports; the default assumes online.
    public init(isOnline: Bool = true) {
        self.init(source: .reported, isOnline: isOnline)
    }

    /// A signal of `source`.
    init(source: Source, isOnline: Bool) {
        self.source = source
        online = isOnline
    }

    /// A signal read from requests' outcomes (see the type's documentation):
    /// online until a request cannot reach its server.
    public static func observingRequests() -> Connectivity {
        Connectivity(source: .observedFromRequests, isOnline: true)
    }

    /// A reported signal fed by `start`, which is handed the function to
    /// call with each change (`true`: online) and may call it from any
    /// thread; changes apply in the order they were reported. Online until
    /// the first report. How `systemPath()` is fed by `NWPathMonitor`,
    /// and how an app feeds a signal of its own from a callback-based API.
    public static func reported(by start: (_ report: @escaping @Sendable (_ isOnline: Bool) -> Void) -> Void) -> Connectivity {
        let connectivity = Connectivity(source: .reported, isOnline: true)
        let (changes, continuation) = AsyncStream<Bool>.makeStream(bufferingPolicy: .unbounded)
        // Weak: the feed lives as long as the signal, not the other way round.
        Task { [weak connectivity] in
            for await online in changes {
                guard let connectivity else { return }
                await connectivity.update(isOnline: online)
            }
        }
        start { continuation.yield($0) }
        return connectivity
    }

    /// What the SDKs use when the app gives no signal of its own: the
    /// system's network path on Apple platforms (`systemPath()`), requests'
    /// outcomes elsewhere (``observingRequests()``).
    public static func systemDefault() -> Connectivity {
        #if canImport(Network)
        return systemPath()
        #else
        return observingRequests()
        #endif
    }

    /// Whether the device is believed online.
    public var isOnline: Bool { online }

    /// Whether the device is known to be offline: a reported signal says so.
    /// An observed signal is never sure enough to refuse a call.
    public var isKnownOffline: Bool { !online && source == .reported }

    /// Retries waiting for the device to be online now (a test waits for
    /// the one it caused).
    package var waitingRetries: Int { waiters.count }

    /// The `whenOnline(while:_:)` actions started so far, each in a task of
    /// its own (counted as it is started, so a test reads it at once).
    package private(set) var reconnectActionsStarted = 0

    /// Reports a change; going online wakes every waiting retry and, after
    /// being offline, runs the `whenOnline(while:_:)` actions.
    public func update(isOnline: Bool) {
        let wasOnline = online
        online = isOnline
        guard isOnline else { return }
        let woken = waiters.values
        waiters.removeAll()
        for waiter in woken { waiter.resume() }
        if !wasOnline {
            reconnectActions.removeAll { $0.owner == nil }
            reconnectActionsStarted += reconnectActions.count
            for run in reconnectActions.map(\.run) { Task { await run() } }
        }
    }

    /// Records a request's outcome for a signal observed from requests
    /// (``Source/observedFromRequests``): `reachedServer` false marks the
    /// device offline, true marks it online. A reported signal ignores it:
    /// the app or the system knows better than one request.
    package func observe(reachedServer: Bool) {
        guard source == .observedFromRequests, reachedServer != online else { return }
        update(isOnline: reachedServer)
    }

    /// Runs `action` (in a task of its own) each time the device is back
    /// online after being offline, for as long as `owner` lives: how an SDK
    /// instance sends its queued writes when connectivity returns. The
    /// action must not hold `owner` (it would never go); once `owner` is
    /// gone the action is dropped with what it holds, so a signal shared by
    /// the whole process (the system's) does not keep every SDK ever made.
    package func whenOnline(while owner: some AnyObject & Sendable, _ action: @escaping @Sendable () async -> Void) {
        reconnectActions.removeAll { $0.owner == nil }
        reconnectActions.append(ReconnectAction(owner: owner, run: action))
    }

    /// Returns at once unless the device is known to be offline
    /// (``isKnownOffline``), else when it is reported online, or when the
    /// waiting task is cancelled (then it throws `CancellationError`).
    public func waitUntilOnline() async throws {
        guard isKnownOffline else { return }
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

#if canImport(Network)
extension Connectivity {
    /// The system's network path: a reported signal fed by one
    /// `NWPathMonitor` for the process (`NetworkPathWatch`), online while
    /// the path is satisfied, shared by every SDK of the app.
    public static func systemPath() -> Connectivity { systemPathSignal }
    private static let systemPathSignal = reported(by: NetworkPathWatch.start)
}
#endif
