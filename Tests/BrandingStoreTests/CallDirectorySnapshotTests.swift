import Foundation
import Testing

@testable import BrandingStore

/// The Call Directory snapshot: order CallKit accepts, two-phase replace,
/// rollback, validation, and the reload policy.
@Suite struct CallDirectorySnapshotTests {
    @Test func snapshotsAscendByNumericValueWithOneLineEach() throws {
        let (store, folder) = try BrandingStoreTests.makeStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        try store.apply(SyncBatch(kind: .full, records: [
            BrandingStoreTests.record("+61412345678", "Acme\tBank"),
            BrandingStoreTests.record("+447700900123", "Line\nBreak"),
            BrandingStoreTests.record("+1234567890", "Contoso"),
        ], cursor: "c1"))
        let snapshot = CallDirectorySnapshot(folder: folder.appendingPathComponent("group"))
        #expect(try snapshot.export(from: store) == 3)
        let text = try String(contentsOf: snapshot.current, encoding: .utf8)
        // Numeric order: 61412345678 comes before 447700900123, though as text "4..." < "6...".
        #expect(text == "1234567890\tContoso\n61412345678\tAcme Bank\n447700900123\tLine Break\n")
        #expect(try CallDirectorySnapshot.validate(snapshot.current) == 3)
    }

    @Test func labelsLoseControlFormatAndBidiCharactersOnTheWayIn() throws {
        let (store, folder) = try BrandingStoreTests.makeStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cases: [(number: String, name: String, reason: String?, shown: String, shownReason: String?)] = [
            // Cc: a control character goes; a tab or line break becomes a space.
            ("+61400000001", "Acme\u{07}Bank", nil, "AcmeBank", nil),
            ("+61400000002", "\tLine\r\nBreak\u{2028}Here", "Call\u{0}back", "Line  Break Here", "Callback"),
            // Cf, bidi: an override or isolate that would show another name.
            ("+61400000003", "Bank\u{202E}kcabllaC", "Fraud\u{202E} alert", "BankkcabllaC", "Fraud alert"),
            ("+61400000004", "\u{2067}Pay\u{2069} Co", nil, "Pay Co", nil),
            // Cf, other: zero-width space and joiner, byte-order mark, soft hyphen.
            ("+61400000005", "\u{FEFF}Zero\u{200B}Width\u{200D} Soft\u{00AD}ware", nil, "ZeroWidth Software", nil),
            // Letters, marks and symbols of any script stay.
            ("+61400000006", "Café Zürich 日本 \u{1F3E6}", "Überweisung", "Café Zürich 日本 \u{1F3E6}", "Überweisung"),
        ]
        let outcome = try store.apply(SyncBatch(kind: .full, records: cases.map { BrandingStoreTests.record($0.number, $0.name, reason: $0.reason) } + [
            BrandingStoreTests.record("+61400000007", "\u{202E}\u{200B}\u{07}"),  // nothing to show
        ], cursor: "c1"))
        #expect(outcome.stored == cases.count && outcome.skippedRecords.map(\.reason) == ["brand_name: empty"])
        let snapshot = CallDirectorySnapshot(folder: folder.appendingPathComponent("group"))
        try snapshot.export(from: store)
        let lines = try String(contentsOf: snapshot.current, encoding: .utf8).split(separator: "\n").map(String.init)
        for entry in cases {
            // The lookup (what a contact is made from) and the Call Directory show the same text.
            let stored = try #require(store.lookup(e164: entry.number))
            #expect(stored.brandName == entry.shown && stored.callReason == entry.shownReason, "\(entry.number): \(stored.brandName.debugDescription)")
            #expect(lines.contains(String(entry.number.dropFirst()) + "\t" + entry.shown))
        }
    }

    @Test func aNewExportKeepsThePreviousForRollback() throws {
        let (store, folder) = try BrandingStoreTests.makeStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        let snapshot = CallDirectorySnapshot(folder: folder)
        try store.apply(SyncBatch(kind: .full, records: [BrandingStoreTests.record("+61412345678")], cursor: "c1"))
        try snapshot.export(from: store)
        try store.apply(SyncBatch(kind: .full, records: [BrandingStoreTests.record("+1234567890"), BrandingStoreTests.record("+1234567891")], cursor: "c2"))
        #expect(try snapshot.export(from: store) == 2)
        #expect(try CallDirectorySnapshot.validate(snapshot.previous) == 1)
        try snapshot.rollback()
        #expect(try String(contentsOf: snapshot.current, encoding: .utf8) == "61412345678\tAcme Bank\n")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("call-directory.pending").path))
    }

