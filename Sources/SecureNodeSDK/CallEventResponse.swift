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
///   ``eventId`` is nil and ``isQueued`` true. The event stays in the
///   outbox and goes out later (this launch or the next), once. A return
///   call is still attributed: pass ``eventKey`` to
///   `recordCallReturned(phoneNumberE164:callEventKey:returnCallLatencySeconds:)`,
///   which waits for the server's id and sends it.
public struct CallEventResponse: Sendable, Hashable {
    /// The server's `event_id` (the call id); nil while the event is queued.
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
