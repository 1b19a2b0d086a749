import BrandingStore
import Foundation

/// A process for crash tests: it runs one full sync and is killed (SIGKILL)
/// by the test at some point of it.
///
/// Usage: branding-crash-child STORE_PATH FIRST COUNT GENERATION CURSOR
///
/// Syncs COUNT records numbered from FIRST, each with the brand name
/// `Generation GENERATION`, and CURSOR. Reports its progress on standard
/// output, one line at a time and unbuffered, so the test kills it at a
/// point of the sync rather than at a guessed time: `syncing` when the sync
/// starts, `read N` after every hundredth of the records, `records read`
/// once the last record is in (the commit follows), and `synced` once the
/// sync has committed.
let arguments = CommandLine.arguments
guard arguments.count == 6, let first = Int(arguments[2]), let count = Int(arguments[3]) else {
    FileHandle.standardError.write(Data("usage: branding-crash-child STORE_PATH FIRST COUNT GENERATION CURSOR\n".utf8))
    exit(2)
}
/// One line, written at once.
func report(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
let generation = arguments[4]
let cursor = arguments[5]
let store = try BrandingStore(path: arguments[1])
let step = max(1, count / 100)
let records = (first..<first + count).lazy.map { index in
    if (index - first) % step == 0 && index > first { report("read \(index - first)") }
    return IncomingBrandingRecord(
        e164: "+1555\(1_000_000 + index)", brandName: "Generation \(generation)", brandID: "brand_\(index % 100)",
        logoURL: index % 3 == 0 ? "https://assets.securenode.io/logos/\(index % 100).png" : nil,
        callReason: "Reason \(generation)", updatedAt: "2024-01-0\(generation)T00:00:00Z", isActive: true)
}
report("syncing")
try store.apply(.full, records: records) {
    report("records read")
    return SyncState(cursor: cursor)
}
report("synced")
