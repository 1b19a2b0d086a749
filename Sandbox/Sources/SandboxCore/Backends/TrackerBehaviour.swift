import ContractCheck
import Foundation
import RuntimeSupport

/// MobileTracker as its document's endpoint section describes it: sessions
/// created for a device and brand, events, profile and location updates
/// recorded in arrival order, the API key checked when one is set. A body
/// that arrives twice byte for byte is counted, which is how a client that
/// sent a queued event twice shows up.
public final class TrackerBehaviour: SandboxBehaviour {
    /// A request the backend applied.
    public struct Received: Sendable {
        /// `event`, `profile`, `location` or `session`.
        public let kind: String
        /// The session it names (`session_id`, or the path's).
        public let sessionID: String?
        /// The event name, for events.
        public let eventName: String?
        /// The body as sent.
        public let bytes: [UInt8]
    }

    private struct State {
        var received: [Received] = []
        var sessions: [String] = []
        var eventBodies: Set<[UInt8]> = []
        var repeatedEvents = 0
    }

    /// What the session ids it creates look like: the reference never says
    /// an id is a UUID, and deployed backends also give numbers and
    /// prefixed strings.
    public enum SessionIDStyle: String, Sendable, CaseIterable {
        /// `3f2b8c1e-7d4a-4b6e-9f10-2a3b4c5d6e7f`.
        case uuid
        /// `12345`.
        case numeric
        /// `sess_8f3a2c`.
        case prefixed
    }

    private let state = Locked(State())
    private let acceptedKey: Locked<String?>
    private let sessionIDStyle: SessionIDStyle

    /// A backend checking `apiKey` when given, creating sessions with ids of `sessionIDStyle`.
    public init(apiKey: String? = nil, sessionIDStyle: SessionIDStyle = .uuid) {
        acceptedKey = Locked(apiKey)
        self.sessionIDStyle = sessionIDStyle
    }

    /// The key every request must carry in `X-API-Key`; nil accepts any.
    public var apiKey: String? { acceptedKey.withLock { $0 } }

    /// Replaces the accepted key, as a brand whose key was rotated: requests
    /// with the old one get 401 from now on.
    public func rotateKey(to key: String) {
        acceptedKey.withLock { $0 = key }
    }

    /// Everything applied, in arrival order.
    public var received: [Received] { state.withLock { $0.received } }
    /// Sessions created, in order.
    public var sessions: [String] { state.withLock { $0.sessions } }

    public func summary() -> [String: Any] {
        state.withLock { state in
            var names: [String: Int] = [:]
            for event in state.received where event.kind == "event" { names[event.eventName ?? "", default: 0] += 1 }
            return [
                "sessions": state.sessions.count, "events": names.values.reduce(0, +), "eventsByName": names,
                "repeatedEvents": state.repeatedEvents, "profiles": state.received.filter { $0.kind == "profile" }.count,
                "locations": state.received.filter { $0.kind == "location" }.count,
            ]
        }
    }

    /// A key other than the one set: 401.
    public func refuseCredential(of request: ContractRequest) -> SandboxReply? {
        guard let apiKey, request.header("X-API-Key") != apiKey else { return nil }
        return SandboxJSON.reply(401, ["success": false, "message": "Invalid API key"])
    }

    /// `{"success": false, "message": ...}`, each broken rule under
    /// `violations` (the spec's error body allows extra members).
    public func errorReply(status: Int, message: String, violations: [ContractViolation]) -> SandboxReply? {
        SandboxJSON.reply(status, ["success": false, "message": message, "violations": ContractRefusal.entries(violations)])
    }

    public func respond(to request: ContractRequest) -> SandboxReply? {
        if let refusal = refuseCredential(of: request) { return refusal }
        return state.withLock { [sessionIDStyle] in Self.handle(request, state: &$0, sessionIDStyle: sessionIDStyle) }
    }

    private static func handle(_ request: ContractRequest, state: inout State, sessionIDStyle: SessionIDStyle) -> SandboxReply? {
        let bytes = request.body ?? []
        let body = SandboxJSON.object(bytes)
        func failure(_ message: String) -> SandboxReply { SandboxJSON.reply(400, ["success": false, "message": message]) }
        let success = SandboxJSON.reply(200, ["success": true])
        guard request.header("Content-Type")?.hasPrefix("application/json") == true else { return failure("Content-Type must be application/json") }
        switch (request.method, request.path) {
        case ("POST", "/v2/tracking-session"):
            guard body["device_id"] is String, body["brand_id"] is NSNumber else { return failure("device_id and brand_id required") }
            let id: String
            switch sessionIDStyle {
            case .uuid: id = UUID().uuidString.lowercased()
            case .numeric: id = String(12_345 + state.sessions.count)
            case .prefixed: id = "sess_" + String(UUID().uuidString.lowercased().prefix(6))
            }
            state.sessions.append(id)
            state.received.append(Received(kind: "session", sessionID: id, eventName: nil, bytes: bytes))
            return SandboxJSON.reply(200, ["data": ["id": id]])
        case ("POST", "/v2/tracking-session-data"):
            guard let session = body["session_id"] as? String, let name = body["event_name"] as? String, body["brand_id"] is NSNumber else {
                return failure("brand_id, session_id and event_name required")
            }
            if !state.eventBodies.insert(bytes).inserted { state.repeatedEvents += 1 }
            state.received.append(Received(kind: "event", sessionID: session, eventName: name, bytes: bytes))
            return success
        case ("PUT", "/v1/customer-profiles/set"):
            state.received.append(Received(kind: "profile", sessionID: body["session_id"] as? String, eventName: nil, bytes: bytes))
            return success
        case ("PUT", let path) where path.hasPrefix("/v2/tracking-session/") && path.hasSuffix("/location"):
            let session = path.split(separator: "/").dropFirst(2).first.map(String.init)
            state.received.append(Received(kind: "location", sessionID: session, eventName: nil, bytes: bytes))
            return success
        default:
            return nil
        }
    }
}
