import BackendDoubles
import BenchSupport
import Foundation
import Logging
import Resilience
import RuntimeSupport
import Soul

/// `listMoods` timings: offline from the cache, revalidated by a 304, and
/// fetched in full.
func cacheFigures(calls: Int = 2000) async throws -> (hits: [Double], revalidations: [Double], fullFetches: [Double]) {
    let backend = try SoulBackend()
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cache-bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let connectivity = Connectivity(isOnline: true)
    let soul = try Soul(.init(
        environment: .init(baseURL: backend.baseURL, isStaging: true), tokenStore: FileTokenStore(url: folder.appendingPathComponent("t")),
        logger: Logger(label: "bench") { _ in SwiftLogNoOpLogHandler() }, connectivity: connectivity, storageFolder: folder))
    let request = try await soul.signIn.requestCode(phone: "+14155550123")
    try await soul.signIn.verify(code: request.previewCode ?? "")
    for score in 1...5 { _ = try await soul.addMood(score: Int32(score), note: "mood \(score)") }
    // While `tagged` is set the server tags the moods and answers 304 to the tag.
    let tagged = Locked(false)
    let behaviour = backend.behaviour
    backend.fault.withLock {
        $0 = { request in
            guard request.method == "GET", request.path == "/api/moods", tagged.withLock({ $0 }) else { return nil }
            if request.header("If-None-Match") == "\"moods-1\"" { return .respond(status: 304, headers: [("ETag", "\"moods-1\"")]) }
            guard case .respond(let status, let headers, let body)? = behaviour.respond(to: request.contractRequest)?.loopbackReply else { return nil }
            return .respond(status: status, headers: headers + [("ETag", "\"moods-1\"")], body: body)
        }
    }
    func time(_ call: () async throws -> ResponseSource, expect: (ResponseSource) -> Bool) async throws -> [Double] {
        var samples: [Double] = []
        for _ in 0..<calls {
            let start = ContinuousClock.now
            let source = try await call()
            samples.append(microseconds(ContinuousClock.now - start))
            guard expect(source) else { throw CacheBenchError.unexpectedSource(source) }
        }
        return samples.sorted()
    }
    let full = try await time({ try await soul.listMoods().source }, expect: { $0 == .network })
    tagged.withLock { $0 = true }
    _ = try await soul.listMoods()
    let revalidations = try await time({ try await soul.listMoods().source }, expect: { $0 == .revalidated })
    await connectivity.update(isOnline: false)
    let hits = try await time({ try await soul.listMoods().source }, expect: { if case .cache = $0 { return true } else { return false } })
    return (hits, revalidations, full)
}

/// A `listMoods` answered from somewhere other than the phase expects.
enum CacheBenchError: Error {
    case unexpectedSource(ResponseSource)
}
