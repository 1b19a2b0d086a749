import BenchSupport
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// `make bench`: a full sync of 1M records over loopback HTTP, through the
/// generated client into the branding store. Each mode runs in a child
/// process of this program (its peak RSS is its own); the parent prints
/// their `BENCH` lines and the streamed figures as ratios of the buffered:
/// `full-sync-1m-http` (s), `full-sync-1m-http-cpu` (s: the store writes
/// with fsync, so CPU time tells slow code from a slow disk),
/// `full-sync-1m-http-peak-rss` (MB), the same
/// with `-buffered`, `full-sync-1m-http-vs-buffered` and
/// `full-sync-1m-http-peak-rss-vs-buffered` (ratios).
/// Usage: sync-http-bench [--records N] [--child streamed|buffered]

func argument(_ name: String, default value: Int) -> Int {
    guard let index = CommandLine.arguments.firstIndex(of: name), index + 1 < CommandLine.arguments.count else { return value }
    return Int(CommandLine.arguments[index + 1]) ?? value
}



func number(_ index: Int) -> String { "+1" + String(2_000_000_000 + index * 7) }

let recordCount = argument("--records", default: 1_000_000)
if let index = CommandLine.arguments.firstIndex(of: "--child"), index + 1 < CommandLine.arguments.count,
   let mode = HTTPSync.Mode(rawValue: CommandLine.arguments[index + 1]) {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sync-http-bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try await HTTPSync.run(mode, count: recordCount, folder: folder)
} else {
    try HTTPSync.runChildren(count: recordCount)
}
