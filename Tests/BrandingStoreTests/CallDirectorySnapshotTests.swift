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
