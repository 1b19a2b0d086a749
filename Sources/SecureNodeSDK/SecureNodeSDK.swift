import Foundation
import RuntimeSupport

/// The README's `SecureNodeSDK`: the VoIP/CallKit path where the app owns
/// the call event. Create it at launch (in
/// `application(_:didFinishLaunchingWithOptions:)`), after or instead of
/// `SecureNode.configure(_:)`: its `init` starts the presence heartbeat
/// timer (every 5 minutes, and after each successful sync).
///
/// The `BGAppRefreshTask` ``backgroundRefreshTaskIdentifier`` is registered
/// by one call the app makes there, synchronously, before launch ends:
/// `SecureNode.registerBackgroundRefresh()`. iOS ends an app that registers
/// a launch handler after launch, or twice, and an app may create this
/// object later or more than once (a settings switch that reconfigures),
/// so `init` never registers.
///
/// ```swift
/// sdk.recordCallSeen(
///   phoneNumberE164: "+61412345678", brandingDisplayed: true, callOutcome: "ANSWERED",
///   ringDurationSeconds: 12, callDurationSeconds: 180,
///   callerNumberE164: "+61412345678", destinationNumberE164: "+61234567890"
/// ) { result in
///   if case .success(let resp) = result, let callId = resp.eventId {
///     sdk.recordCallReturned(phoneNumberE164: "+61412345678", callId: callId, returnCallLatencySeconds: 120)
///   }
/// }
/// ```
///
/// Events are written to a durable outbox first and billed exactly once;
/// see ``CallEventResponse`` for what a completion receives while the
/// device is offline. Completions run on `SecureNode.defaults.completionQueue`
/// (the main queue on Apple platforms).
public final class SecureNodeSDK: Sendable {
    /// The task identifier to list under `BGTaskSchedulerPermittedIdentifiers`
    /// in the host app's Info.plist: `com.securenode.branding.sync`.
    public static let backgroundRefreshTaskIdentifier = SecureNodeEngine.backgroundRefreshTaskIdentifier

    /// How long a call-event completion waits for the server before it
    /// reports the event queued (10 s).
    public let completionWait: Duration
    /// The scheduler whose registration ``registeredBackgroundRefresh`` reports.
    private let scheduler: BackgroundRefreshScheduler?
    private let engineAtStart: SecureNodeEngine?

    /// Whether the background refresh task is registered
    /// (`SecureNode.registerBackgroundRefresh()`, at launch); false off iOS,
    /// or when the identifier is missing from Info.plist.
    public var registeredBackgroundRefresh: Bool {
        scheduler?.isRegistered(Self.backgroundRefreshTaskIdentifier) ?? false
    }

    /// The SDK over the one `SecureNode.configure(_:)` started: starts
    /// heartbeats.
    public convenience init() {
        self.init(engine: SecureNode.engine)
    }

    /// Configures `SecureNode` with `configuration`, then starts as ``init()``.
    public convenience init(_ configuration: SecureNode.Configuration) {
        SecureNode.configure(configuration)
        self.init()
    }

    /// The SDK over `engine`, with the background scheduler its
    /// registration is read from (`BGTaskScheduler` where it exists) and the
    /// completion wait.
    public init(
        engine: SecureNodeEngine?, scheduler: BackgroundRefreshScheduler? = .system, completionWait: Duration = .seconds(10)
    ) {
        engineAtStart = engine
        self.scheduler = scheduler
        self.completionWait = completionWait
        engine?.startHeartbeats()
    }

    /// The engine this SDK records through: the one it started with.
    public var engine: SecureNodeEngine? { engineAtStart }

    // MARK: Call events

    /// The README's baseline "seen" event: identity was displayed on an
    /// incoming call (`outcome: "displayed"`, `surface: "display"`), with the
    /// call's outcome as the app saw it in `meta.call_outcome`. The
    /// completion receives the server's `event_id`, or the event queued
    /// (``CallEventResponse``).
    public func recordCallSeen(
        phoneNumberE164: String, brandingDisplayed: Bool, callOutcome: CallOutcome, ringDurationSeconds: Int? = nil,
        callDurationSeconds: Int? = nil, callerNumberE164: String? = nil, destinationNumberE164: String? = nil,
        completion: (@Sendable (Result<CallEventResponse, any Error>) -> Void)? = nil
    ) {
        record(completion) { engine in
            engine.recordCallSeen(
                phoneNumberE164: phoneNumberE164, brandingDisplayed: brandingDisplayed, callOutcome: callOutcome,
                ringDurationSeconds: ringDurationSeconds, callDurationSeconds: callDurationSeconds, callerNumberE164: callerNumberE164,
                destinationNumberE164: destinationNumberE164)
        }
    }

