import Foundation
import RuntimeSupport
import Testing

@testable import BrandingStore

/// The branding store on a real SQLite file: full and incremental syncs,
/// purges, clamping, refused batches and rollback.
@Suite struct BrandingStoreTests {
    /// A store in a fresh temporary folder.
    static func makeStore() throws -> (BrandingStore, URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("branding-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("branding.sqlite")
        return (try BrandingStore(path: path.path), folder)
    }

    static func record(_ e164: String, _ name: String = "Acme Bank", active: Bool = true, reason: String? = nil, logo: String? = nil) -> IncomingBrandingRecord {
        IncomingBrandingRecord(e164: e164, brandName: name, brandID: "brand_\(e164.dropFirst())", logoURL: logo, callReason: reason,
            updatedAt: "2024-01-01T00:00:00Z", isActive: active)
    }

    @Test func fullThenIncrementalSync() throws {
        let (store, folder) = try Self.makeStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try store.cursor() == nil, "a new install syncs in full")
        let full = try store.apply(SyncBatch(kind: .full, records: [Self.record("+61412345678"), Self.record("+1234567890", "Contoso Health")],
            cursor: "2024-01-02T08:15:00Z", config: #"{"branding_enabled":true}"#))
        #expect(full == SyncOutcome(stored: 2, deleted: 0, skipped: 0, clamped: 0))
        #expect(store.lookup(e164: "+61412345678")?.brandName == "Acme Bank")
        #expect(try store.cursor() == "2024-01-02T08:15:00Z")
        #expect(try store.config() == #"{"branding_enabled":true}"#)

        // The documents' incremental example: one record changed, one deactivated.
        let incremental = try store.apply(SyncBatch(kind: .incremental, records: [
            Self.record("+61412345678", logo: "https://assets.securenode.io/logos/acme-bank-v2.png"),
            Self.record("+1234567890", active: false),
        ], cursor: "2024-01-03T12:00:00Z"))
        #expect(incremental.stored == 1 && incremental.deleted == 1)
        #expect(store.lookup(e164: "+61412345678")?.logoURL == "https://assets.securenode.io/logos/acme-bank-v2.png")
        #expect(store.lookup(e164: "+1234567890") == nil)
        #expect(try store.count() == 1)
        #expect(try store.cursor() == "2024-01-03T12:00:00Z")

        // A later full sync replaces everything.
        try store.apply(SyncBatch(kind: .full, records: [Self.record("+447700900123")], cursor: "c3"))
        #expect(try store.allRecords().map(\.e164) == ["+447700900123"])
    }

    @Test func valuesAreClampedAndInvalidRecordsSkipped() throws {
        let (store, folder) = try Self.makeStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        let outcome = try store.apply(SyncBatch(kind: .full, records: [
            Self.record("+61412345678", String(repeating: "N", count: 150), reason: String(repeating: "r", count: 300),
                logo: "https://assets.securenode.io/" + String(repeating: "x", count: 3000)),
            Self.record("0412345678"),  // not E.164
            Self.record("+0412345678"),  // leading zero
            Self.record("+1234567890123456"),  // 16 digits
            Self.record("+61400000000", "   "),  // empty brand name
        ], cursor: "c1"))
        #expect((outcome.stored, outcome.deleted, outcome.skipped, outcome.clamped) == (1, 0, 4, 1))
        // Each skip is reported by its position, with the field at fault and no number in it.
        #expect(outcome.skippedRecords.map(\.index) == [1, 2, 3, 4])
        #expect(outcome.skippedRecords.map(\.reason) == [BrandingStore.notANumber, BrandingStore.notANumber, BrandingStore.notANumber, "brand_name: empty"])
        let stored = try #require(store.lookup(e164: "+61412345678"))
        #expect(stored.brandName.count == 100)
        #expect(stored.callReason?.count == 200)
        #expect(stored.logoURL == nil, "a cut URL points nowhere, so an over-long one is dropped")
    }

    @Test func refusedBatchesChangeNothing() throws {
        let (store, folder) = try Self.makeStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        try store.apply(SyncBatch(kind: .full, records: [Self.record("+61412345678")], cursor: "c1"))
        #expect(throws: SyncRejection.duplicateNumber("+1234567890")) {
            try store.apply(SyncBatch(kind: .full, records: [Self.record("+1234567890"), Self.record("+1234567890", "Other")], cursor: "c2"))
        }
        #expect(throws: SyncRejection.missingCursor) {
            try store.apply(SyncBatch(kind: .full, records: [], cursor: ""))
        }
        #expect(try store.allRecords().map(\.e164) == ["+61412345678"])
        #expect(try store.cursor() == "c1")
        // The message masks the number.
        #expect(SyncRejection.duplicateNumber("+1234567890").description.contains("+******7890"))
    }

