import BenchSupport
import ClientRuntime
import Foundation
import HTTPTypes
import OpenAPIRuntime

// Events through a typed stream, the network left out: a body of N events
// (server-sent events, or JSON Lines) arriving in 64 KB pieces, each
// event's data decoded into a small struct. Ours (`EventStream`, what a
// generated events method returns) against the peer's helpers
// (swift-openapi-runtime's `asDecodedServerSentEventsWithJSONData` and
// `asDecodedJSONLines`), interleaved in one run so both see the same load.
//
// Usage:
//   event-stream-bench throughput [--events N] [--runs N]   events per second, medians and ratios
//   event-stream-bench peak-rss --reader R [--events N]     peak memory of one reader in its own process
// R is ours-sse, peer-sse, ours-jsonl or peer-jsonl.

struct Delta: Decodable, Hashable, Sendable {
    let delta: String
    let index: Int
}

let arguments = CommandLine.arguments
func argument(_ name: String, default value: Int) -> Int {
    arguments.firstIndex(of: name).flatMap { $0 + 1 < arguments.count ? Int(arguments[$0 + 1]) : nil } ?? value
}
func text(_ name: String) -> String? {
    arguments.firstIndex(of: name).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
}

/// A body of `events` events, made as it is read: one block of 1,000
/// events repeated, in pieces of 64 KB, so the body is never held whole.
struct RepeatedBody: AsyncSequence, Sendable {
    typealias Element = ArraySlice<UInt8>
    let block: [UInt8]
    let repeats: Int

    struct AsyncIterator: AsyncIteratorProtocol {
        let block: [UInt8]
        var left: Int
        var offset = 0

        mutating func next() async -> ArraySlice<UInt8>? {
            if offset == block.count {
                offset = 0
                left -= 1
            }
            guard left > 0 else { return nil }
            let end = Swift.min(offset + (64 << 10), block.count)
            defer { offset = end }
            return block[offset..<end]
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(block: block, left: repeats) }
}

func block(sse: Bool) -> [UInt8] {
    var text = ""
    for index in 0..<1000 {
        let json = #"{"delta": "token \#(index) caf\#u{E9}", "index": \#(index)}"#
        text += sse ? "id: \(index)\ndata: \(json)\n\n" : json + "\n"
    }
    return Array(text.utf8)
}

let sseBlock = block(sse: true)
let linesBlock = block(sse: false)

func body(sse: Bool, events: Int) -> HTTPBody {
    HTTPBody(RepeatedBody(block: sse ? sseBlock : linesBlock, repeats: events / 1000), length: .unknown, iterationBehavior: .single)
}

/// Reads every event with `reader`; returns the sum of their indices (so nothing is optimised away).
func read(_ reader: String, events: Int) async throws -> Int {
    var sum = 0
    switch reader {
    case "ours-sse", "ours-jsonl":
        let sse = reader == "ours-sse"
        var response = HTTPResponse(status: .ok)
        response.headerFields[.contentType] = sse ? "text/event-stream" : "application/jsonl"
        let opened = OpenedResponse(operationID: "bench", response: response, body: body(sse: sse, events: events), maximumBytes: 1 << 20)
        for try await event in opened.eventStream(of: Delta.self, expected: sse ? .serverSentEvents : .jsonLines) { sum &+= event.data.index }
    case "peer-sse":
        for try await event in body(sse: true, events: events).asDecodedServerSentEventsWithJSONData(of: Delta.self) { sum &+= event.data?.index ?? 0 }
    case "peer-jsonl":
        for try await event in body(sse: false, events: events).asDecodedJSONLines(of: Delta.self) { sum &+= event.index }
    default:
        preconditionFailure("unknown reader \(reader)")
    }
    return sum
}

let events = Swift.max(1000, argument("--events", default: 1_000_000) / 1000 * 1000)
let expectedSum = (events / 1000) * (999 * 1000 / 2)

switch arguments.dropFirst().first {
case "peak-rss":
    let reader = text("--reader") ?? "ours-sse"
    let sum = try await read(reader, events: events)
    precondition(sum == expectedSum, "\(reader) read \(sum), expected \(expectedSum)")
    bench("event-stream-\(reader)-peak-rss-\(events)", peakRSSMegabytes(), "MB", decimals: 1)
default:
    let runs = argument("--runs", default: 5)
    let readers = ["ours-sse", "peer-sse", "ours-jsonl", "peer-jsonl"]
    for reader in readers {
        let sum = try await read(reader, events: 10_000)
        precondition(sum == 10 * 999 * 1000 / 2, "\(reader) must read every event before anything is timed")
    }
    var rates: [String: [Double]] = [:]
    for _ in 0..<runs {
        for reader in readers {
            let clock = ContinuousClock()
            var sum = 0
            let elapsed = try await clock.measure { sum = try await read(reader, events: events) }
            precondition(sum == expectedSum)
            rates[reader, default: []].append(Double(events) / (microseconds(elapsed) / 1e6))
        }
    }
    for reader in readers { bench("event-stream-\(reader)-events-per-second", median(rates[reader]!), "events/s", decimals: 0) }
    bench("event-stream-sse-vs-peer", median(rates["ours-sse"]!) / median(rates["peer-sse"]!), "ratio")
    bench("event-stream-jsonl-vs-peer", median(rates["ours-jsonl"]!) / median(rates["peer-jsonl"]!), "ratio")
}