    /// The README's missed-call outcome: the "seen" event with
    /// `meta.call_outcome: "MISSED"`.
    public func recordMissedCall(
        phoneNumberE164: String, brandingDisplayed: Bool, ringDurationSeconds: Int? = nil,
        completion: (@Sendable (Result<CallEventResponse, any Error>) -> Void)? = nil
    ) {
        record(completion) { engine in
            engine.recordMissedCall(phoneNumberE164: phoneNumberE164, brandingDisplayed: brandingDisplayed, ringDurationSeconds: ringDurationSeconds)
        }
    }

    /// The README's follow-up attribution: the user returned the call
    /// whose id is `callId` (a completion's ``CallEventResponse/eventId``):
    /// the server's `event_id`, sent at once as `meta.call_event_id`; or,
    /// for an event that was queued, its local id, and the return waits in
    /// the outbox (across relaunches) for that event's delivery, then goes
    /// out once with the server's id.
    public func recordCallReturned(
        phoneNumberE164: String, callId: String, returnCallLatencySeconds: Int? = nil,
        completion: (@Sendable (Result<CallEventResponse, any Error>) -> Void)? = nil
    ) {
        record(completion) { engine in
            engine.recordCallReturned(phoneNumberE164: phoneNumberE164, callID: callId, returnCallLatencySeconds: returnCallLatencySeconds)
        }
    }

    /// Follow-up attribution for an event that was queued (its ``CallEventResponse/eventKey``):
    /// the return event waits in the outbox until the earlier one is
    /// delivered, then goes with its server id.
    public func recordCallReturned(
        phoneNumberE164: String, callEventKey: String, returnCallLatencySeconds: Int? = nil,
        completion: (@Sendable (Result<CallEventResponse, any Error>) -> Void)? = nil
    ) {
        record(completion) { engine in
            engine.recordCallReturned(phoneNumberE164: phoneNumberE164, callEventKey: callEventKey, returnCallLatencySeconds: returnCallLatencySeconds)
        }
    }

    /// The README's full control (`recordCallEvent(...)`): every field of
    /// the event; the SDK derives no call outcome.
    public func recordCallEvent(
        phoneNumberE164: String, callOutcome: CallOutcome, brandingApplied: Bool, identityType: IdentityType? = nil,
        brandingProfileID: String? = nil, ringDurationSeconds: Int? = nil, callDurationSeconds: Int? = nil, callerNumberE164: String? = nil,
        destinationNumberE164: String? = nil, observedAt: Date? = nil, callEventKey: String? = nil,
        completion: (@Sendable (Result<CallEventResponse, any Error>) -> Void)? = nil
    ) {
        record(completion) { engine in
            engine.recordCallEvent(
                phoneNumberE164: phoneNumberE164, callOutcome: callOutcome, brandingApplied: brandingApplied, identityType: identityType,
                brandingProfileID: brandingProfileID, ringDurationSeconds: ringDurationSeconds, callDurationSeconds: callDurationSeconds,
                callerNumberE164: callerNumberE164, destinationNumberE164: destinationNumberE164, observedAt: observedAt,
                callEventKey: callEventKey)
        }
    }

    /// The README's assisted incoming call (`assistIncomingCall(...)`):
    /// the local lookup at ring time and, when branding applies, an imprint
    /// recorded; what to show, nil when nothing applies.
    public func assistIncomingCall(phoneNumberE164: String) -> AssistedCall? {
        engine?.assistIncomingCall(phoneNumberE164: phoneNumberE164)
    }

    /// Removes every cached logo (the README's `sdk.clearImageCache()`).
    public func clearImageCache() {
        try? engine?.clearImageCache()
    }

    /// Records with `write` at once (durably), then completes once the
    /// server answers or ``completionWait`` passes.
    private func record(
        _ completion: (@Sendable (Result<CallEventResponse, any Error>) -> Void)?, _ write: (SecureNodeEngine) -> String?
    ) {
        guard let engine else {
            if let completion { SecureNode.deliver { completion(.failure(SecureNodeSDKError.notConfigured)) } }
            return
        }
        guard let key = write(engine) else {
            if let completion { SecureNode.deliver { completion(.failure(SecureNodeSDKError.notRecorded)) } }
            return
        }
        guard let completion else { return }
        let wait = completionWait
        Task {
            let result: Result<CallEventResponse, any Error>
            switch await engine.waitForDelivery(of: key, upTo: wait) {
            case .delivered(let eventID):
                result = .success(CallEventResponse(eventId: eventID, eventKey: key, isQueued: false))
            case .pending:
                // Not known to the server yet: a local call id, which recordCallReturned resolves once it is.
                result = .success(CallEventResponse(eventId: LocalCallID.make(eventKey: key), eventKey: key, isQueued: true))
            case .unknown:
                // Gone from the outbox without a server id: refused, or delivered without one.
                if let drop = await engine.billingDrop(for: key) {
                    result = .failure(SecureNodeSDKError.refused(status: drop.status, reason: drop.reason))
                } else {
                    result = .success(CallEventResponse(eventId: nil, eventKey: key, isQueued: false))
                }
            }
            SecureNode.deliver { completion(result) }
        }
    }
}
