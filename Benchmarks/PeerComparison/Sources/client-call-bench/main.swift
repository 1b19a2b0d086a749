import BenchSupport
import ClientRuntime
import Foundation
import HTTPTypes
import OpenAPIRuntime
import PeerSafepocket
import SafepocketAPI

// One call through a generated client, the network left out: build the
// request (path, headers, query), encode and validate the body, send it over
// an in-memory transport, decode a 1,000-element JSON response. Safepocket's
// `searchRAG`: a body with four constraints, `results` of 1,000 hits.
//
// Three clients of the same spec over the same transport, measured
// interleaved so all see the same machine load: ours with request checks on
// (the default) and off (their ratio is what validation costs), and the
// client apple/swift-openapi-generator generates (the peer; it decodes
// `uuid` and `date` fields as strings where ours makes UUID and
// CalendarDate). Medians of batches of calls.
//
// Usage: client-call-bench [--batches N] [--calls N]

let arguments = CommandLine.arguments
func argument(_ name: String, default value: Int) -> Int {
    arguments.firstIndex(of: name).flatMap { $0 + 1 < arguments.count ? Int(arguments[$0 + 1]) : nil } ?? value
}
let batches = argument("--batches", default: 31)
let callsPerBatch = argument("--calls", default: 40)

/// Answers every request with the same body, and reads the request body as
/// a real transport would.
struct InMemoryTransport: ClientTransport {
    let reply: Data

    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        if let body { _ = try await Data(collecting: body, upTo: 1 << 20) }
        var response = HTTPResponse(status: .ok)
        response.headerFields[.contentType] = "application/json"
        return (response, HTTPBody(reply))
    }
}

func responseBody(hits: Int) -> Data {
    var text = #"{"results": ["#
    for index in 0..<hits {
        if index > 0 { text += "," }
        let id = String(format: "6f1c2d3e-4b5a-4c6d-8e7f-%012x", index)
        text += #"{"transactionId": "\#(id)", "occurredOn": "2024-06-\#(String(format: "%02d", index % 28 + 1))", "merchant": "Merchant \#(index)", "#
        text += #""category": "groceries", "amountCents": \#(-1000 - index), "score": 0.\#(500 + index % 400)}"#
    }
    text += #"], "stats": {"count": \#(hits), "sum": -1500000, "avg": -1500}, "traceId": "trace-1"}"#
    return Data(text.utf8)
}

let transport = InMemoryTransport(reply: responseBody(hits: 1000))
let base = URL(string: "https://api.example.com")!
let checked = SafepocketAPI.Client(serverURL: base, transport: transport)
let unchecked = SafepocketAPI.Client(serverURL: base, transport: transport, constraintChecks: [])
let peer = PeerSafepocket.Client(serverURL: base, transport: transport)
let peerRequest = Components.Schemas.RAGSearchRequest(
    query: "groceries in june", category: "groceries", merchant: "Merchant", from: "2024-06-01", to: "2024-06-30",
    amountMin: 0, amountMax: 1_000_000, topK: 100)
let request = RAGSearchRequest(
    query: "groceries in june", category: "groceries", merchant: "Merchant", from: try! CalendarDate(year: 2024, month: 6, day: 1),
    to: try! CalendarDate(year: 2024, month: 6, day: 30), amountMin: 0, amountMax: 1_000_000, topK: 100)

// Both must work, and read every hit, before anything is timed.
let first = try await checked.searchRAG(body: request)
precondition(first.results?.count == 1000 && first.stats?.count == 1000, "the reply must decode into 1,000 hits")
let broken = RAGSearchRequest(query: "", topK: 100)
do {
    _ = try await checked.searchRAG(body: broken)
    preconditionFailure("an empty query must be refused before it is sent")
} catch is ConstraintViolation {}
func peerCall() async throws -> Int {
    try await peer.searchRAG(.init(body: .json(peerRequest))).ok.body.json.results.count
}
let peerHits = try await peerCall()
precondition(peerHits == 1000, "the peer must decode the same 1,000 hits")

func batch(_ call: () async throws -> Void) async throws -> Double {
    let clock = ContinuousClock()
    let started = clock.now
    for _ in 0..<callsPerBatch { try await call() }
    return microseconds(clock.now - started) / Double(callsPerBatch)
}

let variants: [(name: String, call: () async throws -> Void)] = [
    ("checked", { _ = try await checked.searchRAG(body: request) }),
    ("unchecked", { _ = try await unchecked.searchRAG(body: request) }),
    ("peer", { _ = try await peerCall() }),
]
var samples: [String: [Double]] = [:]
for round in 0..<batches {
    // Rotate which goes first, so none always runs on a warmer cache.
    for offset in 0..<variants.count {
        let variant = variants[(round + offset) % variants.count]
        samples[variant.name, default: []].append(try await batch(variant.call))
    }
}

let on = median(samples["checked"]!)
let off = median(samples["unchecked"]!)
let theirs = median(samples["peer"]!)
print("one searchRAG call (request built, body encoded, 1,000 hits decoded), \(batches) batches of \(callsPerBatch), medians:")
print(String(format: "  ours, request checks on (default): %.1f us", on))
print(String(format: "  ours, request checks off:          %.1f us", off))
print(String(format: "  swift-openapi-generator's client:  %.1f us", theirs))
bench("client-call-overhead", on, "us", decimals: 1)
bench("client-call-unchecked", off, "us", decimals: 1)
bench("client-call-peer", theirs, "us", decimals: 1)
bench("client-call-validation-ratio", on / off, "ratio", decimals: 4)
bench("client-call-vs-peer", on / theirs, "ratio", decimals: 4)
