import BrandingStore
import Foundation

/// A process for crash tests: it runs one full sync and is killed (SIGKILL)
/// by the test at some point of it.
///
/// Usage: branding-crash-child STORE_PATH FIRST COUNT GENERATION CURSOR
///
/// Syncs COUNT records numbered from FIRST, each with the brand name
/// `Generation GENERATION`, and CURSOR. Prints `syncing` when the sync
/// starts and `synced` when it has committed.
let arguments = CommandLine.arguments
guard arguments.count == 6, let first = Int(arguments[2]), let count = Int(arguments[3]) else {
    FileHandle.standardError.write(Data("usage: branding-crash-child STORE_PATH FIRST COUNT GENERATION CURSOR\n".utf8))
    exit(2)
}
let generation = arguments[4]
let store = try BrandingStore(path: arguments[1])
let records = (first..<first + count).lazy.map { index in
    IncomingBrandingRecord(
        e164: "+1555\(1_000_000 + index)", brandName: "Generation \(generation)", brandID: "brand_\(index % 100)",
        logoURL: index % 3 == 0 ? "https://assets.securenode.io/logos/\(index % 100).png" : nil,
        callReason: "Reason \(generation)", updatedAt: "2024-01-0\(generation)T00:00:00Z", isActive: true)
}
FileHandle.standardOutput.write(Data("syncing\n".utf8))
try store.apply(.full, records: records, cursor: arguments[5])
FileHandle.standardOutput.write(Data("synced\n".utf8))