    @Test func aFailureMidSyncLeavesThePreviousDatasetAndCursor() throws {
        let (store, folder) = try Self.makeStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        let old = (0..<50).map { Self.record("+6141234\(String(format: "%04d", $0))") }
        try store.apply(SyncBatch(kind: .full, records: old, cursor: "old"))
        let new = (0..<80).map { Self.record("+4477009\(String(format: "%05d", $0))", "New") }
        #expect(throws: BrandingStore.InjectedFailure.self) {
            try store.apply(SyncBatch(kind: .full, records: new, cursor: "new"), failAfterWrites: 40)
        }
        #expect(try store.allRecords().map(\.e164) == old.map(\.e164).sorted { BrandingRecord.number(e164: $0)! < BrandingRecord.number(e164: $1)! })
        #expect(try store.cursor() == "old")
    }

    @Test func theDatasetSurvivesReopening() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("branding-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("branding.sqlite").path
        do {
            let store = try BrandingStore(path: path)
            try store.apply(SyncBatch(kind: .full, records: [Self.record("+61412345678")], cursor: "c1"))
        }
        let reopened = try BrandingStore(path: path)
        #expect(reopened.lookup(e164: "+61412345678")?.brandID == "brand_61412345678")
        #expect(try reopened.cursor() == "c1")
    }

    /// 1,000 random sync rounds against an oracle: after each, the store
    /// holds exactly the oracle's active set.
    @Test func purgePropertyAgainstAnOracle() throws {
        var (store, folder) = try Self.makeStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        var generator = SplitMix64(seed: 42)
        var oracle: [String: String] = [:]  // e164 -> brand name
        for round in 0..<1_000 {
            let full = round == 0 || generator.next() % 20 == 0
            var numbers = Set<Int>()
            let size = Int(generator.next() % 12)
            while numbers.count < size { numbers.insert(Int(generator.next() % 60)) }
            let records = numbers.sorted().map { index -> IncomingBrandingRecord in
                let active = full || generator.next() % 3 != 0
                return Self.record("+6140000\(String(format: "%04d", index))", "Brand \(round)-\(index)", active: active)
            }
            try store.apply(SyncBatch(kind: full ? .full : .incremental, records: records, cursor: "c\(round)"))
            if full { oracle = [:] }
            for record in records {
                if record.isActive { oracle[record.e164] = record.brandName } else if !full { oracle[record.e164] = nil }
            }
            if round % 100 == 99 {
                store = try BrandingStore(path: folder.appendingPathComponent("branding.sqlite").path)
            }
            let stored = Dictionary(uniqueKeysWithValues: try store.allRecords().map { ($0.e164, $0.brandName) })
            let probe = (0..<60).map { "+6140000\(String(format: "%04d", $0))" }
            let looked = Dictionary(uniqueKeysWithValues: zip(probe, store.lookup(e164s: probe)).compactMap { pair in pair.1.map { (pair.0, $0.brandName) } })
            guard stored == oracle, looked == oracle else {
                Issue.record("round \(round): the store (or its lookups) differs from the oracle")
                return
            }
        }
        #expect(try store.cursor() == "c999")
    }
}

/// The memory-mapped lookup files: a base per full sync, a delta per
/// incremental one, compaction, and rebuilding whenever the files do not
/// match the database (a crash between commit and swap, a torn file).
@Suite struct LookupFileTests {
    static func numbers(in range: Range<Int>) -> [String] { range.map { "+1555\(String(format: "%07d", $0))" } }

