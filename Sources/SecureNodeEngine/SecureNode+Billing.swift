import BrandingStore
import ClientRuntime
import Foundation
import OpenAPIRuntime
import Resilience
import SecureNodeAPI

/// Billing events: recorded durably at once, delivered exactly once.
extension SecureNodeEngine {
    // MARK: Billing events

    /// The assisted incoming-call path (the README's `assistIncomingCall`):
    /// looks the number up locally (no network, as ``lookup(e164:atRingTime:)``, which opens the ring-time quiet window) and,
    /// when branding applies, records an imprint (`POST /branding/imprint`,
    /// billable, delivered in the background) and returns what to show. Nil
    /// when nothing applies (no record, branding off): nothing is billed.
    public func assistIncomingCall(phoneNumberE164: String, surface: String = "display") -> AssistedCall? {
        guard let record = lookup(e164: phoneNumberE164) else { return nil }
        let key = recordImprint(phoneNumberE164: record.e164, brandID: record.brandID.isEmpty ? nil : record.brandID, surface: surface)
        return AssistedCall(record: record, logo: cachedLogo(for: record), imprintKey: key)
    }

    /// Records a call event with every field the README names (`POST
    /// /branding/event`). The body is the README's: `outcome` (`displayed`
    /// by default: the identity was shown), `surface` (`display`),
    /// `displayed_at` (the moment identity was shown: `displayedAt`, else
    /// when this SDK's ring-time lookup last showed the number, within the
    /// hour, else `observedAt`), and in `meta` the call's outcome as the app
    /// observed it (`call_outcome`; the SDK derives none), whether branding
    /// was applied, with which profile and identity type, durations and
    /// numbers. Written to the outbox and delivered in the background;
    /// returns the event's key, which later events take as `callEventKey`
    /// (sent as `meta.call_event_id` once the server has answered with the
    /// event's id).
    @discardableResult
    public func recordCallEvent(
        phoneNumberE164: String, callOutcome: CallOutcome, brandingApplied: Bool, identityType: IdentityType? = nil,
        brandingProfileID: String? = nil, ringDurationSeconds: Int? = nil, callDurationSeconds: Int? = nil, callerNumberE164: String? = nil,
        destinationNumberE164: String? = nil, observedAt: Date? = nil, displayedAt: Date? = nil, surface: String = "display",
        outcome: String = "displayed", callEventKey: String? = nil
    ) -> String? {
        let observedAt = observedAt ?? now()
        return recordEvent(
            phoneNumberE164: phoneNumberE164, outcome: outcome, surface: surface,
            displayedAt: displayedAt ?? displays.shownAt(phoneNumberE164, before: observedAt) ?? observedAt,
            meta: EventMeta(
                callerNumberE164: callerNumberE164, destinationNumberE164: destinationNumberE164, observedAtUTC: observedAt,
                brandingApplied: brandingApplied, brandingProfileID: brandingProfileID, identityType: identityType?.rawValue,
                ringDurationSeconds: ringDurationSeconds.map(Int32.init(clamping:)),
                callDurationSeconds: callDurationSeconds.map(Int32.init(clamping:)), callOutcome: callOutcome.rawValue),
            refersTo: callEventKey)
    }

    /// Records that identity was shown on an incoming call (the README's
    /// baseline "seen" event, `recordCallSeen`): `outcome: "displayed"`,
    /// `surface: "display"`, and the call's outcome in `meta.call_outcome`;
    /// ``recordCallEvent(phoneNumberE164:callOutcome:brandingApplied:identityType:brandingProfileID:ringDurationSeconds:callDurationSeconds:callerNumberE164:destinationNumberE164:observedAt:displayedAt:surface:outcome:callEventKey:)``
    /// with the common fields. Returns the event's key, which
    /// ``recordCallReturned(phoneNumberE164:callEventKey:returnCallLatencySeconds:)``
    /// takes to attribute a return call.
    @discardableResult
    public func recordCallSeen(
        phoneNumberE164: String, brandingDisplayed: Bool, callOutcome: CallOutcome, ringDurationSeconds: Int? = nil,
        callDurationSeconds: Int? = nil, callerNumberE164: String? = nil, destinationNumberE164: String? = nil, surface: String = "display"
    ) -> String? {
        recordCallEvent(
            phoneNumberE164: phoneNumberE164, callOutcome: callOutcome, brandingApplied: brandingDisplayed, ringDurationSeconds: ringDurationSeconds,
            callDurationSeconds: callDurationSeconds, callerNumberE164: callerNumberE164, destinationNumberE164: destinationNumberE164, surface: surface)
    }

    /// Records a missed call (the README's `recordMissedCall`): the "seen"
    /// event with `meta.call_outcome: "MISSED"`.
    @discardableResult
    public func recordMissedCall(phoneNumberE164: String, brandingDisplayed: Bool, ringDurationSeconds: Int? = nil) -> String? {
        recordCallSeen(phoneNumberE164: phoneNumberE164, brandingDisplayed: brandingDisplayed, callOutcome: .missed, ringDurationSeconds: ringDurationSeconds)
    }