    @Test func validationRejectsWhatCallKitWould() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("snapshot-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func check(_ text: String) throws -> Int {
            let url = folder.appendingPathComponent("s")
            try text.write(to: url, atomically: true, encoding: .utf8)
            return try CallDirectorySnapshot.validate(url)
        }
        #expect(try check("") == 0)
        #expect(try check("1\ta\n2\tb\n") == 2)
        #expect(throws: CallDirectorySnapshot.InvalidSnapshot.self) { try check("2\ta\n1\tb\n") }
        #expect(throws: CallDirectorySnapshot.InvalidSnapshot.self) { try check("1\ta\n1\tb\n") }
        #expect(throws: CallDirectorySnapshot.InvalidSnapshot.self) { try check("x\ta\n") }
        #expect(throws: CallDirectorySnapshot.InvalidSnapshot.self) { try check("1\ta") }
    }

    @Test func theExtensionReadsEntriesInOrderAChunkAtATime() throws {
        let (store, folder) = try BrandingStoreTests.makeStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        let numbers = (0..<500).map { "+1" + String(2_000_000_000 + $0 * 7919) }
        try store.apply(SyncBatch(kind: .full, records: numbers.shuffled().map { BrandingStoreTests.record($0, "Brand é \($0.suffix(3))") }, cursor: "c1"))
        let snapshot = CallDirectorySnapshot(folder: folder)
        #expect(try snapshot.export(from: store) == 500)
        // Chunks smaller than a line: entries still come out whole, ascending.
        for chunkSize in [5, 64, 1 << 16] {
            var read: [(Int64, String)] = []
            try CallDirectorySnapshot.forEachEntry(in: snapshot.current, chunkSize: chunkSize) { read.append(($0, $1)) }
            #expect(read.map(\.0) == numbers.map { Int64($0.dropFirst())! }.sorted())
            #expect(read.allSatisfy { $0.1 == "Brand é \(String($0.0).suffix(3))" })
        }
        // A bad line stops the reading there, after the good ones.
        let damaged = folder.appendingPathComponent("damaged")
        try "1\ta\n3\tc\n2\tb\n".write(to: damaged, atomically: true, encoding: .utf8)
        var seen: [Int64] = []
        #expect(throws: CallDirectorySnapshot.InvalidSnapshot(line: 3, reason: "numbers must ascend")) {
            try CallDirectorySnapshot.forEachEntry(in: damaged, chunkSize: 3) { number, _ in seen.append(number) }
        }
        #expect(seen == [1, 3])
    }

    @Test func aFailedReloadPutsBackTheSnapshotIOSLoaded() throws {
        let (store, folder) = try BrandingStoreTests.makeStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        let snapshot = CallDirectorySnapshot(folder: folder)
        try store.apply(SyncBatch(kind: .full, records: [BrandingStoreTests.record("+61412345678")], cursor: "c1"))
        try snapshot.export(from: store)
        #expect(try snapshot.rollbackToLastReload() == false, "nothing was ever loaded: nothing to put back")
        try snapshot.didReload()
        // Two exports since the reload (one skipped by the rate limit, one whose reload fails).
        try store.apply(SyncBatch(kind: .full, records: [BrandingStoreTests.record("+1234567890")], cursor: "c2"))
        try snapshot.export(from: store)
        try store.apply(SyncBatch(kind: .full, records: [BrandingStoreTests.record("+1234567891"), BrandingStoreTests.record("+1234567892")], cursor: "c3"))
        try snapshot.export(from: store)
        #expect(try snapshot.rollbackToLastReload())
        #expect(try String(contentsOf: snapshot.current, encoding: .utf8) == "61412345678\tAcme Bank\n", "what iOS loaded, not the export before")
        #expect(try CallDirectorySnapshot.validate(snapshot.reloaded) == 1, "kept for the next failure")
        // The next export and reload go on from there.
        #expect(try snapshot.export(from: store) == 2)
        try snapshot.didReload()
        #expect(try CallDirectorySnapshot.validate(snapshot.reloaded) == 2)
    }

    @Test func reloadsOnlyForANewSnapshotAndNotTooOften() {
        var policy = CallDirectoryReloadPolicy(minimumInterval: 900)
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        #expect(policy.shouldReload(version: "v1", now: start))
        policy.didReload(version: "v1", at: start)
        #expect(!policy.shouldReload(version: "v1", now: start.addingTimeInterval(3600)), "unchanged snapshot")
        #expect(!policy.shouldReload(version: "v2", now: start.addingTimeInterval(60)), "too soon")
        #expect(policy.shouldReload(version: "v2", now: start.addingTimeInterval(900)))
    }
}