    @Test func lookupsFollowEverySyncAndSurviveReopening() throws {
        let (store, folder) = try BrandingStoreTests.makeStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("branding.sqlite").path
        try store.apply(.full, records: Self.numbers(in: 0..<3_000).map { BrandingStoreTests.record($0, "Full") }, cursor: "c1")
        #expect(store.syncGeneration == 1)
        #expect(FileManager.default.fileExists(atPath: path + ".lookup"))
        // 10 changes: a delta over the base.
        try store.apply(.incremental, records: Self.numbers(in: 0..<10).map { BrandingStoreTests.record($0, "Changed", active: $0 != "+15550000000") }, cursor: "c2")
        #expect(FileManager.default.fileExists(atPath: path + ".lookup-delta"))
        #expect(store.lookup(e164: "+15550000000") == nil)
        #expect(store.lookup(e164: "+15550000001")?.brandName == "Changed")
        #expect(store.lookup(e164: "+15550000011")?.brandName == "Full")
        // 2,500 changes: past the delta's limit, so the base is rewritten.
        try store.apply(.incremental, records: Self.numbers(in: 500..<3_000).map { BrandingStoreTests.record($0, "Again") }, cursor: "c3")
        #expect(!FileManager.default.fileExists(atPath: path + ".lookup-delta"))
        #expect(store.lookup(e164: "+15550000000") == nil)
        #expect(store.lookup(e164: "+15550000001")?.brandName == "Changed")
        #expect(store.lookup(e164: "+15550002999")?.brandName == "Again")
        try store.apply(.incremental, records: [BrandingStoreTests.record("+15559999999", "New")], cursor: "c4")

        func expectSameLookups(_ reopened: BrandingStore, _ why: Comment) throws {
            let probe = Self.numbers(in: 0..<3_000) + ["+15559999999"]
            #expect(reopened.lookup(e164s: probe) == store.lookup(e164s: probe), why)
            #expect(reopened.syncGeneration == 4, why)
        }
        try expectSameLookups(try BrandingStore(path: path), "reopened as left")
        unlink(path + ".lookup-delta")
        try expectSameLookups(try BrandingStore(path: path), "delta missing: rebuilt from the database")
        let torn = try Data(contentsOf: URL(fileURLWithPath: path + ".lookup")).prefix(10_000)
        try torn.write(to: URL(fileURLWithPath: path + ".lookup"))
        try expectSameLookups(try BrandingStore(path: path), "base torn: rebuilt")
        try Data("garbage".utf8).write(to: URL(fileURLWithPath: path + ".lookup"))
        try expectSameLookups(try BrandingStore(path: path), "base garbage: rebuilt")
        // A header that claims more entries than any file holds: refused, no overflow trap.
        var header = Data("SNLOOKUP".utf8)
        for word: UInt32 in [1, 0] { withUnsafeBytes(of: word) { header.append(contentsOf: $0) } }
        for word: UInt64 in [4, 0, UInt64.max / 4, 48] { withUnsafeBytes(of: word) { header.append(contentsOf: $0) } }
        try (header + Data(count: 64)).write(to: URL(fileURLWithPath: path + ".lookup"))
        try expectSameLookups(try BrandingStore(path: path), "base with an absurd count: rebuilt")
    }

    @Test func aCrashBetweenCommitAndSwapIsRepairedOnOpen() throws {
        let (store, folder) = try BrandingStoreTests.makeStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("branding.sqlite").path
        try store.apply(.full, records: Self.numbers(in: 0..<100).map { BrandingStoreTests.record($0, "Old") }, cursor: "c1")
        let oldBase = try Data(contentsOf: URL(fileURLWithPath: path + ".lookup"))
        try store.apply(.full, records: Self.numbers(in: 50..<150).map { BrandingStoreTests.record($0, "New") }, cursor: "c2")
        // As if the process died after the commit, before the new file was renamed in.
        try oldBase.write(to: URL(fileURLWithPath: path + ".lookup"))
        let reopened = try BrandingStore(path: path)
        #expect(reopened.lookup(e164: "+15550000000") == nil)
        #expect(reopened.lookup(e164: "+15550000149")?.brandName == "New")
        #expect(try reopened.cursor() == "c2")
    }

    @Test func aDuplicateInAFullSyncIsRefusedBeforeTheCommit() throws {
        let (store, folder) = try BrandingStoreTests.makeStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        try store.apply(.full, records: [BrandingStoreTests.record("+15550000001", "Old")], cursor: "c1")
        #expect(throws: SyncRejection.duplicateNumber("+15550000002")) {
            try store.apply(.full, records: Self.numbers(in: 0..<5).map { BrandingStoreTests.record($0) } + [BrandingStoreTests.record("+15550000002")], cursor: "c2")
        }
        #expect(store.lookup(e164: "+15550000001")?.brandName == "Old")
        #expect(try store.allRecords().map(\.e164) == ["+15550000001"])
        #expect(try store.cursor() == "c1")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).allSatisfy { !$0.contains(".pending") }, "no half-written file left")
    }
}

