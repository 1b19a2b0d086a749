import CallDirectoryTesting
import Foundation
import RuntimeSupport
import SecureNodeCallDirectory
import Testing

@testable import BrandingStore

/// The host's exports and reloads with the extension's loads on a phone
/// that fails the test on any CallKit rule: only the changes after a
/// confirmed load, the complete list after anything else, and iOS holding
/// exactly the snapshot it was last given, whatever the order of events.
@Suite struct CallDirectoryReloadTests {
    /// A store and a snapshot folder beside it.
    func makeHost() throws -> (BrandingStore, CallDirectorySnapshot, URL) {
        let (store, folder) = try BrandingStoreTests.makeStore()
        return (store, CallDirectorySnapshot(folder: folder.appendingPathComponent("group", isDirectory: true)), folder)
    }

    /// What the phone should hold after loading `snapshot`'s current file.
    func entries(of snapshot: CallDirectorySnapshot) throws -> [CallDirectoryPhoneNumber: String] {
        guard FileManager.default.fileExists(atPath: snapshot.current.path) else { return [:] }
        return try SimulatedCallDirectory.entries(ofSnapshot: snapshot.current)
    }

    @Test func anExportAfterAConfirmedLoadPreparesOnlyTheChanges() throws {
        let (store, snapshot, folder) = try makeHost()
        defer { try? FileManager.default.removeItem(at: folder) }
        let phone = SimulatedCallDirectory()
        try store.apply(SyncBatch(kind: .full, records: [
            BrandingStoreTests.record("+61412345678", "Acme Bank"), BrandingStoreTests.record("+1234567890", "Contoso"),
            BrandingStoreTests.record("+447700900123", "Northwind"),
        ], cursor: "c1"))
        try snapshot.export(from: store)
        #expect(!FileManager.default.fileExists(atPath: snapshot.changes.path), "nothing confirmed yet: no changes")
        var ticket = snapshot.reloadTicket()
        #expect(phone.load(from: snapshot.folder).mode == .complete)
        #expect(try snapshot.didReload(ticket))
        #expect(phone.entries == [61_412_345_678: "Acme Bank", 1_234_567_890: "Contoso", 447_700_900_123: "Northwind"])

        // A sync: one number gone, one moved to another brand, one new.
        try store.apply(SyncBatch(kind: .incremental, records: [
            BrandingStoreTests.record("+1234567890", active: false), BrandingStoreTests.record("+447700900123", "Acme Bank"),
            BrandingStoreTests.record("+33612345678", "Fabrikam"),
        ], cursor: "c2"))
        try snapshot.export(from: store)
        #expect(FileManager.default.fileExists(atPath: snapshot.changes.path))
        ticket = snapshot.reloadTicket()
        let report = phone.load(from: snapshot.folder)
        #expect(report.mode == .incremental && report.removed == 2 && report.added == 2)
        #expect(try snapshot.didReload(ticket))
        #expect(phone.entries == [61_412_345_678: "Acme Bank", 447_700_900_123: "Acme Bank", 33_612_345_678: "Fabrikam"])
        #expect(phone.load(from: snapshot.folder) == CallDirectoryLoadReport(
            mode: .incremental, removed: 0, added: 0, fingerprint: try CallDirectorySnapshotFormat.validate(snapshot.current).fingerprint, error: nil),
            "confirmed: a request with nothing new hands nothing")
    }

    @Test func aRefusedReloadPutsBackWhatIOSLoadedAndTheNextLoadIsComplete() throws {
        let (store, snapshot, folder) = try makeHost()
        defer { try? FileManager.default.removeItem(at: folder) }
        let phone = SimulatedCallDirectory()
        try store.apply(SyncBatch(kind: .full, records: [BrandingStoreTests.record("+61412345678", "Acme Bank")], cursor: "c1"))
        try snapshot.export(from: store)
        var ticket = snapshot.reloadTicket()
        phone.load(from: snapshot.folder)
        #expect(try snapshot.didReload(ticket))
        let loaded = try Data(contentsOf: snapshot.current)

        try store.apply(SyncBatch(kind: .incremental, records: [BrandingStoreTests.record("+1234567890", "Contoso")], cursor: "c2"))
        try snapshot.export(from: store)
        ticket = snapshot.reloadTicket()
        #expect(phone.load(from: snapshot.folder, ending: .failed).mode == .incremental)
        #expect(try snapshot.reloadFailed(), "the host's reload threw: the loaded snapshot is put back")
        #expect(try Data(contentsOf: snapshot.current) == loaded)
        #expect(CallDirectoryLoadState.read(in: CallDirectoryFolder(snapshot.folder)) == .unknown)
        #expect(phone.entries == [61_412_345_678: "Acme Bank"], "iOS discarded the request")

        // The next reload exports again; what iOS holds is unknown, so no changes and a complete list.
        try snapshot.export(from: store)
        #expect(!FileManager.default.fileExists(atPath: snapshot.changes.path))
        ticket = snapshot.reloadTicket()
        #expect(phone.load(from: snapshot.folder).mode == .reset)
        #expect(try snapshot.didReload(ticket))
        #expect(phone.entries == [61_412_345_678: "Acme Bank", 1_234_567_890: "Contoso"])
    }

    @Test func aReloadConfirmsNothingWithoutATicketOrForASnapshotThatMovedOn() throws {
        let (store, snapshot, folder) = try makeHost()
        defer { try? FileManager.default.removeItem(at: folder) }
        let phone = SimulatedCallDirectory()
        try store.apply(SyncBatch(kind: .full, records: [BrandingStoreTests.record("+61412345678", "Acme Bank")], cursor: "c1"))
        try snapshot.export(from: store)
        phone.load(from: snapshot.folder)
        #expect(try snapshot.didReload() == false, "no ticket: kept for rollback, but what iOS holds is not confirmed")
        #expect(try CallDirectorySnapshot.validate(snapshot.reloaded) == 1)

        // An export while iOS loads: the load handed the snapshot before it.
        let ticket = snapshot.reloadTicket()
        phone.load(from: snapshot.folder)
        try store.apply(SyncBatch(kind: .incremental, records: [BrandingStoreTests.record("+1234567890", "Contoso")], cursor: "c2"))
        try snapshot.export(from: store)
        #expect(try snapshot.didReload(ticket) == false)
        #expect(phone.load(from: snapshot.folder).mode == .reset)
        #expect(phone.entries == [61_412_345_678: "Acme Bank", 1_234_567_890: "Contoso"])
    }

    @Test func exportsLoadsAndRefusalsInAnyOrderLeaveIOSHoldingWhatItWasLastGiven() throws {
        let (store, snapshot, folder) = try makeHost()
        defer { try? FileManager.default.removeItem(at: folder) }
        let phone = SimulatedCallDirectory()
        var random = SplitMix64(seed: 42)
        let numbers = (0..<60).map { "+1555000" + String(1000 + $0 * 37) }
        let brands = ["Acme Bank", "Contoso", "Northwind", "Fabrikam"]
        /// `count` records of distinct numbers (a sync names a number once).
        func records(_ count: Int) -> [IncomingBrandingRecord] {
            numbers.shuffled(using: &random).prefix(count).map { number in
                BrandingStoreTests.record(number, brands.randomElement(using: &random)!, active: Int.random(in: 0..<5, using: &random) > 0)
            }
        }
        try store.apply(SyncBatch(kind: .full, records: records(20), cursor: "c0"))
        try snapshot.export(from: store)
        var modes: [CallDirectoryLoadMode: Int] = [:]

        /// One request; iOS must then hold the current snapshot if it kept the request, what it held before if not.
        func load(_ ending: SimulatedCallDirectory.Ending, step: Int) throws {
            let before = phone.entries
            let given = try entries(of: snapshot)
            let report = phone.load(from: snapshot.folder, ending: ending)
            #expect(report.error == nil, "step \(step)")
            modes[report.mode, default: 0] += 1
            #expect(phone.entries == (ending == .accepted ? given : before), "step \(step): \(report.mode), \(ending)")
        }

        for step in 0..<400 {
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<25:  // a sync
                try store.apply(SyncBatch(kind: .incremental, records: records(Int.random(in: 1...6, using: &random)), cursor: "c\(step)"))
            case 25..<40:  // an export (sometimes branding turned off)
                if Int.random(in: 0..<8, using: &random) == 0 { try snapshot.exportEmpty() } else { try snapshot.export(from: store) }
            case 40..<70:  // the host's reload, which iOS accepts
                let ticket = snapshot.reloadTicket()
                try load(.accepted, step: step)
                try snapshot.didReload(ticket)
            case 70..<80:  // the host's reload, which iOS refuses
                _ = snapshot.reloadTicket()
                try load(Bool.random(using: &random) ? .failed : .expired, step: step)
                try snapshot.reloadFailed()
            case 80..<85:  // iOS kept the load, but the host's reload threw all the same
                _ = snapshot.reloadTicket()
                try load(.accepted, step: step)
                try snapshot.reloadFailed()
            case 85..<95:  // iOS starts a request on its own
                try load([.accepted, .accepted, .failed, .expired].randomElement(using: &random)!, step: step)
            default:  // the host stops between the load and its confirmation
                _ = snapshot.reloadTicket()
                try load(.accepted, step: step)
            }
        }
        #expect(modes[.incremental, default: 0] > 20 && modes[.reset, default: 0] > 20, "both kinds of load were exercised: \(modes)")
    }
}
