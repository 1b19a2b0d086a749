import RuntimeSupport
import ClientRuntime
import Foundation
import Logging
import MobileTrackerAPI
import OpenAPIRuntime
import Resilience

/// Sends the queue, oldest row first, one at a time (the API takes one event
/// per request, and order within a session matters):
///
/// - 2xx: the row is deleted.
/// - 408, 429, 5xx and transport failures: the row stays; the next attempt
///   waits a full-jitter backoff (0.5 s doubling to 5 min), never less than
///   the server's `Retry-After`.
/// - Any other 4xx: the row is dropped and counted (the server will never
///   take it); delivery goes on.
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

    /// New rows, a launch, connectivity back: deliver now.
    func kick() {
        kicked = true
        failures = 0
        if let wake {
            self.wake = nil
            wake.resume()
        }
        if running == nil, sessionID != nil {
            running = Task { await self.run() }
        }
    }

    /// Waits until the queue is empty (or `timeout` passes); true when empty.
    func waitUntilEmpty(timeout: Duration) async -> Bool {
        kick()
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if ((try? queue.counts().pending) ?? 1) == 0 { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return ((try? queue.counts().pending) ?? 1) == 0
    }

    private func run() async {
        defer { running = nil }
        while !Task.isCancelled {
            if let connectivity, await !connectivity.isOnline {
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
                logger.debug("tracker: dropped a queued \(entry.item.kind) refused with status \(status)")
                try? queue.markRejected(entry)
            case .retry(let after):
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
        case retry(after: Duration?)
    }

    private func send(_ entry: EventQueue.Entry, session: String) async -> Outcome {
        do {
            switch entry.item {
            case .event(let name, let data):
                guard let id = LowercaseUUID(session) else { return .rejected(status: 0) }
                _ = try await client.sendTrackingSessionData(body: TrackEventRequest(brandID: brandID, sessionID: id, eventName: name, data: data))
            case .profile(var body):
                if body.sessionID == nil { body.sessionID = LowercaseUUID(session) }
                _ = try await client.setCustomerProfile(body: body)
            case .location(let body):
                guard let id = LowercaseUUID(session) else { return .rejected(status: 0) }
                _ = try await client.updateTrackingSessionLocation(sessionID: id, body: body)
            }
            return .delivered
        } catch let error as any HTTPStatusError {
            switch error.status {
            case 408, 429, 500...599:
                return .retry(after: error.headerFields[.retryAfter].flatMap { RetryAfter.parse($0) }.map { min($0, .seconds(3600)) })
            default:
                return .rejected(status: error.status)
            }
        } catch let error as ResponseDecodingError where (200..<300).contains(error.status) {
            // Accepted; the body is not what the spec says, which the tracker does not need.
            return .delivered
        } catch {
            logger.debug("tracker: delivery failed: \(String(describing: type(of: error)))")
            return .retry(after: nil)
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