/// Failures after a commit, lookup answers, and values whose characters
/// are many bytes.
@Suite struct StoreEdgeTests {
    @Test func aFailedFileSwapAfterTheCommitIsRepairedNotReported() throws {
        let (store, folder) = try BrandingStoreTests.makeStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("branding.sqlite").path
        try store.apply(.full, records: LookupFileTests.numbers(in: 0..<100).map { BrandingStoreTests.record($0, "Old") }, cursor: "c1")
        // A directory where the delta goes: the rename after the commit fails.
        try FileManager.default.createDirectory(atPath: path + ".lookup-delta", withIntermediateDirectories: false)
        let outcome = try store.apply(.incremental, records: [BrandingStoreTests.record("+15550000001", "New")], cursor: "c2")
        #expect(outcome.stored == 1, "the sync committed and says so")
        #expect(store.lookup(e164: "+15550000001")?.brandName == "New", "lookups repaired from the database")
        #expect(store.syncGeneration == 2)
        try store.apply(.incremental, records: [BrandingStoreTests.record("+15550000002", "Newer")], cursor: "c3")
        #expect(store.lookup(e164: "+15550000002")?.brandName == "Newer")
        #expect(store.lookup(e164: "+15550000001")?.brandName == "New")
        try FileManager.default.removeItem(atPath: path + ".lookup-delta")
        let reopened = try BrandingStore(path: path)
        #expect(reopened.lookup(e164s: LookupFileTests.numbers(in: 0..<100)) == store.lookup(e164s: LookupFileTests.numbers(in: 0..<100)))
        #expect(try reopened.cursor() == "c3")
    }

    @Test func lookupAnswersKeepTheCursorAndConfig() throws {
        let (store, folder) = try BrandingStoreTests.makeStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        let answer = BrandingStoreTests.record("+447700900123", "Northwind")
        #expect(try store.storeLookupAnswer(answer) == false, "nothing to add to before the first sync")
        try store.apply(.full, records: [BrandingStoreTests.record("+15550000001")], cursor: "c1", config: #"{"branding_enabled":false}"#)
        #expect(try store.storeLookupAnswer(answer))
        #expect(store.lookup(e164: "+447700900123")?.brandName == "Northwind")
        #expect(try store.cursor() == "c1")
        #expect(try store.config() == #"{"branding_enabled":false}"#)
        let reopened = try BrandingStore(path: folder.appendingPathComponent("branding.sqlite").path)
        #expect(reopened.lookup(e164: "+447700900123")?.brandName == "Northwind")
        #expect(reopened.syncGeneration == store.syncGeneration)
    }

    @Test func manyBytesPerCharacterAreCappedToo() throws {
        let (store, folder) = try BrandingStoreTests.makeStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        // 100 characters of one letter and 700 combining marks each: 140 KB.
        let heavy = String(repeating: "e" + String(repeating: "\u{301}", count: 700), count: 100)
        let outcome = try store.apply(.full, records: [BrandingStoreTests.record("+15550000001", heavy, reason: heavy)], cursor: "c1")
        #expect(outcome.stored == 1 && outcome.clamped == 1)
        let record = try #require(store.lookup(e164: "+15550000001"))
        #expect(record.brandName.utf8.count <= 400 && !record.brandName.isEmpty)
        #expect((record.callReason?.utf8.count ?? 0) <= 800)
        #expect(try store.allRecords().first?.brandName == record.brandName)
    }
}

/// The logo URL check's fast path reads plain URLs without Foundation's
/// parser; wherever it answers, it answers as the parser does.
@Suite struct WebURLCheckTests {
    static let urls = [
        "https://assets.securenode.io/logos/1.png", "http://assets.securenode.io/a?b=c#d", "HTTPS://Assets.SecureNode.io/x",
        "https://user:pass@host.example:8443/path", "https://host:99999", "https://", "http://", "https:///path", "https://:80/x",
        "https://@host/x", "ftp://host/x", "mailto:someone@example.com", "/relative/logo.png", "logo.png", "", "https://host name/x",
        "https://[::1]:8080/x", "https://host/%7Euser", "https://host/ünïcode", "https://host:8a/x", "javascript:alert(1)",
        "https://a.b-c.d_e~f/(x)*'!$;,", "http://host?x", "http://host#x", "https://host@", "https://:", "HtTp://h",
    ]

    @Test func theFastPathAgreesWithTheParserWhereverItAnswers() {
        func parser(_ text: String) -> Bool {
            guard !text.isEmpty, !text.contains(" "), let url = URL(string: text), let scheme = url.scheme?.lowercased(),
                scheme == "https" || scheme == "http", let host = url.host, !host.isEmpty
            else { return false }
            return true
        }
        var answered = 0
        for url in Self.urls {
            #expect(BrandingStore.isWebURL(url) == parser(url), "\(url)")
            if let fast = BrandingStore.plainWebURL(url) {
                answered += 1
                #expect(fast == parser(url), "fast path: \(url)")
            }
        }
        #expect(answered >= 15, "the plain URLs take the fast path")
        #expect(BrandingStore.plainWebURL("https://assets.securenode.io/logos/1.png") == true)
    }
}
