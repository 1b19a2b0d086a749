// `make bench`: the SOUL SDK's refresh storm and the SOUL/Safepocket retry
// matrix, over loopback HTTP against the backend doubles.
//
// soul-refresh-storm-100: a signed-in SDK, every access token expired, 100
// concurrent `listMoods` calls; the time until all 100 have succeeded (one
// refresh, 100 retries). Median of --runs runs (default 21), after a warm-up.
// cache-hit-p99: a signed-in SDK told the device is offline, `listMoods`
// answered from the response cache 2000 times; the 99th percentile, us, and
// cache-hit-p50, the median (steadier from run to run: what bench-compare
// reads first).
// cache-revalidate-304: `listMoods` while the server answers 304 to the
// stored ETag, over loopback (refresh, bearer, retry and log middlewares
// included); median of 2000 calls, us. cache-full-200 is the same call
// answered 200 with the body (the cache rewriting its entry), for scale.
// retry-matrix-cells: every SOUL and Safepocket operation x {503, 429 with
// Retry-After, connection reset, timeout}, counted only when every cell
// sent the attempts its document allows; exits 1 otherwise.
import BackendDoubles
import BenchSupport
import Foundation
import Logging
import Resilience
import RetryMatrix
import RuntimeSupport
import Soul

let arguments = CommandLine.arguments
let runs = arguments.firstIndex(of: "--runs").flatMap { Int(arguments[$0 + 1]) } ?? 21

func refreshStorm() async throws -> (Duration, refreshes: Int) {
    let backend = try SoulBackend()
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("storm-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let soul = try Soul(.init(
        environment: .init(baseURL: backend.baseURL, isStaging: true), tokenStore: FileTokenStore(url: folder.appendingPathComponent("t")),
        logger: Logger(label: "bench") { _ in SwiftLogNoOpLogHandler() }, storageFolder: folder))
    let request = try await soul.signIn.requestCode(phone: "+14155550123")
    try await soul.signIn.verify(code: request.previewCode ?? "")
    _ = try await soul.listMoods()
    backend.expireAccessTokens()
    let start = ContinuousClock.now
    let failures = await withTaskGroup(of: Int.self) { group in
        for _ in 0..<100 { group.addTask { (try? await soul.listMoods()) == nil ? 1 : 0 } }
        return await group.reduce(0, +)
    }
    let elapsed = ContinuousClock.now - start
    guard failures == 0 else { throw BenchError.stormFailed(failures) }
    return (elapsed, backend.counters.refreshCalls)
}

enum BenchError: Error {
    case stormFailed(Int)
}

func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
}

_ = try await refreshStorm()  // warm-up
var samples: [Double] = []
for _ in 0..<runs {
    let (elapsed, refreshes) = try await refreshStorm()
    guard refreshes == 1 else {
        print("soul-refresh-storm-100: \(refreshes) refreshes, expected 1")
        exit(1)
    }
    samples.append(milliseconds(elapsed))
}
samples.sort()
let median = samples[samples.count / 2]
print(String(format: "soul refresh storm: 100 concurrent calls across an expiry, 1 refresh each run; median %.2f ms (min %.2f, max %.2f, %d runs)",
             median, samples.first ?? 0, samples.last ?? 0, samples.count))
bench("soul-refresh-storm-100", median, "ms", decimals: 2)

let cache = try await cacheFigures()
print(String(format: "response cache: listMoods offline from the cache p50 %.1f us, p99 %.1f us (target <= 200 us); 304 revalidation median %.1f us; full 200 median %.1f us",
             percentile(cache.hits, 0.5), percentile(cache.hits, 0.99), percentile(cache.revalidations, 0.5), percentile(cache.fullFetches, 0.5)))
bench("cache-hit-p50", percentile(cache.hits, 0.5), "us", decimals: 1)
bench("cache-hit-p99", percentile(cache.hits, 0.99), "us", decimals: 1)
bench("cache-revalidate-304", percentile(cache.revalidations, 0.5), "us", decimals: 1)
bench("cache-full-200", percentile(cache.fullFetches, 0.5), "us", decimals: 1)

let cells = await RetryMatrix.run()
print(RetryMatrix.table(cells))
let failed = cells.filter { !$0.passed }
guard cells.count == RetryMatrix.expectedCellCount, failed.isEmpty else {
    print("retry matrix: \(cells.count) of \(RetryMatrix.expectedCellCount) cells ran, \(failed.count) did not match")
    exit(1)
}
bench("retry-matrix-cells", Double(cells.count), "cells", decimals: 0)
