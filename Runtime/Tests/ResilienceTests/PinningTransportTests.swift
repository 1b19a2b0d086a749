import ClientRuntime
import ClientRuntimeTesting
import Foundation
import HTTPTypes
import OpenAPIRuntime
import RuntimeSupport
import SDKCore
import Testing
@testable import Resilience

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A transport that plays the platform's URL loading with the Apple
/// adapter: it "connects" (asks the evaluator about the chain the server
/// presents, as `ServerTrustSessionDelegate` does), and a cancelled
/// challenge fails the request as URLSession does, with
/// `URLError.cancelled`, before any byte of it is sent.
final class ChallengingTransport: ClientTransport, Sendable {
    let evaluator: ServerTrustEvaluator
    let presented: PresentedServerTrust
    /// Requests whose bytes went out.
    let sent = Locked(0)
    /// Connections the evaluator was asked about.
    let challenges = Locked(0)

    init(evaluator: ServerTrustEvaluator, presented: PresentedServerTrust) {
        self.evaluator = evaluator
        self.presented = presented
    }

    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        if evaluator.handles(host: presented.host) {
            challenges.withLock { $0 += 1 }
            if evaluator.decide(presented) == .cancel { throw URLError(.cancelled) }
        }
        sent.withLock { $0 += 1 }
        return (HTTPResponse(status: .ok), HTTPBody("{}"))
    }
}

/// A refused connection, from the challenge to the app: the typed error,
/// its log line, and how every layer treats it.
@Suite struct PinningTransportTests {
    static let url = URL(string: "https://\(PinningFixtures.host)")!

    func pinning() throws -> CertificatePinning {
        try PinningFixtures.pinning("served", "backup")
    }

    /// Sends a GET through `middlewares` and `transport`, as a generated client does.
    func get(_ transport: any ClientTransport, middlewares: [any ClientMiddleware] = [], url: URL = url) async throws -> HTTPResponse {
        var next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?) = { request, body, url in
            try await transport.send(request, body: body, baseURL: url, operationID: "listAccounts")
        }
        for middleware in middlewares.reversed() {
            let inner = next
            next = { request, body, url in try await middleware.intercept(request, body: body, baseURL: url, operationID: "listAccounts", next: inner) }
        }
        return try await next(HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/accounts"), nil, url).0
    }

    @Test func aRefusedConnectionFailsWithItsPinningErrorLoggedOnceAndNeverRetried() async throws {
        let log = LogCapture()
        let evaluator = ServerTrustEvaluator(pinning: try pinning(), environment: .production, logger: log.logger(label: "pinning"))
        let edge = ChallengingTransport(evaluator: evaluator, presented: try await PinningFixtures.presented("leaf-other"))
        let transport = CertificatePinningTransport(wrapping: edge, evaluator: evaluator, checksConnections: true)
        let retry = RetryMiddleware(policy: RetryPolicy(backoff: BackoffPolicy(baseDelay: .milliseconds(1))), clock: VirtualClock())

        await #expect(throws: CertificatePinningError.self) { try await get(transport, middlewares: [retry]) }
        #expect(edge.challenges.read() == 1, "a GET, retryable, tried once: another attempt meets the same certificate")
        #expect(edge.sent.read() == 0, "nothing was sent on the refused connection")

        var thrown: (any Error)?
        do { _ = try await get(transport) } catch { thrown = error }
        let refusal = try #require(thrown as? CertificatePinningError, "not URLError.cancelled: \(String(describing: thrown))")
        #expect(refusal.reason == .noPinnedKey && refusal.host == PinningFixtures.host)
        #expect(refusal.presented.map(\.description) == (try ["other", "intermediate", "root"].map { try PinningFixtures.pin($0) }))

        let lines = log.all.filter { $0.contains("secure connection refused") }
        #expect(lines.count == 2, "one line per refused connection: \(log.all)")
        let line = try #require(lines.first)
        #expect(line.hasPrefix("error secure connection refused api.safepocket.test: its chain has no pinned public key"))
        for name in ["other", "intermediate", "root", "served", "backup"] { #expect(line.contains(try PinningFixtures.pin(name)), "\(name): \(line)") }
    }

    @Test func aPinningErrorIsNeitherOfflineNorInDoubtAndReachesTheAppTyped() throws {
        let refusal = CertificatePinningError(host: PinningFixtures.host, reason: .noPinnedKey, expected: try pinning().hosts[0].pins)
        let wrapped = ClientError(operationID: "listAccounts", operationInput: (), causeDescription: "transport", underlyingError: refusal)
        for error in [refusal as any Error, wrapped] {
            guard case .connectionNotVerified(let typed) = CallFailure<String>(error) else {
                Issue.record("\(error) is not connectionNotVerified")
                continue
            }
            #expect(typed == refusal)
            #expect(NetworkFailure(error) == nil, "not offline, not a timeout")
            #expect(!NetworkFailure.requestNeverLeft(error) && !NetworkFailure.outcomeUnknown(error), "a write is neither queued nor in doubt")
            #expect(!RetryMiddleware<ContinuousClock>.isTransportFailure(error))
            #expect(QueuedWriteSenders<Int>.classify(error) == .notSent, "a queued write stays queued: nothing left the device")
        }
    }

    @Test func aChainThatMatchesGoesThroughAndTheRefusalIsOnlyForTheRequestItEnded() async throws {
        let evaluator = ServerTrustEvaluator(pinning: try pinning(), environment: .production)
        let refused = ChallengingTransport(evaluator: evaluator, presented: try await PinningFixtures.presented("leaf-other"))
        let before = evaluator.mark()
        await #expect(throws: CertificatePinningError.self) {
            try await get(CertificatePinningTransport(wrapping: refused, evaluator: evaluator, checksConnections: true))
        }
        #expect(evaluator.refusal(for: "API.safepocket.test", since: before) != nil, "recorded for its host, whatever the case")
        #expect(evaluator.refusal(for: PinningFixtures.host, since: evaluator.mark()) == nil, "not for requests started after it")

        let accepted = ChallengingTransport(evaluator: evaluator, presented: try await PinningFixtures.presented("leaf-rotated"))
        let response = try await get(CertificatePinningTransport(wrapping: accepted, evaluator: evaluator, checksConnections: true))
        #expect(response.status == .ok && accepted.sent.read() == 1, "the backup key after a rotation")

        // A failure of the transport that is not a refusal stays what it was.
        let failing = ScriptedTransport(replies: [.failure(URLError(.notConnectedToInternet))])
        let offline = CertificatePinningTransport(wrapping: failing, evaluator: evaluator, checksConnections: true)
        await #expect(throws: URLError.self) { try await get(offline) }
    }

