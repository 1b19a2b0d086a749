import Foundation
import LoopbackHTTPServer
import RuntimeSupport
import SandboxCore

/// A SecureNode backend that behaves as the contract and the iOS README say,
/// on a loopback socket, mounted under `/api` (the root answers 404, so
/// clients find the mount): the sandbox's ``SecureNodeBehaviour`` over a
/// dataset the test edits (device registration and presence, full and
/// incremental syncs, call events and imprints deduplicated by `event_key`,
/// the API key checked). Tests inject faults with ``fault``.
package final class SecureNodeBackend: Sendable {
    /// A billing request the backend applied (first delivery of its key).
    package typealias Billed = SecureNodeBehaviour.Billed

    /// The server.
    package let server: LoopbackHTTPServer
    /// A fault to answer instead of the real behaviour (nil: behave).
    package let fault = Locked<(@Sendable (LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Reply?)?>(nil)
    private let behaviour: SecureNodeBehaviour
    /// The key every request must carry.
    package let apiKey: String

    /// Starts the backend on a free loopback port, with no records until
    /// the test sets some.
    package init(apiKey: String = "sk_test_key") throws {
        self.apiKey = apiKey
        var settings = SecureNodeBehaviour.Settings()
        settings.datasetSize = 0
        settings.changeInterval = nil
        settings.apiKey = apiKey
        let behaviour = SecureNodeBehaviour(settings: settings)
        self.behaviour = behaviour
        let fault = self.fault
        server = try LoopbackHTTPServer(keepAlive: false) { request in
            if let reply = fault.read()?(request) { return reply }
            return behaviour.respond(to: request.contractRequest)?.loopbackReply ?? .json(404, #"{"error":"not_found"}"#)
        }
    }

    /// `http://127.0.0.1:PORT` (without `/api`: clients find it).
    package var baseURL: URL { server.baseURL }

    /// Adds or changes a record (`active: false` makes the next incremental sync purge it).
    package func setRecord(_ e164: String, name: String, active: Bool = true, logoURL: String? = nil, callReason: String? = nil) {
        behaviour.setRecord(e164, name: name, active: active, logoURL: logoURL, callReason: callReason)
    }

    /// Billing requests applied, in arrival order (each key once).
    package var billed: [Billed] { behaviour.billed }

    /// Devices registered.
    package var devices: Set<String> { behaviour.devices }

    /// Presence heartbeats received.
    package var presenceCount: Int { behaviour.presenceCount }
}

extension SecureNodeBehaviour.Billed {
    /// The body as a JSON object.
    package var json: [String: Any] { JSONText.object(bytes) ?? [:] }
}
