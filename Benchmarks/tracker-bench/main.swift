// `make bench`: the MobileTracker SDK's durable queue.
//
// tracker-track-p99 / -p50: what one `track` call costs its caller, the
// event written to the queue's journal before it returns (20,000 calls,
// delivery paused so it does not compete; the journal's import into SQLite
// runs in the background meanwhile). Peer in the same run: the document's design, an
// actor appending to an in-memory array (nothing survives a kill).
// tracker-drain-10k: 10,000 queued events delivered, one request each, in
// order, to a loopback backend. Medians of --runs runs (default 3).
import BackendDoubles
import BenchSupport
import Foundation
import Logging
import MobileTracker
import Resilience

let arguments = CommandLine.arguments
let runs = arguments.firstIndex(of: "--runs").flatMap { Int(arguments[$0 + 1]) } ?? 3

actor MemoryQueue {
    var items: [(String, [String: Any])] = []
    func append(_ name: String, _ attributes: [String: Any]) { items.append((name, attributes)) }
}



func makeTracker(backend: TrackerBackend, folder: URL, connectivity: Connectivity) async throws -> MobileTracker {
    let tracker = MobileTracker(options: .init(
        folder: folder, primaryStore: InMemoryKeyValueStore(), connectivity: connectivity,
        logger: Logger(label: "bench") { _ in SwiftLogNoOpLogHandler() }, maximumQueuedItems: 100_000))
    try await tracker.initialize(brandId: "925", config: TrackerConfig(apiUrl: backend.baseURL.absoluteString, xApiKey: backend.apiKey))
    return tracker
}

var p50s: [Double] = [], p99s: [Double] = [], peerP99s: [Double] = [], drains: [Double] = []
let attributes: [String: Any] = ["product_id": "12345", "price": 29.99, "in_stock": true, "category": "Widgets"]
for _ in 0..<runs {
    let backend = try TrackerBackend()
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tracker-bench-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let connectivity = Connectivity(isOnline: false)
    let tracker = try await makeTracker(backend: backend, folder: folder, connectivity: connectivity)
    var samples: [Double] = []
    samples.reserveCapacity(20_000)
    for index in 0..<20_000 {
        let start = ContinuousClock.now
        await tracker.track(eventName: "PRODUCT_VIEWED", attributes: attributes.merging(["n": index]) { $1 })
        samples.append(microseconds(ContinuousClock.now - start))
    }
    samples.sort()
    p50s.append(percentile(samples, 0.5))
    p99s.append(percentile(samples, 0.99))

    let memory = MemoryQueue()
    var peer: [Double] = []
    for index in 0..<20_000 {
        let start = ContinuousClock.now
        await memory.append("PRODUCT_VIEWED", attributes.merging(["n": index]) { $1 })
        peer.append(microseconds(ContinuousClock.now - start))
    }
    peer.sort()
    peerP99s.append(percentile(peer, 0.99))

    // Drain: the first 10,000 of the queued events.
    let drainFolder = folder.appendingPathComponent("drain")
    let drainConnectivity = Connectivity(isOnline: false)
    let drainer = try await makeTracker(backend: backend, folder: drainFolder, connectivity: drainConnectivity)
    for index in 0..<10_000 { await drainer.track(eventName: "QUEUED", attributes: ["n": index]) }
    let before = backend.events.count
    let start = ContinuousClock.now
    await drainConnectivity.update(isOnline: true)
    guard await drainer.flush(timeout: .seconds(600)) else {
        print("tracker-drain-10k: the queue did not empty")
        exit(1)
    }
    drains.append(microseconds(ContinuousClock.now - start) / 1000)
    let delivered = backend.events.count - before
    guard delivered == 10_000 else {
        print("tracker-drain-10k: \(delivered) events delivered, expected 10000")
        exit(1)
    }
}
print(String(format: "tracker track: p50 %.1f us, p99 %.1f us (in-memory peer p99 %.1f us); drain of 10,000 events %.0f ms; medians of %d runs",
             median(p50s), median(p99s), median(peerP99s), median(drains), runs))
bench("tracker-track-p50", median(p50s), "us", decimals: 1)
bench("tracker-track-p99", median(p99s), "us", decimals: 1)
bench("tracker-track-p99-memory-peer", median(peerP99s), "us", decimals: 1)
bench("tracker-track-p99-vs-memory", median(p99s) / median(peerP99s), "ratio", decimals: 2)
bench("tracker-drain-10k", median(drains), "ms", decimals: 0)
