import Foundation

/// What a call-event completion receives (`recordCallSeen`,
/// `recordMissedCall`, `recordCallEvent` of ``SecureNodeSDK``).
///
/// The event is written to the SDK's outbox before anything is sent, and
/// billed exactly once, whatever happens to the network. The completion
/// comes once, with one of two answers:
///
/// - delivered: the server has the event within
///   ``SecureNodeSDK/completionWait`` (10 s); ``eventId`` is its `event_id`
///   (the README's call id, for `recordCallReturned(phoneNumberE164:callId:returnCallLatencySeconds:)`);
/// - queued: offline, slow, or held back by a call in progress;
///   ``isQueued`` is true and ``eventId`` a local call id (`local:` and the
///   event key, `LocalCallID`). The event stays in the outbox and goes out
///   later (this launch or the next), once. The README's code attributes
///   the return call unchanged: `recordCallReturned(phoneNumberE164:callId:returnCallLatencySeconds:)`
///   with the local id waits, durably, for the event's delivery and sends
///   the server's id; the app may keep the id across relaunches.
public struct CallEventResponse: Sendable, Hashable {
    /// The call id: the server's `event_id`, or while the event is queued
    /// its local id (`local:<event key>`), which `recordCallReturned(...callId:...)`
    /// resolves; nil only when the server took the event without an id.
    public var eventId: String?
    /// The event's key (`event_key`), the same on every attempt.
    public var eventKey: String
    /// Whether the event waits in the outbox for delivery.
    public var isQueued: Bool

    /// A response.
    public init(eventId: String?, eventKey: String, isQueued: Bool) {
        self.eventId = eventId
        self.eventKey = eventKey
        self.isQueued = isQueued
    }
}

/// Why a call-event completion failed: nothing billable is lost silently.
public enum SecureNodeSDKError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `SecureNode.configure(_:)` has not started the SDK.
    case notConfigured
    /// The event could not be written to the outbox (the disk is full or
    /// the files cannot be opened); nothing was recorded.
    case notRecorded
    /// The server stated the event invalid (a 400 or 422 with its error
    /// code); it was dropped and counted.
    case refused(status: Int, reason: String)

    /// What happened.
    public var description: String {
        switch self {
        case .notConfigured: return "SecureNode is not configured: call SecureNode.configure(_:) at launch, before recording events"
        case .notRecorded: return "the event could not be written to the SDK's outbox; nothing was recorded"
        case .refused(let status, let reason): return "the server refused the event (\(status), \(reason)); it was dropped"
        }
    }
}
