import ClientRuntime
import Foundation
import Testing

@testable import MobileTracker

/// The queue's journal: what `track` writes before it returns, and what a
/// kill can do to it.
@Suite struct JournalTests {
    /// Runs `body` with a fresh folder, removed afterwards.
    private func inTemporaryFolder(_ body: (URL) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("journal-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try body(folder)
    }

    private func payload(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func recordsReadBackInOrderAndSequencesContinueAfterAReopen() throws {
        try inTemporaryFolder { folder in
            let path = folder.appendingPathComponent("queue.journal").path
            do {
                let journal = try EventJournal(path: path, importedThrough: 41)
                try journal.append(sessionID: "5f0c6b1e-8d2a-4c1b-9a57-0d3e2f4a6b7c", payload: payload(#"{"a":1}"#))
                try journal.append(sessionID: nil, payload: payload(#"{"b":"ü"}"#))
                try journal.append(sessionID: "", payload: [])
            }
            let journal = try EventJournal(path: path, importedThrough: 0)
            try journal.append(sessionID: nil, payload: payload("after"))
            let records = EventJournal.read(path: path).records
            #expect(records.map(\.sequence) == [42, 43, 44, 45])
            #expect(records.map(\.sessionID) == ["5f0c6b1e-8d2a-4c1b-9a57-0d3e2f4a6b7c", nil, "", nil])
            #expect(records.map { String(decoding: $0.payload, as: UTF8.self) } == [#"{"a":1}"#, #"{"b":"ü"}"#, "", "after"])
        }
    }

    /// A kill in the middle of a write leaves part of a record: it is cut
    /// off at the next open, and what is appended after it reads back.
    @Test(arguments: [1, 5, 9, 20])
    func aTornTailIsCutOffBeforeTheNextAppend(cut: Int) throws {
        try inTemporaryFolder { folder in
            let path = folder.appendingPathComponent("queue.journal").path
            do {
                let journal = try EventJournal(path: path, importedThrough: 0)
                for index in 1...3 { try journal.append(sessionID: nil, payload: payload("event \(index) with some length")) }
            }
            let whole = try Data(contentsOf: URL(fileURLWithPath: path))
            try whole.dropLast(cut).write(to: URL(fileURLWithPath: path))
            let torn = EventJournal.read(path: path)
            #expect(torn.records.count == 2 && torn.discardedBytes > 0)

            let journal = try EventJournal(path: path, importedThrough: 0)
            try journal.append(sessionID: nil, payload: payload("event 4"))
            let records = EventJournal.read(path: path)
            #expect(records.discardedBytes == 0)
            #expect(records.records.map { String(decoding: $0.payload, as: UTF8.self) } == [
                "event 1 with some length", "event 2 with some length", "event 4",
            ])
            // The torn record was never whole, so never imported: its number is free.
            #expect(records.records.map(\.sequence) == [1, 2, 3])
        }
    }

    @Test func aDamagedRecordEndsTheReadableJournal() throws {
        try inTemporaryFolder { folder in
            let path = folder.appendingPathComponent("queue.journal").path
            do {
                let journal = try EventJournal(path: path, importedThrough: 0)
                for index in 1...3 { try journal.append(sessionID: nil, payload: payload("event \(index)")) }
            }
            var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            let second = EventJournal.magic.count + EventJournal.encode(.init(sequence: 1, sessionID: nil, payload: payload("event 1"))).count
            bytes[second + 20] ^= 0x40
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let contents = EventJournal.read(path: path)
            #expect(contents.records.map(\.sequence) == [1])
            #expect(contents.validLength == second)

            try Data("not a journal".utf8).write(to: URL(fileURLWithPath: path))
            #expect(EventJournal.read(path: path).records.isEmpty)
        }
    }

    /// A kill after the import's transaction committed and before its file
    /// was deleted: the next launch reads the file again and imports none of
    /// it twice.
    @Test func anInterruptedImportIsNotImportedTwice() throws {
        try inTemporaryFolder { folder in
            let path = folder.appendingPathComponent("queue.sqlite").path
            let journalPath = folder.appendingPathComponent("queue.journal").path
            let limits = EventQueue.Limits(maximumCount: 100, maximumBytes: 1 << 20)
            do {
                let queue = try EventQueue(path: path, limits: limits)
                for index in 0..<3 { try queue.append(.event(name: "E\(index)", data: nil), sessionID: "s") }
                let journalled = try Data(contentsOf: URL(fileURLWithPath: journalPath))
                try queue.importJournal()
                #expect(!FileManager.default.fileExists(atPath: journalPath + ".importing"))
                try journalled.write(to: URL(fileURLWithPath: journalPath + ".importing"))
            }
            let queue = try EventQueue(path: path, limits: limits)
            try queue.append(.event(name: "E3", data: nil), sessionID: "s")
            #expect(try queue.counts().pending == 4)
            let names = try queue.oldest(limit: 10).map { entry -> String in
                guard case .event(let name, _) = entry.item else { return "?" }
                return name
            }
            #expect(names == ["E0", "E1", "E2", "E3"])
            #expect(!FileManager.default.fileExists(atPath: journalPath + ".importing"))
        }
    }

    /// Rows still in the journal count as queued, and the bound applies
    /// when they reach SQLite.
    @Test func countsAndBoundsSeeJournalledRows() throws {
        try inTemporaryFolder { folder in
            let queue = try EventQueue(path: folder.appendingPathComponent("queue.sqlite").path, limits: .init(maximumCount: 3, maximumBytes: 1 << 20))
            for index in 0..<5 { try queue.append(.event(name: "E\(index)", data: ["n": .int(index)]), sessionID: nil) }
            let counts = try queue.counts()
            #expect(counts.pending == 3 && counts.droppedOverflow == 2)
            try queue.assignSession("s")
            let entries = try queue.oldest(limit: 10)
            #expect(entries.map(\.sessionID) == ["s", "s", "s"])
            #expect(entries.map { entry -> String in
                guard case .event(let name, _) = entry.item else { return "?" }
                return name
            } == ["E2", "E3", "E4"])
        }
    }

    /// Delivery reads rows ahead; what it is handed next is still what the
    /// database holds: delivered rows leave it, an overflow drop and a
    /// session filled in are seen at once, new rows come after the old.
    @Test func readAheadRowsFollowTheDatabase() throws {
        try inTemporaryFolder { folder in
            let queue = try EventQueue(path: folder.appendingPathComponent("queue.sqlite").path, limits: .init(maximumCount: 100, maximumBytes: 1 << 20))
            func name(_ entry: EventQueue.Entry?) -> String {
                guard let entry, case .event(let name, _) = entry.item else { return "none" }
                return name
            }
            for index in 0..<90 { try queue.append(.event(name: "E\(index)", data: nil), sessionID: nil) }
            #expect(name(try queue.oldest(limit: 1).first) == "E0")  // reads ahead
            try queue.markDelivered(try #require(try queue.oldest(limit: 1).first))
            #expect(name(try queue.oldest(limit: 1).first) == "E1")
            #expect(try queue.oldest(limit: 1).first?.sessionID == nil)
            try queue.assignSession("s")
            #expect(try queue.oldest(limit: 1).first?.sessionID == "s")
            // 20 more: past the bound of 100, the oldest ten are dropped.
            for index in 90..<110 { try queue.append(.event(name: "E\(index)", data: nil), sessionID: "s") }
            try queue.importJournal()
            #expect(try queue.counts().droppedOverflow == 9)
            #expect(name(try queue.oldest(limit: 1).first) == "E10")
            // Delivered one at a time, every row comes once, in order.
            var delivered: [String] = []
            while let entry = try queue.oldest(limit: 1).first {
                delivered.append(name(entry))
                try queue.markDelivered(entry)
            }
            #expect(delivered == (10..<110).map { "E\($0)" })
            #expect(try queue.counts().pending == 0)
        }
    }

    /// Another instance over the same files (a relaunch while the old one
    /// closes) delivering rows: once a row turns out gone, the rows read
    /// ahead are read again, so no more of them go out twice.
    @Test func rowsAnotherInstanceDeliveredAreNotReadAheadAgain() throws {
        try inTemporaryFolder { folder in
            let path = folder.appendingPathComponent("queue.sqlite").path
            let first = try EventQueue(path: path, limits: .init(maximumCount: 100, maximumBytes: 1 << 20))
            for index in 0..<10 { try first.append(.event(name: "E\(index)", data: nil), sessionID: "s") }
            let head = try #require(try first.oldest(limit: 1).first)  // reads E0...E9 ahead
            let second = try EventQueue(path: path, limits: .init(maximumCount: 100, maximumBytes: 1 << 20))
            for _ in 0..<5 { try second.markDelivered(try #require(try second.oldest(limit: 1).first)) }
            try first.markDelivered(head)  // E0: already gone
            let next = try #require(try first.oldest(limit: 1).first)
            guard case .event(let name, _) = next.item else { throw CancellationError() }
            #expect(name == "E5")
        }
    }
}
