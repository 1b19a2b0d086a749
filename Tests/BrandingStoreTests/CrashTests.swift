import Foundation
import GRDB
import ProcessTestSupport
import RuntimeSupport
import Testing

@testable import BrandingStore

/// A sync killed with SIGKILL at 200 points leaves the store whole: it
/// opens, passes `PRAGMA integrity_check`, and holds the old dataset with
/// the old cursor or the new dataset with the new cursor, in SQLite and in
/// lookups alike.
@Suite struct CrashTests {
    static let recordCount = 100_000
    static let trials = 200

    /// The child executable that `swift build` put beside the test bundle.
    static let child = ChildProcess.executable(named: "branding-crash-child")

    /// One generation of the dataset as the child writes it.
    struct Dataset {
        let first: Int
        let generation: Int
        let cursor: String
        var numbers: ClosedRange<Int64> { (15_551_000_000 + Int64(first))...(15_551_000_000 + Int64(first + CrashTests.recordCount - 1)) }
        var brandName: String { "Generation \(generation)" }
    }

    static let old = Dataset(first: 0, generation: 1, cursor: "c1")
    static let new = Dataset(first: 50_000, generation: 2, cursor: "c2")

    /// What a trial found after the kill.
    enum State: Equatable {
        case old, new
        case mixed(String)
        case corrupt(String)
    }

    /// Starts the child syncing `dataset` into `path`; returns once it says it
    /// has started.
    static func startChild(_ executable: URL, path: String, dataset: Dataset) throws -> Process {
        try ChildProcess.start(
            executable, arguments: [path, String(dataset.first), String(recordCount), String(dataset.generation), dataset.cursor], readyLine: "syncing")
    }

    /// Copies the store files (database, WAL, lookup file) from `source` to `destination`.
    static func copyStore(from source: URL, to destination: URL) throws {
        let manager = FileManager.default
        try? manager.removeItem(at: destination)
        try manager.createDirectory(at: destination, withIntermediateDirectories: true)
        for name in try manager.contentsOfDirectory(atPath: source.path) where !name.hasSuffix("-shm") {
            try manager.copyItem(at: source.appendingPathComponent(name), to: destination.appendingPathComponent(name))
        }
    }

    /// Opens the store a killed child left and says which dataset it holds.
    static func inspect(_ path: String) -> State {
        do {
            let check = try DatabaseQueue(path: path)
            let integrity = try check.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
            guard integrity == ["ok"] else { return .corrupt(integrity.prefix(3).joined(separator: "; ")) }
            let summary = try check.read { db in
                try Row.fetchOne(db, sql: """
                    SELECT (SELECT cursor FROM sync_state WHERE id = 1), COUNT(*), MIN(number), MAX(number),
                        COUNT(DISTINCT brand_name), MIN(brand_name) FROM branding
                    """)!
            }
            try check.close()
            let cursor: String? = summary[0]
            guard let dataset = [old, new].first(where: { $0.cursor == cursor }) else { return .mixed("cursor \(cursor ?? "none")") }
            let count: Int = summary[1]
            let low: Int64? = summary[2]
            let high: Int64? = summary[3]
            let names: Int = summary[4]
            let name: String? = summary[5]
            guard count == recordCount, low == dataset.numbers.lowerBound, high == dataset.numbers.upperBound, names == 1, name == dataset.brandName else {
                return .mixed("cursor \(dataset.cursor) with \(count) rows, numbers \(low ?? 0)...\(high ?? 0), \(names) brand names")
            }
            // Lookups (the memory-mapped file, rebuilt on open if it lags) must agree.
            let store = try BrandingStore(path: path)
            let probe = stride(from: Int64(15_551_000_000), to: 15_551_150_000, by: 997).map { "+\($0)" }
            for (text, record) in zip(probe, store.lookup(e164s: probe)) {
                let expected = dataset.numbers.contains(Int64(text.dropFirst())!)
                guard (record != nil) == expected, record.map({ $0.brandName == dataset.brandName }) ?? true else {
                    return .mixed("lookup of \(text) disagrees with cursor \(dataset.cursor)")
                }
            }
            return dataset.cursor == old.cursor ? .old : .new
        } catch {
            return .corrupt("\(error)")
        }
    }

