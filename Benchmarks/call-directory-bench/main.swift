import BenchSupport
import Foundation
import SecureNodeCallDirectory

#if canImport(Glibc)
import Glibc
#endif

/// `make bench`: the Call Directory extension's requests and the host's
/// changes file, one mode per process (scripts/bench.sh), so each peak RSS
/// is its own. Prints `BENCH` lines, and the entries handed to iOS.
///
/// Usage:
///   call-directory-bench prepare --folder DIR [--entries N] [--changes N]
///       writes what iOS holds (`held.snapshot`) and the current snapshot:
///       N entries, N/changes apart, a removal, a changed label or an addition
///   call-directory-bench diff-export --folder DIR [--runs N]      the host's changes file (merge, write, read back)
///   call-directory-bench complete-load --folder DIR [--runs N]    a request that is not incremental
///   call-directory-bench incremental-load --folder DIR [--runs N] an incremental request from `held.snapshot`
///   call-directory-bench peak-rss --folder DIR                    one complete and one incremental load; peak RSS

func argument(_ name: String) -> String? {
    guard let index = CommandLine.arguments.firstIndex(of: name), index + 1 < CommandLine.arguments.count else { return nil }
    return CommandLine.arguments[index + 1]
}

func argument(_ name: String, default value: Int) -> Int {
    argument(name).flatMap { Int($0) } ?? value
}



func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = ContinuousClock.now
    try body()
    return (ContinuousClock.now - start) / .seconds(1)
}

/// `1m` for a million entries, `10k` for ten thousand.
func sizeName(_ count: Int) -> String {
    if count >= 1_000_000, count % 1_000_000 == 0 { return "\(count / 1_000_000)m" }
    if count >= 1_000, count % 1_000 == 0 { return "\(count / 1_000)k" }
    return String(count)
}

/// iOS's side of a request, counting and checking the order, storing nothing.
final class CountingContext: CallDirectoryContext {
    let isIncremental: Bool
    private(set) var added = 0
    private(set) var removed = 0
    private(set) var completed = false
    private var lastAdded: CallDirectoryPhoneNumber = 0

    init(isIncremental: Bool) {
        self.isIncremental = isIncremental
    }

    func addEntry(_ number: CallDirectoryPhoneNumber, label: String) {
        precondition(number > lastAdded, "additions must ascend")
        lastAdded = number
        added += 1
    }

    func removeEntry(_ number: CallDirectoryPhoneNumber) {
        precondition(isIncremental, "a removal in a complete request")
        removed += 1
    }

    func removeAllEntries() {
        precondition(isIncremental, "a removal in a complete request")
    }

    func complete(_ completion: @escaping @Sendable (Bool) -> Void) {
        completed = true
        completion(false)
    }

    func cancel(with error: any Error) {
        fatalError("the request was cancelled: \(error)")
    }
}

struct Bench {
    let folder: URL
    var files: CallDirectoryFolder { CallDirectoryFolder(folder) }
    var held: URL { folder.appendingPathComponent("held.snapshot") }
    var sizeFile: URL { folder.appendingPathComponent("bench.size") }
    var entries: Int { Int((try? String(contentsOf: sizeFile, encoding: .utf8)) ?? "") ?? 0 }

