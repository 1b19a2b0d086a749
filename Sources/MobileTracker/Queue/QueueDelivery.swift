import ClientRuntime
import Foundation
import Logging
import MobileTrackerAPI
import OpenAPIRuntime
import Resilience
import RuntimeSupport
import SDKCore

/// Sends the queue, oldest row first, one at a time (the API takes one event
/// per request, and order within a session matters), on the family's one
/// delivery loop (`DeliveryLoop`) and failure classifier (`DeliveryVerdict`):
///
/// - 2xx: the row is deleted.
/// - 401 or 403 (whatever the body): the API key is refused; every row
///   stays and delivery pauses (no request until ``resume()``, which a new
///   key or the app's `resumeDelivery()` calls): a rotated key must not
///   discard a day of analytics, nor should the queue hammer a server that
///   refuses it.
/// - 400 or 422 with the server's JSON error: a stated refusal; the row is
///   dropped, counted and logged as a warning (the server will never take
///   it); delivery goes on.
/// - 404, any other 4xx, a 400 or 422 without a JSON error (a proxy's
///   page), 408, 429, 5xx and transport failures: the row stays; the next
///   attempt waits a full-jitter backoff (0.5 s doubling to 5 min), never
///   less than the server's `Retry-After`. 404s are counted: a wrong path
///   shows in ``QueueStatus`` instead of emptying the queue.
/// - Offline (as the app reports it through ``Connectivity``): delivery
///   waits for connectivity; it also resumes on ``kick()`` (launch, new
///   rows), also one that arrives while a row is being sent.
///
/// There is no idempotency key in this API, so a response lost after the
/// server applied a row means that row is sent again: at-least-once.
actor QueueDelivery {
    private let queue: EventQueue
    private let client: MobileTrackerAPI.Client
    private let brandID: BrandID
    private let connectivity: Connectivity?
    private let logger: Logger
    private let backoff: BackoffPolicy
    /// The tracker's one clock: `Retry-After` dates are read against its
    /// wall time, and the delivery loop sleeps its backoff on it.
    private let clock: SDKClock
    private var now: @Sendable () -> Date { clock.now }
    /// Where each pass's interval goes (Instruments).
    private let signposts: Signposts
    private var sessionID: String?
    /// The loop; made on first use. Its pass holds this actor weakly (only
    /// while a pass runs, strongly), and `deinit` stops it.
    private var loop: DeliveryLoop?
    /// Whether no delivery loop runs, readable without a hop onto the actor:
    /// a new row needs a ``kick()`` only then.
    nonisolated let idle = Locked(true)
    /// Whether the loop waits for connectivity to come back (a known
    /// offline device): nothing is sent meanwhile.
    nonisolated let waitsForConnectivity = Locked(false)
    private var failures = 0
    /// The status (401 or 403) delivery paused at; nil while it runs.
    private var pausedForStatus: Int?
    /// 404 answers so far (each retried with backoff).
    private var notFoundAnswers = 0

    /// The pause and the 404 count, read together for ``QueueStatus``.
    var state: (pausedForStatus: Int?, notFoundAnswers: Int) { (pausedForStatus, notFoundAnswers) }

    init(
        queue: EventQueue, client: MobileTrackerAPI.Client, brandID: BrandID, connectivity: Connectivity?, backoff: BackoffPolicy, logger: Logger,
        clock: SDKClock = .system, signposts: Signposts = .none
    ) {
        self.signposts = signposts
        self.backoff = backoff
        self.queue = queue
        self.client = client
        self.brandID = brandID
        self.connectivity = connectivity
        self.logger = logger
        self.clock = clock
    }

    /// The session rows without one are sent with; starts delivery.
    func setSession(_ id: String?) async {
        sessionID = id
        if id != nil { await kick() }
    }

    /// Whether delivery has stopped: marked idle, and its loop ended (no
    /// pass running, no backoff timer set).
    func isIdle() async -> Bool {
        guard idle.withLock({ $0 }) else { return false }
        return await !(loop?.isRunning ?? false)
    }

    /// New rows, a launch, connectivity back: deliver now (unless paused).
    func kick() async {
        failures = 0
        guard sessionID != nil, pausedForStatus == nil else { return }
        idle.withLock { $0 = false }
        let loop = self.loop ?? DeliveryLoop(clock: clock) { [weak self] in await self?.pass() ?? .done }
        self.loop = loop
        await loop.kick()
    }

    /// Ends a pause (a new API key, or the app asking): delivery starts again
    /// from the oldest row.
    func resume() async {
        pausedForStatus = nil
        await kick()
    }

    /// Waits until the queue is empty (or `timeout` passes, or delivery
    /// pauses); true when empty.
    func waitUntilEmpty(timeout: Duration) async -> Bool {
        await kick()
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if (try? queue.isEmpty()) == true { return true }
            if pausedForStatus != nil { return false }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return (try? queue.isEmpty()) == true
    }

    deinit {
        if let loop { Task { await loop.stop() } }
    }

    /// One pass: rows sent and settled, oldest first, until one needs a
    /// wait, delivery pauses or nothing is left. A drain's rows go out one
    /// after another on this actor, not one hop to the loop's actor and
    /// back per row, which a drain of thousands of rows feels in CPU time.
    private func pass() async -> DeliveryLoop.Next {
        // Running: a row appended from now on is found by this pass or a later one.
        idle.withLock { $0 = false }
        return await signposts.interval("queue flush", detail: "delivery pass") {
            while !Task.isCancelled {
                let next = await settleOldest()
                guard next == .again else { return next }
            }
            return .done
        }
    }

    /// The oldest row sent and settled.
    private func settleOldest() async -> DeliveryLoop.Next {
        if let connectivity, await connectivity.isKnownOffline {
            waitsForConnectivity.withLock { $0 = true }
            try? await connectivity.waitUntilOnline()
            waitsForConnectivity.withLock { $0 = false }
            return .again
        }
        guard let session = sessionID, pausedForStatus == nil else { return finished() }
        guard let entry = (try? queue.oldest(limit: 1))?.first else {
            // Say idle before the last look: a row appended by a caller
            // that still saw this loop running is found here, and one
            // appended after this point sees `idle` and kicks.
            idle.withLock { $0 = true }
            guard (try? queue.oldest(limit: 1))?.first != nil else { return .done }
            idle.withLock { $0 = false }
            return .again
        }
        switch await send(entry, session: entry.sessionID ?? session) {
        case .delivered:
            failures = 0
            try? queue.markDelivered(entry)
            return .again
        case .drop(let status, _):
            failures = 0
            logger.warning("tracker: dropped a queued \(entry.item.kind) the server refused with status \(status)")
            try? queue.markRejected(entry)
            return .again
        case .pause(let status):
            pausedForStatus = status
            logger.warning(
                "tracker: delivery paused: the server refused the API key (status \(status)); rows are kept until a new key or resumeDelivery()")
            return finished()
        case .retry(let notBefore, let notFound):
            if notFound { notFoundAnswers += 1 }
            failures += 1
            let wait = max(backoff.delay(forRetry: failures) { Double.random(in: $0) }, notBefore ?? .zero)
            logger.debug("tracker: delivery failed, retrying in \(wait)")
            return .wait(wait)
        }
    }

    /// The loop ends: nothing is sent until the next kick.
    private func finished() -> DeliveryLoop.Next {
        idle.withLock { $0 = true }
        return .done
    }

    private func send(_ entry: EventQueue.Entry, session: String) async -> DeliveryVerdict {
        do {
            switch entry.item {
            case .event(let name, let data):
                _ = try await client.sendTrackingSessionData(body: TrackEventRequest(brandID: brandID, sessionID: session, eventName: name, data: data))
            case .profile(var body):
                if body.sessionID == nil { body.sessionID = session }
                _ = try await client.setCustomerProfile(body: body)
            case .location(let body):
                _ = try await client.updateTrackingSessionLocation(sessionID: session, body: body)
            }
            return .delivered
        } catch {
            if let refusal = error as? CertificatePinningError {
                // Nothing was sent; the rows stay queued, tried again on the backoff.
                logger.error("tracker: delivery stopped: \(refusal.description)")
            } else if !(error is any HTTPStatusError) {
                logger.debug("tracker: delivery failed: \(String(describing: type(of: error)))")
            }
            return DeliveryVerdict(error: error, now: now()) { failure in
                DeliveryVerdict.isServerErrorObject(failure.rawBody) ? "error body" : nil
            }
        }
    }
}

extension EventQueue.Item {
    /// `event`, `profile` or `location`, for logs.
    var kind: String {
        switch self {
        case .event: return "event"
        case .profile: return "profile"
        case .location: return "location"
        }
    }
}
