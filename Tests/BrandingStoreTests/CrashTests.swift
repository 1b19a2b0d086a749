import Foundation
import GRDB
import ProcessTestSupport
import RuntimeSupport
import Testing
import Waiting

@testable import BrandingStore

/// A sync killed with SIGKILL at many points leaves the store whole: it
/// opens, passes `PRAGMA integrity_check`, and holds the old dataset with
/// the old cursor or the new dataset with the new cursor, in SQLite and in
/// lookups alike.
///
/// The kill points follow the child's own progress (it reports every
/// hundredth of the records read, then `records read`, then `synced`), so
/// a loaded machine moves no kill to another phase of the sync: the first
/// kills land while records are read (the old dataset must survive), the
/// last after the commit (the new one must), and those between spread
/// over the commit. `make test` runs a sample (30 kills of a 10,000-record
/// sync); `make test-heavy` and CI the full 200 kills of 100,000 records.
@Suite struct CrashTests {
    static let recordCount = ExperimentScale.pick(full: 100_000, sample: 10_000)
    static let trials = ExperimentScale.pick(full: 200, sample: 30)

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
    static let new = Dataset(first: recordCount / 2, generation: 2, cursor: "c2")

    /// What a trial found after the kill.
    enum State: Equatable, Sendable {
        case old, new
        case mixed(String)
        case corrupt(String)
    }

    /// Where a trial kills the child.
    enum KillPoint: Equatable, Sendable {
        /// Once it reported this many records read (0: once it started).
        case afterRecords(Int)
        /// This long after it reported `records read`: during the commit.
        case duringCommit(Duration)
        /// Once it reported `synced`.
        case afterCommit
    }

    /// Trial `trial` of `trials`: its point on a scale where 0..<1 is the
    /// reading of the records, 1..<1.2 the commit (spread over
    /// `commitDuration`, measured in this run), and past 1.2 after it.
    static func killPoint(trial: Int, of trials: Int, commitDuration: Duration) -> KillPoint {
        let position = (Double(trial) + 0.5) / Double(trials) * 1.3
        if position < 1 { return .afterRecords(Int(position * Double(recordCount))) }
        if position < 1.2 { return .duringCommit(commitDuration * ((position - 1) / 0.2)) }
        return .afterCommit
    }

