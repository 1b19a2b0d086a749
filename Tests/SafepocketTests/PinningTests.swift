import BackendDoubles
import ClientRuntimeTesting
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Resilience
import RuntimeSupport
import Safepocket
import SafepocketAPI
import Testing

/// The edge of a pinned connection to `https://localhost:<the backend's
/// port>`: the requests reach the backend double over loopback (plain
/// http) until `refusing` is set; then each one fails as a connection
/// refused by its pins does, before any byte is sent. Counts what it was
/// asked to send, by path. (The host and port are the backend's so that
/// the connect-timeout dial on Linux reaches a listener.)
final class PinnedEdge: PinEnforcingTransport, Sendable {
    static let host = "localhost"
    let url: URL
    let inner: RedirectingTransport
    let refusing = Locked(false)
    let asked = Locked([String]())

    init(backend: SafepocketBackend) {
        inner = RedirectingTransport(to: backend.baseURL)
        url = URL(string: "https://\(Self.host):\(backend.baseURL.port ?? 443)")!
    }

    /// The refusal the platform's evaluation would record for a chain
    /// without a pinned key.
    static func refusal() throws -> CertificatePinningError {
        CertificatePinningError(
            host: host, reason: .noPinnedKey, presented: [try PublicKeyPin(SafepocketPinningTests.presentedPin)],
            expected: try SafepocketPinningTests.pins.map { try PublicKeyPin($0) })
    }

    /// The edge plays a connection that checks the pins (refusing when told to).
    func enforces(_ pinning: CertificatePinning) -> Bool { true }

    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        asked.withLock { $0.append(String((request.path ?? "").split(separator: "?").first ?? "")) }
        if refusing.read() { throw try Self.refusal() }
        return try await inner.send(request, body: body, baseURL: baseURL, operationID: operationID)
    }
}

@Suite struct SafepocketPinningTests {
    /// Two pins, as the configuration requires (any two keys: the edge decides).
    static let pins = ["sha256/4sEBer2Lpb8nKWkQmA0+1KulJEtftPQA9TsEAJRvL/A=", "sha256/MKSwfbFgC0cuPG2r5af1fKfFM1Jlrjw9NidOkoEcY0E="]
    /// The key a refused server presented.
    static let presentedPin = "sha256/ByHO1QRWa19TIfLSqODw7CQHMY+VB6NjW/mgBadXbrs="

    /// Signs `safepocket` in through the PKCE flow, the backend playing the hosted UI.
    func signIn(_ safepocket: Safepocket, _ harness: SafepocketHarness) async throws {
        let url = try await safepocket.startSignIn()
        let redirect = try #require(harness.backend.authorize(url))
        try await safepocket.completeSignIn(redirect: redirect)
    }

    @Test func aConnectionThatFailsItsPinsIsATypedErrorNeverRetriedNeverOfflineNeverServedFromCache() async throws {
        let harness = try SafepocketHarness()
        defer { harness.cleanUp() }
        let edge = PinnedEdge(backend: harness.backend)
        let connectivity = Connectivity.observingRequests()
        let pinning = try CertificatePinning(pins: [PinnedEdge.host: Self.pins])
        let safepocket = try harness.makeSafepocket(connectivity: connectivity, baseURL: edge.url, transport: edge, pinning: pinning)
        try await signIn(safepocket, harness)
        _ = try await safepocket.accounts()   // cached

        edge.refusing.withLock { $0 = true }
        let before = edge.asked.read().count
        let error = await safepocketError { try await safepocket.accounts() }
        #expect(error == .connectionNotVerified(try PinnedEdge.refusal()), "not served from the cache, not offline: \(String(describing: error))")
        #expect(error?.kind == "connectionNotVerified")
        #expect(error?.description == "the secure connection could not be verified (localhost: its chain has no pinned public key)")
        #expect(edge.asked.read().dropFirst(before) == ["/accounts"], "a GET, which the SDK retries, asked once")
        #expect(await connectivity.isOnline, "the network works: the server reached is not the one pinned")

        // A write fails the same way: not queued for later, not "in doubt".
        let update = await safepocketError {
            try await safepocket.updateTransaction(id: try! LowercaseUUID("0b6e2a1c-3d4f-4a5b-8c6d-7e8f9a0b1c2d"), TransactionUpdate(category: "Groceries"))
        }
        #expect(update?.kind == "connectionNotVerified")
        #expect(await safepocket.pendingWrites().isEmpty)

        let lines = harness.log.all.filter { $0.contains("secure connection refused localhost") }
        #expect(lines.count == 2, "one line per refused request: \(harness.log.all)")
        #expect(lines.allSatisfy { $0.contains(Self.presentedPin) && $0.contains(Self.pins[0]) && $0.contains(Self.pins[1]) })
    }

    @Test func aPinnedHostIsSentNoByteWhenItsCertificateCannotBeChecked() async throws {
        let harness = try SafepocketHarness()
        defer { harness.cleanUp() }
        try await signIn(try harness.makeSafepocket(), harness)
        let seen = harness.backend.server.requests.count
        let host = try #require(harness.backend.baseURL.host)

        // Production pins for the backend's host, served over plain http: refused before sending
        // (the refresh of a new launch, with the refresh token, included).
        let pinned = try harness.makeSafepocket(pinning: CertificatePinning(pins: [host: Self.pins]), isDevelopment: false)
        let error = await safepocketError { try await pinned.accounts() }
        #expect(error?.kind == "connectionNotVerified", "\(String(describing: error))")
        if case .connectionNotVerified(let refusal)? = error { #expect(refusal.reason == .notEncrypted && refusal.host == host) }
        #expect(harness.backend.server.requests.count == seen, "no request body, no token left the device")

        // The development switch: the same pins are not checked.
        let development = try harness.makeSafepocket(pinning: CertificatePinning(pins: [host: Self.pins]), isDevelopment: true)
        _ = try await development.accounts()
        #expect(harness.backend.server.requests.count > seen)
    }

    @Test func theDevelopmentServerTurnsPinningOffAndTrustsOnlyANamedCertificateFromItsHost() throws {
        let authorization = SafepocketHarness.authorization
        let development = Safepocket.Configuration(baseURL: SafepocketAPI.Client.Server.development.url, authorization: authorization)
        #expect(development.isDevelopment && development.connection.pinning.hosts.isEmpty, "a development configuration needs no pins")
        let production = Safepocket.Configuration(authorization: authorization, pinning: try CertificatePinning(pins: ["api.safepocket.app": Self.pins]))
        #expect(!production.isDevelopment && production.connection.pinning.pinnedHost(for: "api.safepocket.app") != nil)
        let local = Safepocket.Configuration(baseURL: URL(string: "https://ledger.local:8443")!, authorization: authorization, isDevelopment: true)
        #expect(local.isDevelopment)

        // Development alone trusts nothing the system refuses: a certificate the system refuses is left to it.
        let evaluator = ServerTrustEvaluator(pinning: local.connection.pinning, environment: local.pinningEnvironment)
        #expect(!evaluator.handles(host: "ledger.local"))
        #expect(evaluator.decide(PresentedServerTrust(host: "ledger.local", certificates: [], platformTrusted: false)) == .performDefaultHandling)
    }
}
