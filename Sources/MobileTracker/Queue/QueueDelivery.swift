import ClientRuntime
import Foundation
import Logging
import MobileTrackerAPI
import OpenAPIRuntime
import Resilience
import RuntimeSupport

/// Sends the queue, oldest row first, one at a time (the API takes one event
/// per request, and order within a session matters):
///
/// - 2xx: the row is deleted.
/// - 401 or 403: the API key is refused; every row stays and delivery
///   pauses (no request until ``resume()``, which a new key or the app's
///   `resumeDelivery()` calls): a rotated key must not discard a day of
///   analytics, nor should the queue hammer a server that refuses it.
/// - 400 or 422 with the server's JSON error: a stated refusal; the row is
///   dropped, counted and logged as a warning (the server will never take
///   it); delivery goes on.
/// - 404, any other 4xx, a 400 or 422 without a JSON error (a proxy's
///   page), 408, 429, 5xx and transport failures: the row stays; the next
///   attempt waits a full-jitter backoff (0.5 s doubling to 5 min), never
///   less than the server's `Retry-After`. 404s are counted: a wrong path
///   shows in ``QueueStatus`` instead of emptying the queue.
/// - Offline (as the app reports it through ``Connectivity``): delivery
///   waits for connectivity; it also resumes on ``kick()`` (launch, new rows).
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
    private var sessionID: String?
    private var running: Task<Void, Never>? {
        didSet { idle.withLock { $0 = running == nil } }
    }
    /// Whether no delivery loop runs, readable without a hop onto the actor:
    /// a new row needs a ``kick()`` only then.
    nonisolated let idle = Locked(true)
    private var wake: CheckedContinuation<Void, Never>?
    private var kicked = false
    private var failures = 0
    /// The status (401 or 403) delivery paused at; nil while it runs.
    private var pausedForStatus: Int?
    /// 404 answers so far (each retried with backoff).
    private var notFoundAnswers = 0

    /// The pause and the 404 count, read together for ``QueueStatus``.
    var state: (pausedForStatus: Int?, notFoundAnswers: Int) { (pausedForStatus, notFoundAnswers) }

    init(
        queue: EventQueue, client: MobileTrackerAPI.Client, brandID: BrandID, connectivity: Connectivity?, backoff: BackoffPolicy, logger: Logger
    ) {
        self.backoff = backoff
        self.queue = queue
        self.client = client
        self.brandID = brandID
        self.connectivity = connectivity
        self.logger = logger
    }

    /// The session rows without one are sent with; starts delivery.
    func setSession(_ id: String?) {
        sessionID = id
        if id != nil { kick() }
    }

    /// New rows, a launch, connectivity back: deliver now (unless paused).
    func kick() {
        kicked = true
        failures = 0
        if let wake {
            self.wake = nil
            wake.resume()
        }
        if running == nil, sessionID != nil, pausedForStatus == nil {
            running = Task { await self.run() }
        }
    }

    /// Ends a pause (a new API key, or the app asking): delivery starts again
    /// from the oldest row.
    func resume() {
        pausedForStatus = nil
        kick()
    }

    /// Waits until the queue is empty (or `timeout` passes, or delivery
    /// pauses); true when empty.
    func waitUntilEmpty(timeout: Duration) async -> Bool {
        kick()
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if (try? queue.isEmpty()) == true { return true }
            if pausedForStatus != nil { return false }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return (try? queue.isEmpty()) == true
    }

    private func run() async {
        defer { running = nil }
        while !Task.isCancelled {
            if let connectivity, await connectivity.isKnownOffline {
                try? await connectivity.waitUntilOnline()
                continue
            }
            guard let session = sessionID else { return }
            guard let entry = (try? queue.oldest(limit: 1))?.first else {
                // Say idle before the last look: a row appended by a caller
                // that still saw this loop running is found here, and one
                // appended after this point sees `idle` and kicks.
                idle.withLock { $0 = true }
                guard (try? queue.oldest(limit: 1))?.first != nil else { return }
                idle.withLock { $0 = false }
                continue
            }
            let outcome = await send(entry, session: entry.sessionID ?? session)
            switch outcome {
            case .delivered:
                failures = 0
                try? queue.markDelivered(entry)
            case .rejected(let status):
                failures = 0
                logger.warning("tracker: dropped a queued \(entry.item.kind) the server refused with status \(status)")
                try? queue.markRejected(entry)
            case .paused(let status):
                pausedForStatus = status
                logger.warning(
                    "tracker: delivery paused: the server refused the API key (status \(status)); rows are kept until a new key or resumeDelivery()")
                return
            case .retry(let after, let notFound):
                if notFound { notFoundAnswers += 1 }
                failures += 1
                let wait = max(backoff.delay(forRetry: failures) { Double.random(in: $0) }, after ?? .zero)
                logger.debug("tracker: delivery failed, retrying in \(wait)")
                await sleep(wait)
            }
        }
    }

    /// Sleeps, waking early on ``kick()``.
    private func sleep(_ duration: Duration) async {
        kicked = false
        let timer = Task { [weak self] in
            try? await Task.sleep(for: duration)
            await self?.resumeWake()
        }
        await withCheckedContinuation { continuation in
            if kicked { continuation.resume() } else { wake = continuation }
        }
        timer.cancel()
    }

    private func resumeWake() {
        wake?.resume()
        wake = nil
    }

    private enum Outcome {
        case delivered
        case rejected(status: Int)
        case paused(status: Int)
        case retry(after: Duration?, notFound: Bool = false)
    }

    private func send(_ entry: EventQueue.Entry, session: String) async -> Outcome {
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
        } catch let error as any HTTPStatusError {
            let retryAfter = RetryAfter.queueWait(in: error.headerFields)
            switch error.status {
            case 401, 403: return .paused(status: error.status)
            case 400, 422:
                return Self.isStatedRefusal(error.rawBody) ? .rejected(status: error.status) : .retry(after: retryAfter)
            default: return .retry(after: retryAfter, notFound: error.status == 404)
            }
        } catch let error as ResponseDecodingError where (200..<300).contains(error.status) {
            // Accepted; the body is not what the spec says, which the tracker does not need.
            return .delivered
        } catch let refusal as CertificatePinningError {
            // Nothing was sent; the rows stay queued, tried again on the backoff.
            logger.error("tracker: delivery stopped: \(refusal.description)")
            return .retry(after: nil)
        } catch {
            logger.debug("tracker: delivery failed: \(String(describing: type(of: error)))")
            return .retry(after: nil)
        }
    }
}

extension QueueDelivery {
    /// Whether an error body is the server's own JSON error (an object), as
    /// opposed to a page some proxy answered with.
    static func isStatedRefusal(_ body: Data) -> Bool {
        (try? JSONSerialization.jsonObject(with: body)) is [String: Any]
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