    /// The child's arguments for syncing `dataset` into `path`.
    static func arguments(path: String, dataset: Dataset) -> [String] {
        [path, String(dataset.first), String(recordCount), String(dataset.generation), dataset.cursor]
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
            let probe = stride(from: Int64(15_551_000_000), to: 15_551_000_000 + Int64(recordCount * 3 / 2), by: 997).map { "+\($0)" }
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

    /// Runs the child syncing the new dataset into `folder` (a copy of
    /// `template`) and kills it at `point`; returns the state it left, and
    /// how long its commit took when it was let finish.
    static func trial(_ executable: URL, template: URL, folder: URL, killAt point: KillPoint?) throws -> (State, commit: Duration?) {
        try copyStore(from: template, to: folder)
        let path = folder.appendingPathComponent("branding.sqlite").path
        let output = folder.appendingPathComponent("child.out")
        let process = try SpawnedProcess(executable, arguments: arguments(path: path, dataset: new), output: output)
        let lines = ChildOutput(file: output)
        var commit: Duration?
        switch point {
        case .afterRecords(let count)?:
            let reached = lines.waitForLine { line in
                line == "records read" || line == "synced" || (line.hasPrefix("read ") && Int(line.dropFirst(5)).map { $0 >= count } == true)
                    || (count == 0 && line == "syncing")
            }
            guard reached != nil else { throw ChildStalled(point: point) }
            process.kill()
        case .duringCommit(let delay)?:
            guard lines.waitForLine(where: { $0 == "records read" }) != nil else { throw ChildStalled(point: point) }
            Thread.sleep(forTimeInterval: Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18)
            process.kill()
        case .afterCommit?:
            guard lines.waitForLine(where: { $0 == "synced" }) != nil else { throw ChildStalled(point: point) }
            process.kill()
        case nil:
            guard lines.waitForLine(where: { $0 == "records read" }) != nil else { throw ChildStalled(point: point) }
            let started = ContinuousClock.now
            guard lines.waitForLine(where: { $0 == "synced" }) != nil else { throw ChildStalled(point: point) }
            commit = ContinuousClock.now - started
        }
        process.wait()
        return (inspect(path), commit)
    }

    /// The child did not reach its kill point (it died or hung).
    struct ChildStalled: Error, CustomStringConvertible {
        let point: KillPoint?
        var description: String { "the crash child never reached \(point.map { "\($0)" } ?? "its end")" }
    }

    /// What the kills left, with how long an uninterrupted commit took.
    struct Outcome: Sendable {
        var states: [State] = []
        var commitDuration: Duration = .zero
        var timingFailures: [String] = []
    }

    /// The experiment, on the calling thread: two uninterrupted syncs time
    /// the commit, then `trials` kills in two lanes (the machine's two cores).
    static func killTrials(_ executable: URL, root: URL) throws -> Outcome {
        let template = root.appendingPathComponent("template")
        try FileManager.default.createDirectory(at: template, withIntermediateDirectories: true)
        let seed = try SpawnedProcess(
            executable, arguments: arguments(path: template.appendingPathComponent("branding.sqlite").path, dataset: old),
            output: root.appendingPathComponent("seed.out"))
        guard seed.wait() == 0 else { throw ChildStalled(point: nil) }

        // How long the commit takes (from `records read` to `synced`), measured
        // here, two at once as the trials run, so the kills between spread over it.
        let commits = Locked<[Duration]>([])
        var outcome = Outcome()
        let timingFailures = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { lane in
            do {
                let (state, commit) = try trial(executable, template: template, folder: root.appendingPathComponent("timing-\(lane)"), killAt: nil)
                if state == .new, let commit { commits.withLock { $0.append(commit) } } else { timingFailures.withLock { $0.append("\(state)") } }
            } catch {
                timingFailures.withLock { $0.append("\(error)") }
            }
        }
        outcome.timingFailures = timingFailures.read()
        guard let commitDuration = commits.read().max() else { return outcome }
        outcome.commitDuration = commitDuration

        let results = Locked<[State?]>(Array(repeating: nil, count: trials))
        DispatchQueue.concurrentPerform(iterations: 2) { lane in
            for trial in stride(from: lane, to: trials, by: 2) {
                let folder = root.appendingPathComponent("trial-\(trial)")
                let point = killPoint(trial: trial, of: trials, commitDuration: commitDuration)
                let state: State
                do {
                    state = try Self.trial(executable, template: template, folder: folder, killAt: point).0
                } catch {
                    state = .corrupt("trial \(trial) (\(point)): \(error)")
                }
                try? FileManager.default.removeItem(at: folder)
                results.withLock { $0[trial] = state }
            }
        }
        outcome.states = results.withLock { $0.compactMap { $0 } }
        return outcome
    }

    @Test(.timeLimit(.minutes(10))) func aSyncKilledAtAnyPointLeavesOldOrNew() async throws {
        let executable = try #require(Self.child, "branding-crash-child must be built beside the test bundle")
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("branding-crash-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let outcome = try await onOwnThread { try Self.killTrials(executable, root: root) }
        #expect(outcome.timingFailures.isEmpty, "an uninterrupted sync leaves the new dataset: \(outcome.timingFailures)")
        let states = outcome.states
        let mixed = states.filter { if case .mixed = $0 { return true } else { return false } }
        let corrupt = states.filter { if case .corrupt = $0 { return true } else { return false } }
        print("crash test: \(states.count) kills of a \(Self.recordCount)-record full sync (commit \(outcome.commitDuration)), "
            + "old \(states.filter { $0 == .old }.count), new \(states.filter { $0 == .new }.count), "
            + "mixed states \(mixed.count), integrity failures \(corrupt.count)")
        #expect(states.count == Self.trials)
        #expect(mixed.isEmpty, "\(mixed.prefix(3))")
        #expect(corrupt.isEmpty, "\(corrupt.prefix(3))")
        // By construction: kills while records are read, and after `synced`.
        #expect(states.contains(.old) && states.contains(.new), "a kill before the commit keeps the old dataset, one after it the new")
    }
}

/// Readers never see two sync generations in one lookup batch while syncs
/// rewrite every record.
@Suite struct TornReadTests {
    /// 1,500 records: incremental syncs go to the lookup delta; 5,000: past
    /// the delta's limit, each one rebuilds the base.
    @Test(arguments: [1_500, 5_000]) func eightReadersNeverSeeTwoGenerations(recordCount: Int) async throws {
        // Syncs and readers on threads of their own, off the test pool.
        let (result, last) = try await onOwnThread { try Self.readWhileSyncing(recordCount: recordCount) }
        let syncs = Self.syncs
        print("torn reads (\(recordCount) records, \(syncs) syncs, 8 readers): lookups done \(result.lookups), torn reads \(result.torn)")
        #expect(result.lookups > 0)
        #expect(result.torn == 0)
        #expect(result.misses == 0, "every number is in every generation")
        #expect(last == "Generation \(syncs)")
    }

    /// 20 syncs in `make test-heavy` and CI, 8 in `make test`.
    static let syncs = ExperimentScale.pick(full: 20, sample: 8)

    /// 8 readers look up random batches while `syncs` syncs rewrite every record;
    /// returns what they counted and the last generation's name for the first number.
    static func readWhileSyncing(recordCount: Int) throws -> (result: (lookups: Int, torn: Int, misses: Int), last: String?) {
        let (store, folder) = try BrandingStoreTests.makeStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        let numbers = (0..<recordCount).map { "+1444\(1_000_000 + $0)" }
        func records(_ generation: Int) -> [IncomingBrandingRecord] {
            numbers.map { IncomingBrandingRecord(e164: $0, brandName: "Generation \(generation)", brandID: "b", updatedAt: "2024-01-01T00:00:00Z", isActive: true) }
        }
        try store.apply(.full, records: records(0), cursor: "c0")
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
        return (result, store.lookup(e164: numbers[0])?.brandName)
    }
}
