import ClientRuntime
import Foundation
import Resilience
import RuntimeSupport
import SDKCore
import SecureNodeAPI

/// Delivers the ``BillingOutbox`` in the background: due events are sent
/// (a few at once), removed when the server accepts them, rescheduled with
/// exponential backoff and full jitter when the attempt fails in a way that
/// may pass, paused when the server refuses the credentials, and dropped
/// only when the server states that the event itself is invalid. Every
/// attempt of an event sends the key it was recorded with.
///
/// A billable event is never lost to something that is not about the event:
///
/// | answer | what happens |
/// | --- | --- |
/// | 2xx (even with a body that does not match the spec) | delivered, removed |
/// | 401, 403 (any body) | kept; delivery pauses until ``resume()`` (new credentials, or the app says so) |
/// | 400, 422 with the server's JSON error body | dropped, counted, reported as ``BillingNotice/dropped(eventKey:kind:status:reason:)`` |
/// | 400, 422 with another body (a proxy's page), any other 4xx (404 from a wrong mount, 409...), 408, 429, 5xx | kept, retried with backoff, never sooner than `Retry-After` |
/// | no connection, timeout | kept, retried with backoff |
package actor OutboxDelivery {
    /// Sends one event (with the `event_id` of the event it refers to, if
    /// any); returns the server's `event_id`, throws what the client threw.
    package typealias Send = @Sendable (BillingOutbox.Entry, _ referredEventID: String?) async throws -> String?

    /// What to do with an event after an attempt.
    package enum Disposition: Sendable, Hashable {
        /// The server has it: remove it (keeping its `event_id`).
        case delivered(eventID: String?)
        /// Try again later, not before `notBefore` when the server said so.
        case retry(notBefore: Duration?)
        /// The server refused the credentials: keep it and pause delivery.
        case pause(status: Int)
        /// The server stated the event is invalid: remove it and count it.
        /// `reason` is the server's error code (or what was wrong locally).
        case drop(status: Int, reason: String)
    }

    /// What one pass did.
    package struct PassReport: Sendable, Hashable {
        /// Events the server accepted.
        package var delivered = 0
        /// Events kept for a later attempt.
        package var retried = 0
        /// Events refused for good.
        package var dropped = 0
        /// Events attempted in the pass.
        package var attempted: Int { delivered + retried + dropped }
    }

    /// Billing waits: 2 s for the first retry, never more than 10 minutes.
    package static let defaultBackoff = BackoffPolicy(baseDelay: .seconds(2), maximumDelay: .seconds(600))

    private let outbox: BillingOutbox
    private let send: Send
    private let backoff: BackoffPolicy
    private let concurrency: Int
    /// The SDK's clock: due dates are read against its wall time, and
    /// ``deliverUntilEmpty()`` sleeps on it.
    private let clock: SDKClock
    private var now: @Sendable () -> Date { clock.now }
    private var inFlight = Set<Int64>()
    /// The status that paused delivery (401 or 403), nil while it runs.
    package private(set) var pausedForStatus: Int?
    private var observers: [UUID: AsyncStream<BillingNotice>.Continuation] = [:]
    /// The last events dropped, with the server's status and error code.
    private var recentDrops: [(eventKey: String, status: Int, reason: String)] = []

    /// Delivery through `send`, on `clock` (tests pass a `ManualClock`'s).
    package init(
        outbox: BillingOutbox, backoff: BackoffPolicy = OutboxDelivery.defaultBackoff,
        concurrency: Int = 4, clock: SDKClock = .system, send: @escaping Send
    ) {
        self.outbox = outbox
        self.send = send
        self.backoff = backoff
        self.concurrency = max(1, concurrency)
        self.clock = clock
    }

    /// Delivery through the generated SecureNode client (its middlewares
    /// add the API key).
    package init(
        outbox: BillingOutbox, client: SecureNodeAPI.Client,
        backoff: BackoffPolicy = OutboxDelivery.defaultBackoff, concurrency: Int = 4, clock: SDKClock = .system
    ) {
        self.init(outbox: outbox, backoff: backoff, concurrency: concurrency, clock: clock, send: Self.sending(with: client))
    }

    /// Sends an outbox entry with `client`: imprints to `recordImprint`,
    /// call events to `recordBrandingEvent`, the body as recorded (plus
    /// `meta.call_event_id` for a follow-up whose earlier event is known).
    package static func sending(with client: SecureNodeAPI.Client) -> Send {
        { entry, referredEventID in
            let decoder = JSONCoding.makeDecoder()
            switch entry.kind {
            case .imprint:
                return try await client.recordImprint(body: try decoder.decode(ImprintRequest.self, from: entry.payload)).eventID
            case .callEvent:
                var event = try decoder.decode(UsageEventRequest.self, from: entry.payload)
                if let referredEventID {
                    var meta = event.meta ?? EventMeta()
                    meta.callEventID = referredEventID
                    event.meta = meta
                }
                return try await client.recordBrandingEvent(body: event).eventID
            }
        }
    }

    /// How an attempt that threw `error` ends (see the type's table): the
    /// family's one classifier of queued deliveries (`DeliveryVerdict`),
    /// with the server's error body read as the spec's `ErrorResponse`.
    /// `now` dates a `Retry-After` given as an HTTP date.
    package static func disposition(for error: any Error, now: Date = Date()) -> Disposition {
        switch DeliveryVerdict(error: error, now: now, statedReason: serverReason) {
        case .delivered: return .delivered(eventID: nil)
        case .retry(let notBefore, _): return .retry(notBefore: notBefore)
        case .pause(let status): return .pause(status: status)
        case .drop(let status, let reason): return .drop(status: status, reason: reason)
        }
    }

    /// The server's error code when the failure carries its JSON error
    /// body (decoded by the client as the spec's `ErrorResponse`, or, for a
    /// status the spec does not document, a JSON object); nil otherwise.
    private static func serverReason(_ failure: any HTTPStatusError) -> String? {
        switch failure {
        case let documented as APIError<ErrorResponse>:
            // The body decoded as the spec's error envelope: the server's own statement.
            return documented.body.error ?? documented.body.message ?? "error body"
        case let undocumented as UndocumentedResponseError:
            return ServerErrorBody.code(in: Data(undocumented.body))
        default:
            return nil
        }
    }

    // MARK: Pause and notices

    /// Starts delivery again after a 401/403 paused it (new credentials,
    /// or the app says the old ones are good again).
    package func resume() {
        guard pausedForStatus != nil else { return }
        pausedForStatus = nil
        notify(.resumed)
    }

    /// Every pause, resume and drop from now on, until the consumer stops.
    package func notices() -> AsyncStream<BillingNotice> {
        let (stream, continuation) = AsyncStream.makeStream(of: BillingNotice.self, bufferingPolicy: .bufferingNewest(64))
        let id = UUID()
        observers[id] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { await self?.removeObserver(id) }
        }
        return stream
    }

    private func removeObserver(_ id: UUID) { observers[id] = nil }

    private func notify(_ notice: BillingNotice) {
        for observer in observers.values { observer.yield(notice) }
    }

    /// One pass over the events due now, at most `concurrency` in flight;
    /// events a concurrent pass is sending are left to it.
    @discardableResult
    package func deliverDue(limit: Int = 256) async throws -> PassReport {
        guard pausedForStatus == nil else { return PassReport() }
        // A follow-up waits until the event it refers to is delivered (its
        // server id is what it must send); if that one is gone, it goes without.
        var due: [BillingOutbox.Entry] = []
        var referred: [Int64: String] = [:]
        var report = PassReport()
        for entry in try outbox.due(at: now(), limit: limit) where !inFlight.contains(entry.id) {
            if let key = entry.refersTo {
                switch try outbox.reference(to: key) {
                case .delivered(let eventID): referred[entry.id] = eventID
                case .unknown: break
                case .pending:
                    try outbox.reschedule(entry, at: now().addingTimeInterval(backoff.baseDelay.totalSeconds))
                    report.retried += 1
                    continue
                }
            }
            due.append(entry)
        }
        for entry in due { inFlight.insert(entry.id) }
        defer { for entry in due { inFlight.remove(entry.id) } }
        let send = self.send
        let now = self.now
        try await withThrowingTaskGroup(of: (BillingOutbox.Entry, Disposition).self) { group in
            var pending = due.makeIterator()
            func startNext() -> Bool {
                // After a 401/403 the rest of the pass waits for new credentials.
                guard pausedForStatus == nil, let entry = pending.next() else { return false }
                let referredEventID = referred[entry.id]
                group.addTask {
                    do {
                        return (entry, .delivered(eventID: try await send(entry, referredEventID)))
                    } catch {
                        return (entry, Self.disposition(for: error, now: now()))
                    }
                }
                return true
            }
            for _ in 0..<concurrency where !startNext() { break }
            while let (entry, disposition) = try await group.next() {
                try settle(entry, disposition, in: &report)
                _ = startNext()
            }
        }
        return report
    }

    /// Applies an attempt's disposition to the outbox and the report.
    private func settle(_ entry: BillingOutbox.Entry, _ disposition: Disposition, in report: inout PassReport) throws {
        switch disposition {
        case .delivered(let eventID):
            try outbox.markDelivered(entry, eventID: eventID)
            report.delivered += 1
        case .drop(let status, let reason):
            try outbox.markDropped(entry)
            report.dropped += 1
            recentDrops.append((entry.eventKey, status, reason))
            if recentDrops.count > 256 { recentDrops.removeFirst(recentDrops.count - 256) }
            notify(.dropped(eventKey: entry.eventKey, kind: entry.kind, status: status, reason: reason))
        case .pause(let status):
            // Due again at once when delivery resumes; not an attempt that failed.
            try outbox.reschedule(entry, at: now(), countingAttempt: false)
            report.retried += 1
            if pausedForStatus == nil {
                pausedForStatus = status
                notify(.paused(status: status))
            }
        case .retry(let notBefore):
            var generator = SystemRandomNumberGenerator()
            var wait = backoff.delay(forRetry: entry.attempts + 1, using: &generator)
            if let notBefore, notBefore > wait { wait = notBefore }
            try outbox.reschedule(entry, at: now().addingTimeInterval(wait.totalSeconds))
            report.retried += 1
        }
    }

    /// Why the event recorded under `eventKey` was dropped (the server's
    /// status and error code), if it was among the last 256 dropped.
    package func dropReason(for eventKey: String) -> (status: Int, reason: String)? {
        recentDrops.last { $0.eventKey == eventKey }.map { ($0.status, $0.reason) }
    }

    /// Delivers until the outbox is empty, sleeping until the next event is
    /// due between passes (a background task's flush; cancel to stop early).
    /// Returns early while delivery is paused for credentials.
    package func deliverUntilEmpty() async throws {
        while !Task.isCancelled, pausedForStatus == nil {
            let report = try await deliverDue()
            if report.attempted > 0 { continue }
            guard let next = try outbox.nextAttemptDate() else { return }
            // At least 50 ms: events due now but in flight in another pass
            // must not turn this into a busy loop.
            let wait = max(0.05, next.timeIntervalSince(now()))
            try await clock.sleep(.seconds(min(wait, 60)))
        }
    }
}

/// What billing delivery tells the app besides the counts.
public enum BillingNotice: Sendable, Hashable {
    /// The server stated an event invalid (a 400 or 422 with its error
    /// body); it was removed and counted. `reason` is the server's error
    /// code, or its message when it sent no code.
    case dropped(eventKey: String, kind: BillingEventKind, status: Int, reason: String)
    /// The server refused the credentials; events are kept and delivery
    /// waits for ``SecureNodeEngine/resumeBillingDelivery()``.
    case paused(status: Int)
    /// Delivery runs again.
    case resumed
}

/// The server's JSON error body (`{"error": "...", "message": "..."}`).
enum ServerErrorBody {
    /// The body's `error` code (or `message`, or `"error body"` when it is
    /// a JSON object with neither); nil when it is not a JSON object.
    static func code(in body: Data) -> String? {
        guard let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] else { return nil }
        return (object["error"] as? String) ?? (object["message"] as? String) ?? "error body"
    }
}
