import Foundation
import LoopbackHTTPServer
import RuntimeSupport
import SandboxCore

/// A MobileTracker backend that behaves as the document's endpoint section
/// says, on a loopback socket: the sandbox's ``TrackerBehaviour`` (sessions,
/// events, profile and location updates recorded in arrival order, the API
/// key checked). Tests inject faults with ``fault``, and
/// ``dropAfterApplying`` loses a share of responses after the server applied
/// the request (what makes a client send a row twice).
package final class TrackerBackend: Sendable {
    /// A request the backend applied.
    package typealias Received = TrackerBehaviour.Received
    /// What the session ids the backend creates look like.
    package typealias SessionIDStyle = TrackerBehaviour.SessionIDStyle

    /// The server.
    package let server: LoopbackHTTPServer
    /// A fault to answer instead of the real behaviour (nil: behave).
    package let fault = Locked<(@Sendable (LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Reply?)?>(nil)
    /// The share (0...1) of applied requests whose response is dropped.
    package let dropAfterApplying = Locked(0.0)
    private let dropped = Locked((count: 0, random: SystemRandomNumberGenerator()))
    private let behaviour: TrackerBehaviour

    /// Starts the backend on a free loopback port.
    package init(apiKey: String = "test-key", keepAlive: Bool = true, sessionIDStyle: SessionIDStyle = .uuid) throws {
        let behaviour = TrackerBehaviour(apiKey: apiKey, sessionIDStyle: sessionIDStyle)
        self.behaviour = behaviour
        let fault = self.fault
        let drop = dropAfterApplying
        let dropped = self.dropped
        server = try LoopbackHTTPServer(keepAlive: keepAlive) { request in
            if let reply = fault.read()?(request) { return reply }
            guard let reply = behaviour.respond(to: request.contractRequest) else { return .json(404, #"{"success":false,"message":"Not Found"}"#) }
            let share = drop.withLock { $0 }
            if share > 0, (200..<300).contains(reply.status) {
                let lost = dropped.withLock { state -> Bool in
                    guard Double.random(in: 0..<1, using: &state.random) < share else { return false }
                    state.count += 1
                    return true
                }
                if lost { return .dropConnection }
            }
            return reply.loopbackReply
        }
    }

    deinit { server.shutdown() }

    /// `http://127.0.0.1:PORT`.
    package var baseURL: URL { server.baseURL }
    /// The key every request must carry.
    package var apiKey: String { behaviour.apiKey ?? "" }
    /// Rotates the accepted key: requests with the old one get 401.
    package func rotateKey(to key: String) { behaviour.rotateKey(to: key) }
    /// Everything applied, in arrival order.
    package var received: [Received] { behaviour.received }
    /// The events applied, in arrival order.
    package var events: [Received] { received.filter { $0.kind == "event" } }
    /// Sessions created, in order.
    package var sessions: [String] { behaviour.sessions }
    /// Responses dropped after applying.
    package var responsesDropped: Int { dropped.withLock { $0.count } }
}

extension TrackerBehaviour.Received {
    /// The body as a JSON object.
    package var json: [String: Any] { JSONText.object(bytes) ?? [:] }
}
