import ClientRuntime
import Foundation
import Resilience
import SecureNodeAPI

/// Delivers the ``BillingOutbox`` in the background: due events are sent
/// (a few at once), removed when the server accepts them, rescheduled with
/// exponential backoff and full jitter when the attempt fails in a way that
/// may pass (no connection, timeout, 408, 429, 5xx; `Retry-After` is
/// honoured), and dropped and counted when the server refuses them for good
/// (any other 4xx). Every attempt of an event sends the key it was recorded
/// with.
public actor OutboxDelivery {
    /// Sends one event (with the `event_id` of the event it refers to, if
    /// any); returns the server's `event_id`, throws what the client threw.
    public typealias Send = @Sendable (BillingOutbox.Entry, _ referredEventID: String?) async throws -> String?

    /// What to do with an event after an attempt.
    public enum Disposition: Sendable, Hashable {
        /// The server has it: remove it (keeping its `event_id`).
        case delivered(eventID: String?)
        /// Try again later, not before `notBefore` when the server said so.
        case retry(notBefore: Duration?)
        /// The server will never take it: remove it and count it.
        case drop
    }

    /// What one pass did.
    public struct PassReport: Sendable, Hashable {
        /// Events the server accepted.
        public var delivered = 0
        /// Events kept for a later attempt.
        public var retried = 0
        /// Events refused for good.
        public var dropped = 0
        /// Events attempted in the pass.
        public var attempted: Int { delivered + retried + dropped }
    }

    /// Billing waits: 2 s for the first retry, never more than 10 minutes.
    public static let defaultBackoff = BackoffPolicy(baseDelay: .seconds(2), maximumDelay: .seconds(600))

    private let outbox: BillingOutbox
    private let send: Send
    private let backoff: BackoffPolicy
    private let concurrency: Int
    private let now: @Sendable () -> Date
    private var inFlight = Set<Int64>()

    /// Delivery through `send`; `now` is the clock due dates are read
    /// against (tests inject one).
    public init(
        outbox: BillingOutbox, backoff: BackoffPolicy = OutboxDelivery.defaultBackoff,
        concurrency: Int = 4, now: @escaping @Sendable () -> Date = { Date() }, send: @escaping Send
    ) {
        self.outbox = outbox
        self.send = send
        self.backoff = backoff
        self.concurrency = max(1, concurrency)
        self.now = now
    }

    /// Delivery through the generated SecureNode client (its middlewares
    /// add the API key).
    public init(
        outbox: BillingOutbox, client: SecureNodeAPI.Client,
        backoff: BackoffPolicy = OutboxDelivery.defaultBackoff, concurrency: Int = 4
    ) {
        self.init(outbox: outbox, backoff: backoff, concurrency: concurrency, send: Self.sending(with: client))
    }

    /// Sends an outbox entry with `client`: imprints to `recordImprint`,
    /// call events to `recordBrandingEvent`, the body as recorded (plus
    /// `meta.call_event_id` for a follow-up whose earlier event is known).
    public static func sending(with client: SecureNodeAPI.Client) -> Send {
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

    /// How an attempt that threw `error` ends.
    public static func disposition(for error: any Error) -> Disposition {
        if let failure = error as? any HTTPStatusError {
            switch failure.status {
            case 408, 429, 500...599:
                // Honoured up to a day: an absurd value must not park an event for ever.
                let retryAfter = failure.headerFields[.retryAfter].flatMap { RetryAfter.parse($0) }.map { min($0, .seconds(86_400)) }
                return .retry(notBefore: retryAfter)
            case 400...499:
                return .drop
            default:
                return .retry(notBefore: nil)
            }
        }
        // A 2xx whose body did not match the spec: the server has the event.
        if let decoding = error as? ResponseDecodingError, (200..<300).contains(decoding.status) { return .delivered(eventID: nil) }
        // The stored body no longer decodes: it can never be sent.
        if error is DecodingError { return .drop }
        // No connection, a timeout, a dropped response: the server may or may
        // not have it; the same key makes the next attempt safe either way.
        return .retry(notBefore: nil)
    }

    /// One pass over the events due now, at most `concurrency` in flight;
    /// events a concurrent pass is sending are left to it.
    @discardableResult
    public func deliverDue(limit: Int = 256) async throws -> PassReport {
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
        try await withThrowingTaskGroup(of: (BillingOutbox.Entry, Disposition).self) { group in
            var pending = due.makeIterator()
            func startNext() -> Bool {
                guard let entry = pending.next() else { return false }
                let referredEventID = referred[entry.id]
                group.addTask {
                    do {
                        return (entry, .delivered(eventID: try await send(entry, referredEventID)))
                    } catch {
                        return (entry, Self.disposition(for: error))
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
        case .drop:
            try outbox.markDropped(entry)
            report.dropped += 1
        case .retry(let notBefore):
            var generator = SystemRandomNumberGenerator()
            var wait = backoff.delay(forRetry: entry.attempts + 1, using: &generator)
            if let notBefore, notBefore > wait { wait = notBefore }
            try outbox.reschedule(entry, at: now().addingTimeInterval(wait.totalSeconds))
            report.retried += 1
        }
    }

    /// Delivers until the outbox is empty, sleeping until the next event is
    /// due between passes (a background task's flush; cancel to stop early).
    public func deliverUntilEmpty() async throws {
        while !Task.isCancelled {
            let report = try await deliverDue()
            if report.attempted > 0 { continue }
            guard let next = try outbox.nextAttemptDate() else { return }
            // At least 50 ms: events due now but in flight in another pass
            // must not turn this into a busy loop.
            let wait = max(0.05, next.timeIntervalSince(now()))
            try await Task.sleep(for: .seconds(min(wait, 60)))
        }
    }
}
