/// The call id a queued event is known by until the server gives it one:
/// `local:` and the event's key. SecureNodeSDK's completions hand it out in
/// place of the server's `event_id` while the event waits in the outbox,
/// so the README's `if let callId = resp.eventId { recordCallReturned(...,
/// callId: callId, ...) }` attributes the return call offline too: a return
/// event naming a local id waits, durably, for the seen event's delivery and
/// goes out once with its server id.
package enum LocalCallID {
    /// What a local id starts with (never a server id's start: the server's
    /// are its own, such as `evt_1`).
    package static let prefix = "local:"

    /// The local call id of the event recorded under `eventKey`.
    package static func make(eventKey: String) -> String { prefix + eventKey }

    /// The event key a local call id names; nil for a server's id.
    package static func eventKey(of callID: String) -> String? {
        guard callID.hasPrefix(prefix), callID.count > prefix.count else { return nil }
        return String(callID.dropFirst(prefix.count))
    }
}