    @Test(.timeLimit(.minutes(10))) func syncKilledAt200PointsLeavesOldOrNew() throws {
        let executable = try #require(Self.child, "branding-crash-child must be built beside the test bundle")
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("branding-crash-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let template = root.appendingPathComponent("template")
        try FileManager.default.createDirectory(at: template, withIntermediateDirectories: true)
        let seed = try Self.startChild(executable, path: template.appendingPathComponent("branding.sqlite").path, dataset: Self.old)
        seed.waitUntilExit()
        try #require(seed.terminationStatus == 0)

        // How long an uninterrupted sync takes, so the kills spread over it:
        // measured as the trials run, two at once, so that whatever else
        // loads the machine (another test lane) stretches both alike.
        let timings = Locked<[Duration]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { lane in
            let timing = root.appendingPathComponent("timing-\(lane)")
            guard (try? Self.copyStore(from: template, to: timing)) != nil else { return }
            let started = ContinuousClock.now
            guard let full = try? Self.startChild(executable, path: timing.appendingPathComponent("branding.sqlite").path, dataset: Self.new) else { return }
            full.waitUntilExit()
            let elapsed = ContinuousClock.now - started
            if Self.inspect(timing.appendingPathComponent("branding.sqlite").path) == .new { timings.withLock { $0.append(elapsed) } }
        }
        let measured = timings.withLock { $0 }
        #expect(measured.count == 2, "both timing syncs complete and leave the new dataset")
        let syncDuration = try #require(measured.max())

        // Two lanes of trials at once (the machine's two cores); trial i kills
        // at (i + 0.5) / 200 of the sync's duration, stretched by a tenth so
        // the last ones land after the commit.
        let results = Locked<[State?]>(Array(repeating: nil, count: Self.trials))
        DispatchQueue.concurrentPerform(iterations: 2) { lane in
            for trial in stride(from: lane, to: Self.trials, by: 2) {
                let folder = root.appendingPathComponent("trial-\(trial)")
                let path = folder.appendingPathComponent("branding.sqlite").path
                let state: State
                do {
                    try Self.copyStore(from: template, to: folder)
                    let process = try Self.startChild(executable, path: path, dataset: Self.new)
                    let delay = syncDuration * ((Double(trial) + 0.5) / Double(Self.trials) * 1.1)
                    Thread.sleep(forTimeInterval: Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18)
                    kill(process.processIdentifier, SIGKILL)
                    process.waitUntilExit()
                    state = Self.inspect(path)
                } catch {
                    state = .corrupt("trial set-up failed: \(error)")
                }
                try? FileManager.default.removeItem(at: folder)
                results.withLock { $0[trial] = state }
            }
        }
        let states = results.withLock { $0.compactMap { $0 } }
        let mixed = states.filter { if case .mixed = $0 { return true } else { return false } }
        let corrupt = states.filter { if case .corrupt = $0 { return true } else { return false } }
        print("crash test: \(states.count) trials (a \(Self.recordCount)-record full sync, \(syncDuration) uninterrupted), "
            + "old \(states.filter { $0 == .old }.count), new \(states.filter { $0 == .new }.count), "
            + "mixed states \(mixed.count), integrity failures \(corrupt.count)")
        #expect(states.count == Self.trials)
        #expect(mixed.isEmpty, "\(mixed.prefix(3))")
        #expect(corrupt.isEmpty, "\(corrupt.prefix(3))")
        #expect(states.contains(.old) && states.contains(.new), "the kills should land both before and after the commit")
    }
}

/// Readers never see two sync generations in one lookup batch while syncs
/// rewrite every record.
@Suite struct TornReadTests {
    /// 1,500 records: incremental syncs go to the lookup delta; 5,000: past
    /// the delta's limit, each one rebuilds the base.
    @Test(arguments: [1_500, 5_000]) func eightReadersNeverSeeTwoGenerations(recordCount: Int) throws {
        let (store, folder) = try BrandingStoreTests.makeStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        let numbers = (0..<recordCount).map { "+1444\(1_000_000 + $0)" }
        func records(_ generation: Int) -> [IncomingBrandingRecord] {
            numbers.map { IncomingBrandingRecord(e164: $0, brandName: "Generation \(generation)", brandID: "b", updatedAt: "2024-01-01T00:00:00Z", isActive: true) }
        }
        try store.apply(.full, records: records(0), cursor: "c0")
        let syncs = 20
        let done = Locked(false)
        let counts = Locked((lookups: 0, torn: 0, misses: 0))
        let group = DispatchGroup()
        for reader in 0..<8 {
            group.enter()
            Thread.detachNewThread {
                var generator = SplitMix64(seed: UInt64(reader + 1))
                var lookups = 0, torn = 0, misses = 0
                while !done.withLock({ $0 }) {
                    let batch = (0..<32).map { _ in numbers[Int(generator.next() % UInt64(numbers.count))] }
                    let found = store.lookup(e164s: batch)
                    lookups += batch.count
                    let names = Set(found.map { $0?.brandName })
                    if names.contains(nil) { misses += 1 }
                    if names.count > 1 { torn += 1 }
                }
                counts.withLock { $0.lookups += lookups; $0.torn += torn; $0.misses += misses }
                group.leave()
            }
        }
        for generation in 1...syncs {
            try store.apply(generation % 2 == 0 ? .full : .incremental, records: records(generation), cursor: "c\(generation)")
        }
        done.withLock { $0 = true }
        group.wait()
        let result = counts.withLock { $0 }
        print("torn reads (\(recordCount) records, \(syncs) syncs, 8 readers): lookups done \(result.lookups), torn reads \(result.torn)")
        #expect(result.lookups > 0)
        #expect(result.torn == 0)
        #expect(result.misses == 0, "every number is in every generation")
        #expect(store.lookup(e164: numbers[0])?.brandName == "Generation \(syncs)")
    }
}
