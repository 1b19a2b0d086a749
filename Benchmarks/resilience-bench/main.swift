import BenchSupport
import Foundation
import HTTPTypes
import Logging
import LoopbackHTTPServer
import OpenAPIRuntime
import OpenAPIURLSession
import Resilience

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Middleware overhead: the per-request cost of the full resilience stack over
// the bare transport, against a loopback server, measured interleaved (bare,
// stack, bare, stack, ...) so both see the same machine load; medians.
// Also the stack over an in-memory transport: the middlewares' own CPU cost.
//
// Usage: resilience-bench [--requests N]

let arguments = CommandLine.arguments
let requests = arguments.firstIndex(of: "--requests").flatMap { Int(arguments[$0 + 1]) } ?? 2000

struct InMemoryTransport: ClientTransport {
    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        (HTTPResponse(status: .ok), HTTPBody("{}"))
    }
}

func chain(_ middlewares: [any ClientMiddleware], over transport: any ClientTransport, operationID: String)
    -> @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
{
    var next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?) = { request, body, url in
        try await transport.send(request, body: body, baseURL: url, operationID: operationID)
    }
    for middleware in middlewares.reversed() {
        let inner = next
        next = { request, body, url in try await middleware.intercept(request, body: body, baseURL: url, operationID: operationID, next: inner) }
    }
    return next
}

let server = try LoopbackHTTPServer { _ in .json(200, "{}") }
let session = TokenSession(
    store: InMemoryTokenStore(refreshToken: "r"),
    refresher: ClosureTokenRefresher { _ in TokenPair(accessToken: "a2", refreshToken: nil) }, accessToken: "a1")
var logger = Logger(label: "bench")
logger.logLevel = .info
// The stack of docs/Resilience.md; timeouts are the transport's (URLSession's
// own), so the optional TimeoutMiddleware is measured on its own below.
let stack: [any ClientMiddleware] = [
    SecureTransportMiddleware(),
    IdempotencyKeyMiddleware(),
    TokenRefreshMiddleware(session: session),
    RetryMiddleware(),
    APIKeyMiddleware(key: { "key" }),
    BearerTokenMiddleware(session: session),
    RedactingLogMiddleware(logger: logger),
]
let configuration = URLSessionConfiguration.ephemeral
configuration.timeoutIntervalForRequest = 10
let transport = URLSessionTransport(configuration: .init(session: URLSession(configuration: configuration)))

/// The bare transport sends the same headers the stack adds, so the
/// difference is the middlewares' work, not extra bytes on the wire.
let bareRequest: HTTPRequest = {
    var request = HTTPRequest(method: .post, scheme: nil, authority: nil, path: "/api/moods")
    request.headerFields[.authorization] = "Bearer a1"
    request.headerFields[HTTPField.Name("X-API-Key")!] = "key"
    request.headerFields[HTTPField.Name("Idempotency-Key")!] = IdempotencyKeyMiddleware.randomUUIDv4()
    return request
}()
let stackRequest = HTTPRequest(method: .post, scheme: nil, authority: nil, path: "/api/moods")

func measure(
    _ send: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?), bare: Bool = false
) async throws -> Double {
    let request = bare ? bareRequest : stackRequest
    let start = ContinuousClock.now
    let (_, body) = try await send(request, HTTPBody(#"{"score":7}"#), server.baseURL)
    if let body { _ = try await [UInt8](collecting: body, upTo: 1 << 16) }
    return microseconds(ContinuousClock.now - start)
}

let bare = chain([], over: transport, operationID: "createMood")
let full = chain(stack, over: transport, operationID: "createMood")
let memoryBare = chain([], over: InMemoryTransport(), operationID: "createMood")
let memoryFull = chain(stack, over: InMemoryTransport(), operationID: "createMood")

for _ in 0..<200 {
    _ = try await measure(bare, bare: true)
    _ = try await measure(full)
}
var bareTimes: [Double] = []
var fullTimes: [Double] = []
var memoryBareTimes: [Double] = []
var memoryFullTimes: [Double] = []
for _ in 0..<requests {
    bareTimes.append(try await measure(bare, bare: true))
    fullTimes.append(try await measure(full))
    memoryBareTimes.append(try await measure(memoryBare, bare: true))
    memoryFullTimes.append(try await measure(memoryFull))
}
server.shutdown()

// Each middleware alone over the in-memory transport, to see where the cost is.
var breakdown: [(String, Double)] = []
for middleware in stack + [TimeoutMiddleware(timeout: .seconds(10))] {
    let single = chain([middleware], over: InMemoryTransport(), operationID: "createMood")
    var singleTimes: [Double] = []
    var baseTimes: [Double] = []
    for _ in 0..<min(requests, 1000) {
        baseTimes.append(try await measure(memoryBare, bare: true))
        singleTimes.append(try await measure(single))
    }
    breakdown.append((String(describing: type(of: middleware)), median(singleTimes) - median(baseTimes)))
}

let overhead = median(fullTimes) - median(bareTimes)
let memoryOverhead = median(memoryFullTimes) - median(memoryBareTimes)
func format(_ value: Double) -> String { String(format: "%.1f", value) }
print("\(requests) POST requests each way, interleaved, over loopback (URLSessionTransport); medians")
print("  bare transport            \(format(median(bareTimes))) us")
print("  full middleware stack     \(format(median(fullTimes))) us  (\(stack.count) middlewares)")
print("  overhead                  \(format(overhead)) us  (target < 20 us)")
print("  stack over an in-memory transport: \(format(memoryOverhead)) us of middleware work per request")
for (name, cost) in breakdown { print("    \(name.padding(toLength: 44, withPad: " ", startingAt: 0)) \(format(cost)) us") }
bench("loopback-request-bare", median(bareTimes), "us", decimals: 1)
bench("loopback-request-full-stack", median(fullTimes), "us", decimals: 1)
bench("middleware-overhead", overhead, "us", decimals: 1)
bench("middleware-overhead-in-memory", memoryOverhead, "us", decimals: 1)
