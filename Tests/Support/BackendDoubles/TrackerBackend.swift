import Foundation
import LoopbackHTTPServer
import ProcessTestSupport

/// A MobileTracker backend that behaves as the document's endpoint section
/// says, on a loopback socket: sessions created for a device and brand,
/// events, profile and location updates recorded in arrival order, every
/// request checked for the API key. Tests inject faults with ``fault``, and
/// ``dropAfterApplying`` loses a share of responses after the server applied
/// the request (what makes a client send a row twice).
package final class TrackerBackend: Sendable {
    /// A request the backend applied.
    package struct Received: Sendable {
        /// `event`, `profile`, `location` or `session`.
        package let kind: String
        /// The session it names (`session_id`, or the path's).
        package let sessionID: String?
        /// The event name, for events.
        package let eventName: String?
        /// The body as sent.
        package let bytes: [UInt8]

        /// The body as a JSON object.
        package var json: [String: Any] { JSONText.object(bytes) ?? [:] }
    }

    private struct State {
        var received: [Received] = []
        var sessions: [String] = []
        var responsesDropped = 0
        var random = SystemRandomNumberGenerator()
    }

    /// The server.
    package let server: LoopbackHTTPServer
    /// A fault to answer instead of the real behaviour (nil: behave).
    package let fault = Mutex<(@Sendable (LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Reply?)?>(nil)
    /// The share (0...1) of applied requests whose response is dropped.
    package let dropAfterApplying = Mutex(0.0)
    private let state = Mutex(State())
    /// The key every request must carry.
    package let apiKey: String

    /// Starts the backend on a free loopback port.
    package init(apiKey: String = "test-key", keepAlive: Bool = true) throws {
        self.apiKey = apiKey
        let state = self.state
        let fault = self.fault
        let drop = dropAfterApplying
        server = try LoopbackHTTPServer(keepAlive: keepAlive) { request in
            if let reply = fault.withLock({ $0 })?(request) { return reply }
            guard request.header("X-API-Key") == apiKey else { return .json(401, #"{"success":false,"message":"Invalid API key"}"#) }
            let reply = state.withLock { Self.handle(request, state: &$0) }
            let share = drop.withLock { $0 }
            if share > 0, case .respond(let status, _, _) = reply, (200..<300).contains(status) {
                let lost = state.withLock { state -> Bool in
                    guard Double.random(in: 0..<1, using: &state.random) < share else { return false }
                    state.responsesDropped += 1
                    return true
                }
                if lost { return .dropConnection }
            }
            return reply
        }
    }

    deinit { server.shutdown() }

    /// `http://127.0.0.1:PORT`.
    package var baseURL: URL { server.baseURL }
    /// Everything applied, in arrival order.
    package var received: [Received] { state.withLock { $0.received } }
    /// The events applied, in arrival order.
    package var events: [Received] { received.filter { $0.kind == "event" } }
    /// Sessions created, in order.
    package var sessions: [String] { state.withLock { $0.sessions } }
    /// Responses dropped after applying.
    package var responsesDropped: Int { state.withLock { $0.responsesDropped } }

    private static func handle(_ request: LoopbackHTTPServer.Request, state: inout State) -> LoopbackHTTPServer.Reply {
        let body = JSONText.object(request.body) ?? [:]
        guard request.header("Content-Type")?.hasPrefix("application/json") == true else {
            return .json(400, #"{"success":false,"message":"Content-Type must be application/json"}"#)
        }
        switch (request.method, request.path) {
        case ("POST", "/v2/tracking-session"):
            guard body["device_id"] is String, body["brand_id"] is NSNumber else { return .json(400, #"{"success":false,"message":"device_id and brand_id required"}"#) }
            let id = UUID().uuidString.lowercased()
            state.sessions.append(id)
            state.received.append(Received(kind: "session", sessionID: id, eventName: nil, bytes: request.body))
            return .json(200, #"{"data":{"id":"\#(id)"}}"#)
        case ("POST", "/v2/tracking-session-data"):
            guard let session = body["session_id"] as? String, let name = body["event_name"] as? String, body["brand_id"] is NSNumber else {
                return .json(400, #"{"success":false,"message":"brand_id, session_id and event_name required"}"#)
            }
            state.received.append(Received(kind: "event", sessionID: session, eventName: name, bytes: request.body))
            return .json(200, #"{"success":true}"#)
        case ("PUT", "/v1/customer-profiles/set"):
            state.received.append(Received(kind: "profile", sessionID: body["session_id"] as? String, eventName: nil, bytes: request.body))
            return .json(200, #"{"success":true}"#)
        case ("PUT", let path) where path.hasPrefix("/v2/tracking-session/") && path.hasSuffix("/location"):
            let session = path.split(separator: "/").dropFirst(2).first.map(String.init)
            state.received.append(Received(kind: "location", sessionID: session, eventName: nil, bytes: request.body))
            return .json(200, #"{"success":true}"#)
        default:
            return .json(404, #"{"success":false,"message":"Not Found"}"#)
        }
    }
}
