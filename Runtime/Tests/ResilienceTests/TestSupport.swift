import Foundation
import HTTPTypes
import LoopbackHTTPServer
import OpenAPIRuntime
import OpenAPIURLSession

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A clock whose `sleep` returns at once, recording every wait: retries run
/// in microseconds and their waits can be checked. Its `now` stays at zero,
/// so concurrent sleepers each record exactly the wait they asked for.
///
/// `@unchecked Sendable` is safe: `state` is only touched while `lock` is held.
final class VirtualClock: Clock, @unchecked Sendable {
    struct Instant: InstantProtocol {
        var offset: Duration
        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private let lock = NSLock()
    private let current = Instant(offset: .zero)
    private var recorded: [Duration] = []

    var now: Instant { current }
    var minimumResolution: Duration { .zero }
    /// Every wait asked for, in order.
    var sleeps: [Duration] { lock.withLock { recorded } }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try Task.checkCancellation()
        lock.withLock { recorded.append(current.duration(to: deadline)) }
    }
}

/// Sends requests through a middleware stack and a real URLSession transport.
struct TestClient {
    let transport: URLSessionTransport
    let middlewares: [any ClientMiddleware]
    let baseURL: URL

    init(server: LoopbackHTTPServer, middlewares: [any ClientMiddleware], timeout: TimeInterval = 5) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.httpMaximumConnectionsPerHost = 64
        transport = URLSessionTransport(configuration: .init(session: URLSession(configuration: configuration)))
        self.middlewares = middlewares
        baseURL = server.baseURL
    }

    /// Sends one request as operation `operationID`; returns the status and body text.
    func send(
        _ method: HTTPRequest.Method, _ path: String, operationID: String, headers: HTTPFields = [:], body: String? = nil
    ) async throws -> (status: Int, body: String) {
        var request = HTTPRequest(method: method, scheme: nil, authority: nil, path: path)
        request.headerFields = headers
        let requestBody = body.map { HTTPBody($0) }
        var next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?) = { [transport] request, body, url in
            try await transport.send(request, body: body, baseURL: url, operationID: operationID)
        }
        for middleware in middlewares.reversed() {
            let inner = next
            next = { request, body, url in
                try await middleware.intercept(request, body: body, baseURL: url, operationID: operationID, next: inner)
            }
        }
        let (response, responseBody) = try await next(request, requestBody, baseURL)
        var text = ""
        if let responseBody { text = try await String(collecting: responseBody, upTo: 1 << 20) }
        return (response.status.code, text)
    }
}