    /// Records that the user called a branded number back (the README's
    /// follow-up attribution, `recordCallReturned`): `outcome: "returned"`,
    /// `surface: "display"`, `meta.return_call_detected: true` and the
    /// latency; sent with the earlier event's server id
    /// (`meta.call_event_id`) once it is known.
    @discardableResult
    public func recordCallReturned(phoneNumberE164: String, callEventKey: String?, returnCallLatencySeconds: Int? = nil) -> String? {
        let now = self.now()
        return recordEvent(
            phoneNumberE164: phoneNumberE164, outcome: "returned", surface: "display", displayedAt: now,
            meta: EventMeta(
                observedAtUTC: now, returnCallDetected: true, returnCallLatencySeconds: returnCallLatencySeconds.map(Int32.init(clamping:))),
            refersTo: callEventKey)
    }

    /// Records a return call when the app holds the earlier event's call id
    /// (the README's `callId`): the server's `event_id`, sent as
    /// `meta.call_event_id` at once, with no wait for another event; or a
    /// `LocalCallID` (the earlier event was queued), and then the return
    /// waits in the outbox, across relaunches, for that event's delivery and
    /// goes out once with its server id.
    @discardableResult
    public func recordCallReturned(phoneNumberE164: String, callID: String, returnCallLatencySeconds: Int? = nil) -> String? {
        if let key = LocalCallID.eventKey(of: callID) {
            return recordCallReturned(phoneNumberE164: phoneNumberE164, callEventKey: key, returnCallLatencySeconds: returnCallLatencySeconds)
        }
        let now = self.now()
        return recordEvent(
            phoneNumberE164: phoneNumberE164, outcome: "returned", surface: "display", displayedAt: now,
            meta: EventMeta(
                callEventID: callID, observedAtUTC: now, returnCallDetected: true,
                returnCallLatencySeconds: returnCallLatencySeconds.map(Int32.init(clamping:))))
    }

    /// Waits up to `limit` for the event recorded under `eventKey` to be
    /// delivered: its server `event_id` once the server has it, `.pending`
    /// while it still waits in the outbox (it is delivered later, once),
    /// `.unknown` when it was dropped or delivered without an id.
    package func waitForDelivery(of eventKey: String, upTo limit: Duration) async -> BillingEventReference {
        let deadline = ContinuousClock.now + limit
        var pause = Duration.milliseconds(20)
        while true {
            let reference = (try? outbox.reference(to: eventKey)) ?? .unknown
            guard reference == .pending, ContinuousClock.now + pause < deadline, !Task.isCancelled else { return reference }
            try? await Task.sleep(for: pause)
            pause = min(pause * 2, .milliseconds(500))
        }
    }

    /// Why the event recorded under `eventKey` was dropped (the server said
    /// it is invalid: its status and error code), nil when it was not (or
    /// not among the last 256 dropped).
    package func billingDrop(for eventKey: String) async -> (status: Int, reason: String)? {
        await delivery.dropReason(for: eventKey)
    }

    /// Records an imprint (branding applied to a call; `POST
    /// /branding/imprint`). Returns the event key.
    @discardableResult
    public func recordImprint(phoneNumberE164: String, brandID: String?, surface: String = "display") -> String? {
        let key = BillingOutbox.makeEventKey()
        let imprint = ImprintRequest(
            phoneNumberE164: phoneNumberE164, eventKey: key, brandID: brandID, deviceID: deviceID,
            displayedAt: displays.shownAt(phoneNumberE164, before: now()) ?? now(), outcome: "displayed", surface: surface)
        return recorded { try outbox.record(imprint) }
    }

    func recordEvent(
        phoneNumberE164: String, outcome: String, surface: String, displayedAt: Date, meta: EventMeta, refersTo: String? = nil
    ) -> String? {
        let event = UsageEventRequest(
            phoneNumberE164: phoneNumberE164, outcome: outcome, surface: surface, displayedAt: displayedAt, deviceID: deviceID, meta: meta)
        return recorded { try outbox.record(event, refersTo: refersTo) }
    }

    /// Runs a recording, then wakes the delivery loop.
    func recorded(_ write: () throws -> String) -> String? {
        guard let key = try? write() else { return nil }
        let deliveryLoop = self.deliveryLoop
        Task { await deliveryLoop.kick() }
        return key
    }

    /// Delivers every pending event, waiting out backoff (a background
    /// task's flush); returns when the outbox is empty, the task is
    /// cancelled, or the server refused the credentials (delivery paused).
    public func deliverPendingEvents() async {
        try? await delivery.deliverUntilEmpty()
    }

    /// Resumes billing delivery paused by a 401/403 without new credentials
    /// (the app knows the refusal was temporary). ``configure(apiKey:)``
    /// resumes it too.
    public func resumeBillingDelivery() async {
        await delivery.resume()
        await deliveryLoop.kick()
    }

    /// The billing outbox's counts, kept across restarts: events waiting,
    /// delivered, and dropped for good.
    public func billingCounts() throws -> BillingCounts { try outbox.counts() }

    /// The status that paused billing delivery (401 or 403), nil while it runs.
    public func billingPausedForStatus() async -> Int? { await delivery.pausedForStatus }

    /// Every billing pause, resume and dropped event from now on (each drop
    /// is also in `billingCounts().dropped`).
    public func billingNotices() async -> AsyncStream<BillingNotice> { await delivery.notices() }
}
