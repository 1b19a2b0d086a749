import ClientRuntime
import ClientRuntimeTesting
import Foundation
import HTTPTypes
import Logging
import LoopbackHTTPServer
import OpenAPIRuntime
import OpenAPIURLSession
import ProcessTestSupport
import RuntimeSupport
import SDKCore
import Testing
@testable import Resilience

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What every SDK's transport does with a connection that cannot be
/// verified, over real sockets: a TLS server whose certificate the system
/// does not trust (an interception), and a server that redirects to another
/// origin (where the request's credentials would follow).
@Suite struct ConnectionVerificationTests {
    /// The SDKs' own transport (`SDKTransport`) with nothing pinned.
    func sdkTransport(pinning: CertificatePinning = .none, log: LogCapture = LogCapture()) -> CertificatePinningTransport {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 30
        return SDKTransport.overURLSession(
            pinning: pinning, logger: log.logger(label: "connections"), sessionConfiguration: configuration,
            overSession: { URLSessionTransport(configuration: .init(session: $0)) })
    }

    /// A request with the headers whose values must never reach another host.
    func request(_ path: String = "/accounts?page=2") -> HTTPRequest {
        var request = HTTPRequest(method: .post, scheme: nil, authority: nil, path: path)
        request.headerFields[.authorization] = "Bearer access-token-of-the-user"
        request.headerFields[HTTPField.Name("X-API-Key")!] = "the-app-api-key"
        request.headerFields[HTTPField.Name("Idempotency-Key")!] = "0b6e2a1c-3d4f-4a5b-8c6d-7e8f9a0b1c2d"
        return request
    }

