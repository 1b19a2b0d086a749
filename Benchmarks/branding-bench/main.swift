import BenchSupport
import BrandingStore
import Foundation
import GRDB

#if canImport(Glibc)
import Glibc
#endif

/// `make bench`: the branding store at 1M records. Prints `BENCH` lines:
/// full sync of 1M records (wall, CPU, peak RSS), incremental sync of 1k changes,
/// lookup p50/p99 over random stored numbers (and the same lookups through
/// SQLite, as the peer), Call Directory export.
/// Usage: branding-bench [--records N] [--lookups N]

func argument(_ name: String, default value: Int) -> Int {
    guard let index = CommandLine.arguments.firstIndex(of: name), index + 1 < CommandLine.arguments.count else { return value }
    return Int(CommandLine.arguments[index + 1]) ?? value
}



let recordCount = argument("--records", default: 1_000_000)
let lookupCount = argument("--lookups", default: 200_000)
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("branding-bench-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }
let store = try BrandingStore(path: folder.appendingPathComponent("branding.sqlite").path)

func number(_ index: Int) -> String { "+1" + String(2_000_000_000 + index * 7) }

// Records are made as the sync reads them, the way a streaming decode hands
// them over: the figure is the store's memory, not a million structs held.
let records = (0..<recordCount).lazy.map { index in
    IncomingBrandingRecord(
        e164: number(index), brandName: "Brand \(index % 5000)", brandID: "brand_\(index % 5000)",
        logoURL: index % 3 == 0 ? "https://assets.securenode.io/logos/\(index % 5000).png" : nil,
        callReason: index % 2 == 0 ? "Appointment reminder" : nil, updatedAt: "2024-01-01T00:00:00Z", isActive: true)
}

var started = ContinuousClock.now
let cpuBefore = cpuSeconds()
try store.apply(.full, records: records, cursor: "c1")
let fullSeconds = (ContinuousClock.now - started) / .seconds(1)
bench("full-sync-1m", fullSeconds, "s")
// The sync writes SQLite with fsync: its CPU time tells slow code from a slow disk.
bench("full-sync-1m-cpu", cpuSeconds() - cpuBefore, "s")
bench("full-sync-1m-peak-rss", peakRSSMegabytes(), "MB", decimals: 0)

let changes = (0..<1000).map { index in
    IncomingBrandingRecord(e164: number(index * 997 % recordCount), brandName: "Changed \(index)", brandID: "brand_x", updatedAt: "2024-01-02T00:00:00Z", isActive: index % 10 != 0)
}
var incremental: [Double] = []
for round in 0..<5 {
    started = ContinuousClock.now
    try store.apply(SyncBatch(kind: .incremental, records: changes, cursor: "c\(round + 2)"))
    incremental.append((ContinuousClock.now - started) / .milliseconds(1))
}
bench("incremental-sync-1k", incremental.sorted()[incremental.count / 2], "ms")

var generator = SystemRandomNumberGenerator()
var samples: [Double] = []
samples.reserveCapacity(lookupCount)
var found = 0
for _ in 0..<lookupCount {
    let candidate = number(Int.random(in: 0..<recordCount, using: &generator))
    let start = ContinuousClock.now
    if store.lookup(e164: candidate) != nil { found += 1 }
    samples.append((ContinuousClock.now - start) / .microseconds(1))
}
samples.sort()
let lookupP99 = samples[samples.count * 99 / 100]
bench("lookup-p50", samples[samples.count / 2], "us")
bench("lookup-p99", lookupP99, "us")
precondition(found > lookupCount / 2, "lookups found too few records")

// The peer: the same lookups as one SQL statement on a read-only connection
// with a cached statement and no transaction (the store's lookup before the
// memory-mapped file), on the same database, in the same run.
var readOnly = Configuration()
readOnly.readonly = true
let sqlite = try DatabaseQueue(path: folder.appendingPathComponent("branding.sqlite").path, configuration: readOnly)
var peerSamples: [Double] = []
peerSamples.reserveCapacity(lookupCount)
try sqlite.inDatabase { db in
    let statement = try db.cachedStatement(sql: "SELECT e164, brand_name, brand_id, logo_url, call_reason, updated_at FROM branding WHERE number = ?")
    for _ in 0..<lookupCount {
        let candidate = Int64(number(Int.random(in: 0..<recordCount, using: &generator)).dropFirst())!
        let start = ContinuousClock.now
        let row = try Row.fetchOne(statement, arguments: [candidate])
        if let row {
            _ = BrandingRecord(e164: row[0], brandName: row[1], brandID: row[2], logoURL: row[3], callReason: row[4], updatedAt: row[5])
        }
        peerSamples.append((ContinuousClock.now - start) / .microseconds(1))
    }
}
peerSamples.sort()
let peerP99 = peerSamples[peerSamples.count * 99 / 100]
bench("lookup-sqlite-p50", peerSamples[peerSamples.count / 2], "us")
bench("lookup-sqlite-p99", peerP99, "us")
bench("lookup-p99-vs-sqlite", lookupP99 / peerP99, "ratio")

let snapshot = CallDirectorySnapshot(folder: folder.appendingPathComponent("group"))
started = ContinuousClock.now
let exported = try snapshot.export(from: store)
bench("call-directory-export-1m", (ContinuousClock.now - started) / .seconds(1), "s")
let stored = try store.count()
precondition(exported == stored, "the export holds \(exported) numbers, the store \(stored)")
