import BackendDoubles
import Foundation
import MobileTracker
import ProcessTestSupport
import Resilience
import Testing
import Waiting

#if canImport(Glibc)
import Glibc
#endif

/// 100,000 events from 30 tasks with the network blocked, then released.
@Suite struct TrackerStressTests {
    /// 100,000 events in `make test-heavy` and CI; 2,000 in `make test`.
    static let events = ExperimentScale.pick(full: 100_000, sample: 2_000)

    @Test(.timeLimit(.minutes(10))) func eventsFromThirtyTasksArriveAllAndInOrder() async throws {
        let harness = try TrackerHarness()
        defer { harness.cleanUp() }
        let connectivity = Connectivity(isOnline: false)
        let tracker = harness.makeTracker(connectivity: connectivity, maximumQueuedItems: 200_000, logLevel: .info)
        try await tracker.initialize(brandId: "925", config: harness.config(debug: false))
        let tasks = 30
        let perTask = Self.events / tasks + 1  // 3,334: 100,020 events (67: 2,010)
        let clock = ContinuousClock()
        let started = clock.now
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<tasks {
                group.addTask {
                    for sequence in 0..<perTask { await tracker.track(eventName: "STRESS", attributes: ["task": task, "seq": sequence]) }
                }
            }
        }
        #expect(harness.backend.events.isEmpty, "nothing leaves while the network is blocked")
        #expect(await tracker.queueStatus().pending == tasks * perTask)
        let queued = clock.now
        await connectivity.update(isOnline: true)
        #expect(await tracker.flush(timeout: .seconds(540)))
        let delivered = clock.now
        var next = [Int](repeating: 0, count: tasks)
        var outOfOrder = 0
        var seen = 0
        for event in harness.backend.events {
            guard let data = event.json["data"] as? [String: Any], let task = data["task"] as? Int, let sequence = data["seq"] as? Int else { continue }
            if sequence != next[task] { outOfOrder += 1 }
            next[task] = sequence + 1
            seen += 1
        }
        print("tracker stress: \(tasks * perTask) events from \(tasks) tasks, received \(seen), out of order \(outOfOrder); "
            + "queued in \(queued - started), delivered in \(delivered - queued)")
        #expect(seen == tasks * perTask, "0 lost, 0 duplicated")
        #expect(outOfOrder == 0)
        #expect(next.allSatisfy { $0 == perTask })
    }
}

/// A tracking, delivering process SIGKILLed 100 times (12 in `make test`)
/// while 30% of responses are lost after the server applied them.
@Suite struct TrackerKillTests {
    static let child = ChildProcess.executable(named: "tracker-child")

    /// Runs the child; kills it once it has reported `killAfterTracked`
    /// events tracked (nil: lets it finish): a point of its progress, not a
    /// time, so a loaded machine moves no kill out of the work. Returns the
    /// numbers it reported tracked, read from its output file once it has ended.
    static func run(_ executable: URL, _ arguments: [String], killAfterTracked: Int?) throws -> (tracked: [Int], killed: Bool) {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("tracker-child-\(UUID().uuidString).out")
        defer { try? FileManager.default.removeItem(at: log) }
        let errors = log.appendingPathExtension("err")
        defer { try? FileManager.default.removeItem(at: errors) }
        let child = try SpawnedProcess(executable, arguments: arguments, output: log, errors: errors, directory: nil)
        var killed = false
        if let killAfterTracked {
            let reached = ChildOutput(file: log).waitForLines { lines in
                lines.filter { $0.hasPrefix("tracked ") }.count >= killAfterTracked || lines.contains("empty")
                    || lines.contains { $0.hasPrefix("failed: ") }
            }
            killed = reached?.contains { $0.hasPrefix("failed: ") } == false && child.kill()
        }
        child.wait()
        let text = String(decoding: (try? Data(contentsOf: log)) ?? Data(), as: UTF8.self)
        if let failure = text.split(separator: "\n").first(where: { $0.hasPrefix("failed: ") }) { throw LaunchFailed(line: String(failure)) }
        if killAfterTracked != nil, !killed, !text.contains("empty") {
            // Neither its kill point nor its end within the hang guard: it died or hung.
            let problem = String(decoding: (try? Data(contentsOf: errors)) ?? Data(), as: UTF8.self)
            throw LaunchFailed(line: "no kill point and no end; printed \(text.suffix(200)); stderr \(problem.prefix(1500))")
        }
        let tracked = text.split(separator: "\n").compactMap { line in line.hasPrefix("tracked ") ? Int(line.dropFirst(8)) : nil }
        return (tracked, killed)
    }

    static let launches = ExperimentScale.pick(full: 100, sample: 12)

    /// A launch that said it failed (`failed: ...`), or died without a word.
    struct LaunchFailed: Error, CustomStringConvertible {
        let line: String
        var description: String { "tracker-child: \(line)" }
    }

    @Test(.timeLimit(.minutes(10))) func nothingAcknowledgedIsLostAcrossKills() async throws {
        let executable = try #require(Self.child, "tracker-child must be built beside the test bundle")
        let backend = try TrackerBackend(keepAlive: false)
        backend.dropAfterApplying.withLock { $0 = 0.3 }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tracker-kill-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let common = [folder.path, backend.baseURL.absoluteString, backend.apiKey]
        // The launches wait on a thread of their own, off the test pool.
        let (acknowledged, kills, last) = try await onOwnThread { () throws -> (Set<Int>, Int, (tracked: [Int], killed: Bool)) in
        var acknowledged = Set<Int>()
        var next = 0
        var kills = 0
        for _ in 0..<Self.launches {
            // Killed while tracking: after 1 to 39 of its 40 events.
            let (tracked, killed) = try Self.run(executable, common + [String(next), "40"], killAfterTracked: Int.random(in: 1...39))
            acknowledged.formUnion(tracked)
            next = max(next, (tracked.max() ?? next - 1) + 1)
            // A number tracked but not yet reported may be on disk: never reuse it.
            next += 1
            if killed { kills += 1 }
        }
        return (acknowledged, kills, try Self.run(executable, common + [String(next), "0"], killAfterTracked: nil))
        }
        #expect(!last.killed)
        var counts: [Int: Int] = [:]
        var firstArrivals: [Int] = []
        for event in backend.events {
            guard let number = (event.json["data"] as? [String: Any])?["n"] as? Int else { continue }
            if counts[number] == nil { firstArrivals.append(number) }
            counts[number, default: 0] += 1
        }
        let lost = acknowledged.subtracting(counts.keys)
        let duplicates = counts.values.reduce(0) { $0 + $1 - 1 }
        let sessions = Set(backend.events.compactMap(\.sessionID))
        print("tracker kill test: \(acknowledged.count) events acknowledged, \(kills) kills, \(backend.responsesDropped) responses dropped, "
            + "received \(counts.count) distinct, lost \(lost.count), duplicates \(duplicates), sessions \(sessions.count)")
        #expect(kills >= Self.launches * 9 / 10, "killed mid-work, not after it finished")
        #expect(acknowledged.count > Self.launches * 10)
        #expect(lost.isEmpty, "every event whose track returned reached the server")
        #expect(firstArrivals == firstArrivals.sorted(), "first arrivals in tracking order")
        // At-least-once: a row is sent again only when its answer was lost, or
        // when the process died between the answer and the row's deletion.
        #expect(duplicates <= backend.responsesDropped + kills, "duplicates bounded by lost responses plus kills")
        #expect(sessions.count == 1, "every launch restored the one session")
    }
}