    /// Sends `request` through `middlewares` and `transport` as a generated client does.
    func send(
        _ transport: any ClientTransport, _ request: HTTPRequest, baseURL: URL, middlewares: [any ClientMiddleware] = []
    ) async throws -> HTTPResponse {
        var next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?) = { request, body, url in
            try await transport.send(request, body: body, baseURL: url, operationID: "listAccounts")
        }
        for middleware in middlewares.reversed() {
            let inner = next
            next = { request, body, url in try await middleware.intercept(request, body: body, baseURL: url, operationID: "listAccounts", next: inner) }
        }
        return try await next(request, request.method == .get ? nil : HTTPBody("{}"), baseURL).0
    }

    @Test func aCertificateTheSystemRefusesIsASecurityErrorNotOfflineAndNeverRetried() async throws {
        let server = try UntrustedTLSServer()
        defer { server.stop() }
        let log = LogCapture()
        let counting = CountingTransport(sdkTransport(log: log))
        let retry = RetryMiddleware(policy: RetryPolicy(backoff: BackoffPolicy(baseDelay: .milliseconds(1))), clock: VirtualClock())
        var thrown: (any Error)?
        do { _ = try await send(counting, HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/accounts"), baseURL: server.url, middlewares: [retry]) }
        catch { thrown = error }
        let refusal = try #require(thrown as? CertificatePinningError, "\(String(describing: thrown))")
        #expect(refusal.reason == .systemRefused && refusal.host == "127.0.0.1")
        #expect(refusal.description == "the secure connection to 127.0.0.1 could not be verified: the system does not trust its certificate, or the TLS handshake failed")
        #expect(counting.sent.read() == 1, "a GET the policy retries, tried once: the next attempt meets the same certificate")
        #expect(NetworkFailure(refusal) == nil && !NetworkFailure.requestNeverLeft(refusal) && !NetworkFailure.outcomeUnknown(refusal))
        #expect(QueuedWriteSenders<Int>.classify(refusal) == .notSent, "a queued write stays queued")
        if case .connectionNotVerified(let mapped) = CallFailure<String>(refusal) { #expect(mapped == refusal) } else { Issue.record("not connectionNotVerified") }
        #expect(log.all.contains { $0.contains("secure connection refused 127.0.0.1: the system does not trust its certificate") }, "\(log.all)")
    }

    @Test func aPlainURLSessionTLSFailureIsRecognisedToo() async throws {
        let server = try UntrustedTLSServer()
        defer { server.stop() }
        // What URLSession itself throws, before the transport names it.
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        var thrown: (any Error)?
        do { _ = try await URLSessionTransport(configuration: .init(session: session)).send(
            HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/"), body: nil, baseURL: server.url, operationID: "op") }
        catch { thrown = error }
        let error = try #require(thrown)
        #expect(TLSFailure.matches(error), "\(error)")
        #expect(NetworkFailure(error) == nil, "not offline")
        #expect(!RetryMiddleware<ContinuousClock>.isTransportFailure(error), "not retried")
        guard case .connectionNotVerified(let refusal) = CallFailure<String>(error) else {
            Issue.record("\(CallFailure<String>(error))")
            return
        }
        #expect(refusal.reason == .systemRefused)
    }

    @Test func theFormsATLSFailureTakesAreRecognisedAndOthersAreNot() {
        for code in [URLError.Code.secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate, .serverCertificateHasUnknownRoot] {
            #expect(TLSFailure.matches(URLError(code)), "\(code)")
        }
        // libcurl's messages under swift-corelibs URLSession's "unknown".
        for message in ["SSL certificate problem: self-signed certificate", "SSL: no alternative certificate subject name matches target host name 'x'",
                        "OpenSSL SSL_connect: SSL_ERROR_SYSCALL in connection to 127.0.0.1:1"] {
            #expect(TLSFailure.matches(URLError(.unknown, userInfo: [NSLocalizedDescriptionKey: message])), "\(message)")
        }
        #expect(TLSFailure.matches(ClientError(operationID: "op", operationInput: (), causeDescription: "", underlyingError: URLError(.serverCertificateUntrusted))))
        for error in [URLError(.notConnectedToInternet), URLError(.cannotConnectToHost), URLError(.timedOut), URLError(.unknown)] {
            #expect(!TLSFailure.matches(error), "\(error.code)")
        }
        #expect(NetworkFailure(URLError(.cannotConnectToHost)) == .unreachable, "a refused connection is not the device being offline")
        #expect(NetworkFailure(URLError(.notConnectedToInternet)) == .offline && NetworkFailure(URLError(.networkConnectionLost)) == .offline)
    }

    @Test func aRedirectToAnotherOriginIsNotFollowedAndNoCredentialGoesThere() async throws {
        let elsewhere = try LoopbackHTTPServer { _ in .json(200, "{}") }
        defer { elsewhere.shutdown() }
        let target = "\(elsewhere.baseURL.absoluteString)/collect?token=stolen"
        let api = try LoopbackHTTPServer { _ in .respond(status: 307, headers: [("Location", target)], body: "") }
        defer { api.shutdown() }
        let log = LogCapture()
        var thrown: (any Error)?
        do { _ = try await send(sdkTransport(log: log), request(), baseURL: api.baseURL) } catch { thrown = error }
        let refusal = try #require(thrown as? CertificatePinningError, "\(String(describing: thrown))")
        #expect(refusal.reason == .redirectRefused && refusal.host == "127.0.0.1")
        #expect(refusal.redirectTarget == "\(elsewhere.baseURL.absoluteString)/collect", "the target named, its query (which could hold a secret) left out")
        #expect(elsewhere.requests.isEmpty, "no request, so no API key, token or idempotency key, reached the other origin")
        #expect(api.requests.count == 1)
        #expect(log.all.contains { $0.contains("it redirected to another host, \(elsewhere.baseURL.absoluteString)/collect") }, "\(log.all)")

        // https -> http on the same host and port is another origin too, and so is another port.
        #expect(!RedirectPolicy.sameOrigin.allows(from: URL(string: "https://api.test/a")!, to: URL(string: "http://api.test/a")!))
        #expect(!RedirectPolicy.sameOrigin.allows(from: URL(string: "https://api.test/a")!, to: URL(string: "https://api.test:8443/a")!))
        #expect(RedirectPolicy.sameOrigin.allows(from: URL(string: "https://API.test:443/a")!, to: URL(string: "https://api.test/b?x=1")!))
    }

    @Test func aRedirectWithinTheOriginIsFollowed() async throws {
        let api = try LoopbackHTTPServer { request in
            request.path == "/old" ? .respond(status: 308, headers: [("Location", "/new")], body: "") : .json(200, "{\"moved\":true}")
        }
        defer { api.shutdown() }
        let response = try await send(sdkTransport(), request("/old"), baseURL: api.baseURL)
        #expect(response.status == .ok)
        #expect(api.requests.map(\.path) == ["/old", "/new"])
    }

    @Test func aTransportThatHandsBackARedirectElsewhereIsRefusedToo() async throws {
        // A transport of the app's own that does not follow redirects: the 3xx to another host is refused, not returned.
        let inner = ScriptedTransport { _ in .status(302, headers: [.location: "https://evil.test/steal"]) }
        let transport = CertificatePinningTransport(
            wrapping: inner, evaluator: ServerTrustEvaluator(pinning: .none, environment: .production), checksConnections: true)
        await #expect(throws: CertificatePinningError.self) { _ = try await send(transport, request(), baseURL: URL(string: "https://api.test")!) }
        // A 304 is not a redirect.
        let notModified = CertificatePinningTransport(
            wrapping: ScriptedTransport { _ in .status(304) }, evaluator: ServerTrustEvaluator(pinning: .none, environment: .production),
            checksConnections: true)
        #expect(try await send(notModified, request(), baseURL: URL(string: "https://api.test")!).status.code == 304)
    }

    @Test func pinsWithATransportThatDoesNotEnforceThemAreRefusedAtConfiguration() throws {
        let pinning = try PinningFixtures.pinning("served", "backup")
        let plain = ScriptedTransport { _ in .status(200) }
        #expect(throws: PinningConfigurationError.transportDoesNotEnforcePins(transport: "ScriptedTransport")) {
            _ = try SDKTransport.make(configured: plain, pinning: pinning, logger: Logger(label: "test"), sessionConfiguration: .ephemeral, overSession: { _ in plain })
        }
        // Without pins the app's transport is used as it is; in development pins are off.
        _ = try SDKTransport.make(configured: plain, pinning: .none, logger: Logger(label: "test"), sessionConfiguration: .ephemeral, overSession: { _ in plain })
        _ = try SDKTransport.make(
            configured: plain, pinning: pinning, environment: .development, logger: Logger(label: "test"), sessionConfiguration: .ephemeral,
            overSession: { _ in plain })
        // A transport that says it enforces these pins is accepted; one that enforces others is not.
        let enforcing = CertificatePinningTransport(
            wrapping: plain, evaluator: ServerTrustEvaluator(pinning: pinning, environment: .production), checksConnections: true)
        _ = try SDKTransport.make(configured: enforcing, pinning: pinning, logger: Logger(label: "test"), sessionConfiguration: .ephemeral, overSession: { _ in plain })
        let others = try PinningFixtures.pinning("other", "backup")
        #expect(throws: PinningConfigurationError.self) {
            _ = try SDKTransport.make(configured: enforcing, pinning: others, logger: Logger(label: "test"), sessionConfiguration: .ephemeral, overSession: { _ in plain })
        }
        #expect(PinningConfigurationError.transportDoesNotEnforcePins(transport: "T").description.contains("leave the transport unset"))
    }

    @Test func aDownloadOfTheWrongContentTypeIsRefusedBeforeItsBody() async throws {
        let server = try LoopbackHTTPServer { request in
            switch request.path {
            case "/page.png": return .respond(status: 200, headers: [("Content-Type", "text/html; charset=utf-8")], body: Array("<html>".utf8))
            case "/untyped.png": return .respond(status: 200, body: [1, 2, 3])
            default: return .respond(status: 200, headers: [("Content-Type", "Image/PNG; q=1")], body: [0x89, 0x50])
            }
        }
        defer { server.shutdown() }
        let downloader = BoundedDownloader(
            evaluator: ServerTrustEvaluator(pinning: .none, environment: .production, redirects: .httpsHosts(["assets.test"])), maximumBytes: 1 << 20,
            contentTypes: ["image/png", "image/jpeg"])
        await #expect(throws: BoundedDownloadError.contentType("text/html; charset=utf-8")) {
            _ = try await downloader.data(from: server.baseURL.appendingPathComponent("page.png"))
        }
        await #expect(throws: BoundedDownloadError.contentType(nil)) { _ = try await downloader.data(from: server.baseURL.appendingPathComponent("untyped.png")) }
        #expect(try await downloader.data(from: server.baseURL.appendingPathComponent("logo.png")) == Data([0x89, 0x50]), "the media type, whatever its case and parameters")
    }

    @Test func aDownloadStopsAtItsLimitAndNeverHoldsMore() async throws {
        let server = try LoopbackHTTPServer { request in
            switch request.path {
            case "/small.png": return .respond(status: 200, body: [UInt8](repeating: 7, count: 1000))
            case "/missing.png": return .respond(status: 404)
            case "/endless.png":
                // No length announced: the client learns the size only by reading.
                return .chunked(status: 200) { write in
                    let chunk = [UInt8](repeating: 2, count: 64 << 10)
                    for _ in 0..<(64 << 4) where !write(chunk) { return }
                }
            default:
                // 64 MiB announced and sent while the client reads: a hostile or broken assets host.
                return .streamed(status: 200, length: 64 << 20) { write in
                    let chunk = [UInt8](repeating: 1, count: 64 << 10)
                    for _ in 0..<(64 << 4) where !write(chunk) { return }
                }
            }
        }
        defer { server.shutdown() }
        let downloader = BoundedDownloader(
            evaluator: ServerTrustEvaluator(pinning: .none, environment: .production, redirects: .httpsHosts(["assets.test"])), maximumBytes: 1 << 20)
        #expect(try await downloader.data(from: server.baseURL.appendingPathComponent("small.png")).count == 1000)
        await #expect(throws: BoundedDownloadError.status(404)) { _ = try await downloader.data(from: server.baseURL.appendingPathComponent("missing.png")) }
        await #expect(throws: BoundedDownloadError.tooLarge(limit: 1 << 20)) { _ = try await downloader.data(from: server.baseURL.appendingPathComponent("huge.png")) }
        // Refused at its Content-Length: not a byte of the 64 MiB body was kept.
        #expect(downloader.largestBodyHeld == 1000, "only the small logo was ever held")
        // A body of unannounced length: refused once it passes the limit, having held the limit and one chunk at most.
        await #expect(throws: BoundedDownloadError.tooLarge(limit: 1 << 20)) { _ = try await downloader.data(from: server.baseURL.appendingPathComponent("endless.png")) }
        #expect(downloader.largestBodyHeld > 1 << 20 && downloader.largestBodyHeld <= (1 << 20) + (1 << 20), "\(downloader.largestBodyHeld)")
    }

    @Test func aDownloadFollowsNoRedirectOutsideItsHosts() async throws {
        let elsewhere = try LoopbackHTTPServer { _ in .respond(status: 200, body: [1, 2, 3]) }
        defer { elsewhere.shutdown() }
        let assets = try LoopbackHTTPServer { _ in .respond(status: 302, headers: [("Location", elsewhere.baseURL.absoluteString + "/logo.png")], body: "") }
        defer { assets.shutdown() }
        let downloader = BoundedDownloader(
            evaluator: ServerTrustEvaluator(pinning: .none, environment: .production, redirects: .httpsHosts(["assets.securenode.io"])),
            maximumBytes: 1 << 20)
        var thrown: (any Error)?
        do { _ = try await downloader.data(from: assets.baseURL.appendingPathComponent("logo.png")) } catch { thrown = error }
        let refusal = try #require(thrown as? CertificatePinningError, "\(String(describing: thrown))")
        #expect(refusal.reason == .redirectRefused)
        #expect(elsewhere.requests.isEmpty)
        // The allow-list, checked at every hop: https to the assets host only.
        let policy = RedirectPolicy.httpsHosts(["assets.securenode.io"])
        #expect(policy.allows(from: URL(string: "https://assets.securenode.io/a.png")!, to: URL(string: "https://ASSETS.securenode.io./b.png")!))
        #expect(!policy.allows(from: URL(string: "https://assets.securenode.io/a.png")!, to: URL(string: "http://assets.securenode.io/b.png")!))
        #expect(!policy.allows(from: URL(string: "https://assets.securenode.io/a.png")!, to: URL(string: "https://cdn.evil.test/b.png")!))
    }
}

/// Counts the requests handed to the transport it wraps.
final class CountingTransport: ClientTransport, Sendable {
    let inner: any ClientTransport
    let sent = Locked(0)

    init(_ inner: any ClientTransport) { self.inner = inner }

    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        sent.withLock { $0 += 1 }
        return try await inner.send(request, body: body, baseURL: baseURL, operationID: operationID)
    }
}