    @Test func aPinnedHostThatCannotBeCheckedIsRefusedBeforeAnythingIsSent() async throws {
        let log = LogCapture()
        let evaluator = ServerTrustEvaluator(pinning: try pinning(), environment: .production, logger: log.logger())
        let inner = ScriptedTransport { _ in .status(200) }

        // A transport whose connections the evaluator never sees (swift-corelibs URLSession).
        let unchecked = CertificatePinningTransport(wrapping: inner, evaluator: evaluator, checksConnections: false)
        await #expect(throws: CertificatePinningError(host: PinningFixtures.host, reason: .cannotCheck, expected: try pinning().hosts[0].pins)) {
            try await get(unchecked)
        }
        // Plain http to a pinned host: no certificate to check.
        let checked = CertificatePinningTransport(wrapping: inner, evaluator: evaluator, checksConnections: true)
        await #expect(throws: CertificatePinningError(host: "api.safepocket.test", reason: .notEncrypted, expected: try pinning().hosts[0].pins)) {
            try await get(checked, url: URL(string: "http://api.safepocket.test:8080")!)
        }
        #expect(inner.requests.isEmpty, "no byte of either request was sent")
        #expect(log.all.filter { $0.contains("secure connection refused api.safepocket.test") }.count == 2)

        // Unpinned hosts, and development, are sent as they are.
        _ = try await get(unchecked, url: URL(string: "https://elsewhere.test")!)
        let development = ServerTrustEvaluator(pinning: try pinning(), environment: .development)
        _ = try await get(CertificatePinningTransport(wrapping: inner, evaluator: development, checksConnections: false))
        #expect(inner.requests.count == 2)
    }

    /// swift-corelibs URLSession has no server-trust challenge
    /// (`NSURLAuthenticationMethodServerTrust` is unavailable in
    /// FoundationNetworking), so no delegate can check pins there and
    /// pinned hosts are refused in production by default. (The delegate
    /// still answers redirects there.)
    @Test func whereURLSessionHasNoServerTrustChallengeThePinsFailClosed() async throws {
        let evaluator = ServerTrustEvaluator(pinning: try pinning(), environment: .production)
        #if os(Linux)
        #expect(!ServerTrustEvaluator.checksConnections)
        let transport = CertificatePinningTransport(wrapping: ScriptedTransport { _ in .status(200) }, evaluator: evaluator)
        await #expect(throws: CertificatePinningError.self) { try await get(transport) }
        #else
        #expect(ServerTrustEvaluator.checksConnections)
        #endif
        evaluator.urlSession(configuration: .ephemeral).finishTasksAndInvalidate()
    }
}
