import Foundation
import HTTPTypes
import LoopbackHTTPServer
import Resilience
import RuntimeSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The SDKs' URLSession keeps nothing of one request for the next: no HTTP
/// cache of Foundation's (the SDK's own response cache decides what is
/// served again, per user, purged at sign-out, protected at rest; a
/// Foundation cache keyed by URL alone would answer the next user with the
/// last one's response), and no cookie jar (a cookie one user's answer set
/// would travel with the next user's requests).
@Suite struct SessionStateTests {
    let connections = ConnectionVerificationTests()

    @Test func everySDKSessionHasNoURLCacheAndNoCookieJar() {
        let base = URLSessionConfiguration.ephemeral
        base.timeoutIntervalForRequest = 7
        let configuration = SDKTransport.sessionConfiguration(base)
        #expect(configuration.urlCache == nil && configuration.requestCachePolicy == .reloadIgnoringLocalCacheData)
        #expect(configuration.httpCookieStorage == nil && !configuration.httpShouldSetCookies && configuration.httpCookieAcceptPolicy == .never)
        #expect(configuration.timeoutIntervalForRequest == 7, "the rest is the SDK's")
        #expect(base.urlCache != nil || base.httpShouldSetCookies, "the caller's configuration is left as it was")
    }

    @Test func aCookieAnAnswerSetsIsNeverSentBack() async throws {
        let cookies = Locked<[String?]>([])
        let server = try LoopbackHTTPServer { request in
            cookies.withLock { $0.append(request.header("Cookie")) }
            return .json(200, "{}", headers: [("Set-Cookie", "session=of-the-first-user; Path=/")])
        }
        defer { server.shutdown() }
        let transport = connections.sdkTransport()
        let get = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/profile")
        for _ in 0..<2 { _ = try await connections.send(transport, get, baseURL: server.baseURL) }
        #expect(cookies.read() == [nil, nil], "no cookie stored, none sent")
    }
}