    /// Both snapshots, written a megabyte at a time.
    func prepare(entries: Int, changes: Int) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let every = max(1, entries / max(1, changes))
        var base = Data()
        var current = Data()
        _ = FileManager.default.createFile(atPath: held.path, contents: nil)
        _ = FileManager.default.createFile(atPath: files.snapshot.path, contents: nil)
        let baseHandle = try FileHandle(forWritingTo: held)
        let currentHandle = try FileHandle(forWritingTo: files.snapshot)
        for index in 0..<entries {
            let number = CallDirectoryPhoneNumber(12_000_000_000 + index * 7)
            let label = "Brand \(index % 5_000)"
            CallDirectorySnapshotFormat.appendLine(number, label: label, to: &base)
            switch index % every == 0 ? (index / every) % 4 : -1 {
            case 0: break  // removed
            case 1: CallDirectorySnapshotFormat.appendLine(number, label: label + " renamed", to: &current)
            case 2, 3:
                CallDirectorySnapshotFormat.appendLine(number, label: label, to: &current)
                CallDirectorySnapshotFormat.appendLine(number + 3, label: "New \(index)", to: &current)
            default: CallDirectorySnapshotFormat.appendLine(number, label: label, to: &current)
            }
            if base.count >= 1 << 20 {
                try baseHandle.write(contentsOf: base)
                base.removeAll(keepingCapacity: true)
            }
            if current.count >= 1 << 20 {
                try currentHandle.write(contentsOf: current)
                current.removeAll(keepingCapacity: true)
            }
        }
        try baseHandle.write(contentsOf: base)
        try currentHandle.write(contentsOf: current)
        try baseHandle.close()
        try currentHandle.close()
        try Data(String(entries).utf8).write(to: sizeFile)
        _ = try writeChanges()
    }

    /// The host's changes file, as an export writes it; returns the counts.
    func writeChanges() throws -> CallDirectoryChangesWriter.Counts {
        let pending = folder.appendingPathComponent("call-directory.changes-pending")
        let counts = try CallDirectoryChangesWriter.write(
            from: held, baseFingerprint: try CallDirectorySnapshotFormat.validate(held).fingerprint, to: files.snapshot,
            targetFingerprint: try CallDirectorySnapshotFormat.validate(files.snapshot).fingerprint, into: pending)
        guard rename(pending.path, files.changes.path) == 0 else { throw CocoaError(.fileWriteUnknown) }
        return counts
    }

    /// The host's merge, write and read back, timed; the fingerprints are known beforehand (the host has them).
    func diffExport(runs: Int) throws {
        let base = try CallDirectorySnapshotFormat.validate(held).fingerprint
        let target = try CallDirectorySnapshotFormat.validate(files.snapshot).fingerprint
        let pending = folder.appendingPathComponent("call-directory.changes-pending")
        var counts = CallDirectoryChangesWriter.Counts(removals: 0, additions: 0)
        let times = try (0..<runs).map { _ in
            try seconds {
                counts = try CallDirectoryChangesWriter.write(from: held, baseFingerprint: base, to: files.snapshot, targetFingerprint: target, into: pending)
            }
        }
        guard rename(pending.path, files.changes.path) == 0 else { throw CocoaError(.fileWriteUnknown) }
        bench("call-directory-diff-export-\(sizeName(entries))", median(times), "s")
        print("call-directory-diff-export-\(sizeName(entries)): \(counts.removals) removals, \(counts.additions) additions")
    }

    /// One request that is not incremental.
    func completeLoad() -> CountingContext {
        let context = CountingContext(isIncremental: false)
        let report = CallDirectoryLoader.handleRequest(context, in: folder)
        precondition(report.mode == .complete && report.error == nil && context.completed)
        return context
    }

    /// The host's confirmation that iOS holds `held.snapshot` (fingerprint
    /// `base`), made for the extension's last attempt (a complete load
    /// first when there is none).
    func confirmHeld(_ base: CallDirectoryFingerprint) throws {
        if CallDirectoryAttempt.read(in: files) == nil { _ = completeLoad() }
        try CallDirectoryLoadState(loaded: base, confirmedAttempt: CallDirectoryAttempt.read(in: files)?.id).write(in: files)
    }

    /// One incremental request, from what the host confirmed.
    func incrementalLoad() -> CountingContext {
        let context = CountingContext(isIncremental: true)
        let report = CallDirectoryLoader.handleRequest(context, in: folder)
        precondition(report.mode == .incremental && report.error == nil && context.completed, "\(report)")
        return context
    }

    func timeCompleteLoads(runs: Int) {
        var handed = 0
        let times = (0..<runs).map { _ in seconds { handed = completeLoad().added } }
        bench("call-directory-complete-load-\(sizeName(entries))", median(times), "s")
        print("call-directory-complete-load-\(sizeName(entries)): \(handed) entries handed")
    }

    func timeIncrementalLoads(runs: Int) throws {
        let base = try CallDirectorySnapshotFormat.validate(held).fingerprint
        var handed = (removed: 0, added: 0)
        var times: [Double] = []
        for _ in 0..<runs {
            try confirmHeld(base)  // the host's work: outside the clock
            var context: CountingContext?
            times.append(seconds { context = incrementalLoad() })
            handed = (context?.removed ?? 0, context?.added ?? 0)
        }
        bench("call-directory-incremental-load-\(sizeName(entries))", median(times), "s", decimals: 4)
        print("call-directory-incremental-load-\(sizeName(entries)): \(handed.removed) removals and \(handed.added) additions handed")
    }

    func peakRSS() throws {
        let handed = completeLoad().added
        try confirmHeld(try CallDirectorySnapshotFormat.validate(held).fingerprint)
        let changes = incrementalLoad()
        bench("call-directory-load-\(sizeName(entries))-peak-rss", peakRSSMegabytes(), "MB", decimals: 1)
        print("call-directory-load-\(sizeName(entries))-peak-rss: \(handed) entries, then \(changes.removed + changes.added) changes handed")
    }
}

guard CommandLine.arguments.count > 1, let folder = argument("--folder") else {
    print("usage: call-directory-bench prepare|diff-export|complete-load|incremental-load|peak-rss --folder DIR [--entries N] [--changes N] [--runs N]")
    exit(2)
}
let runs = argument("--runs", default: 5)
let run = Bench(folder: URL(fileURLWithPath: folder, isDirectory: true))
switch CommandLine.arguments[1] {
case "prepare": try run.prepare(entries: argument("--entries", default: 1_000_000), changes: argument("--changes", default: 1_000))
case "diff-export": try run.diffExport(runs: runs)
case "complete-load": run.timeCompleteLoads(runs: runs)
case "incremental-load": try run.timeIncrementalLoads(runs: runs)
case "peak-rss": try run.peakRSS()
default:
    print("unknown mode \(CommandLine.arguments[1])")
    exit(2)
}
