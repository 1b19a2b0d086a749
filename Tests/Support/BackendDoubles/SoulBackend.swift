import Foundation
import LoopbackHTTPServer
import RuntimeSupport
import SandboxCore

/// A SOUL backend that behaves as the SOUL document says, on a loopback
/// socket: the sandbox's ``SoulBehaviour`` (OTP request and verify with the
/// staging preview code 123456, a rate limit on code requests with
/// `Retry-After`, access tokens that expire, refresh tokens that rotate,
/// logout, moods, the health check). Tests inject faults with ``fault``.
package final class SoulBackend: Sendable {
    /// The server's settings.
    package typealias Settings = SoulBehaviour.Settings
    /// What the backend has seen, for assertions.
    package typealias Counters = SoulBehaviour.Counters

    /// The server.
    package let server: LoopbackHTTPServer
    /// A fault to answer instead of the real behaviour (nil: behave).
    package let fault = Locked<(@Sendable (LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Reply?)?>(nil)
    /// The backend's state.
    package let behaviour: SoulBehaviour

    /// Starts the backend on a free loopback port.
    package convenience init(settings: Settings = Settings(), keepAlive: Bool = true) throws {
        try self.init(behaviour: SoulBehaviour(settings: settings), port: 0, keepAlive: keepAlive)
    }

    /// A backend on `port` with the state of `behaviour`: a server brought
    /// back where its clients expect it, remembering its users and tokens.
    package init(behaviour: SoulBehaviour, port: Int, keepAlive: Bool = true) throws {
        let fault = self.fault
        self.behaviour = behaviour
        server = try LoopbackHTTPServer(keepAlive: keepAlive, port: port) { request in
            if let reply = fault.read()?(request) { return reply }
            return behaviour.respond(to: request.contractRequest)?.loopbackReply ?? .json(404, #"{"detail":"Not Found"}"#)
        }
    }

    deinit { server.shutdown() }

    /// `http://127.0.0.1:PORT`.
    package var baseURL: URL { server.baseURL }
    /// What the backend has seen so far.
    package var counters: Counters { behaviour.counters }
    /// Changes the settings.
    package func update(_ change: (inout Settings) -> Void) { behaviour.update(change) }
    /// Makes every access token issued so far expired.
    package func expireAccessTokens() { behaviour.expireAccessTokens() }
    /// The code sent to `phone` by SMS (production mode), for a test to type.
    package func code(sentTo phone: String) -> String? { behaviour.code(sentTo: phone) }
    /// Every access and refresh token issued so far.
    package var issuedTokens: [String] { behaviour.issuedTokens }
    /// Every secret that crossed the wire: tokens, OTP codes, and the full phone numbers.
    package var secrets: [String] { behaviour.secrets }
    /// The refresh tokens the server would still accept.
    package var liveRefreshTokens: Set<String> { behaviour.liveRefreshTokens }
}
