import CallDirectoryTesting
import Foundation
import SecureNodeCallDirectory
import Testing

/// The extension's request, against a phone that fails the test on any
/// CallKit rule: the complete list, the changes only, a reset when what
/// iOS holds is not known, and nothing at all from a file that fails its check.
@Suite struct CallDirectoryLoaderTests {
    /// 500 numbers, given out of order.
    static let base: [CallDirectoryPhoneNumber: String] = Dictionary(
        uniqueKeysWithValues: (0..<500).shuffled().map { (CallDirectoryPhoneNumber(12_000_000_000 + $0 * 7919), "Brand \($0 % 17)") })

    /// `base` with additions (below, between and above its numbers),
    /// removals, changed labels and a number that moved to another brand.
    static let changed: [CallDirectoryPhoneNumber: String] = {
        var entries = base
        entries[1] = "First"
        entries[12_000_000_001] = "Between"
        entries[99_999_999_999_999] = "Last"
        for index in [0, 3, 250, 499] { entries[CallDirectoryPhoneNumber(12_000_000_000 + index * 7919)] = nil }
        entries[12_000_000_000 + 10 * 7919] = "Brand 10, renamed"
        entries[12_000_000_000 + 11 * 7919] = "Brand 3"
        return entries
    }()

    /// A phone that loaded `base` completely, confirmed by the host.
    func loadedPhone(_ folder: SharedFolder) throws -> SimulatedCallDirectory {
        try folder.writeSnapshot(Self.base)
        let phone = SimulatedCallDirectory()
        let ticket = folder.lastAttemptID
        #expect(phone.load(from: folder.url).mode == .complete)
        #expect(try folder.confirm(since: ticket))
        #expect(phone.entries == Self.base)
        return phone
    }

    @Test func aCompleteLoadHandsTheWholeSnapshotInAscendingOrder() throws {
        let folder = try SharedFolder()
        defer { folder.remove() }
        let fingerprint = try folder.writeSnapshot(Self.base)
        let phone = SimulatedCallDirectory()
        let report = phone.load(from: folder.url)
        #expect(report == CallDirectoryLoadReport(mode: .complete, removed: 0, added: 500, fingerprint: fingerprint, error: nil))
        #expect(phone.entries == Self.base)
        let attempt = try #require(CallDirectoryAttempt.read(in: folder.files))
        #expect(attempt.mode == .complete && attempt.outcome == .completed && attempt.fingerprint == fingerprint)
    }

    @Test func aRequestThatIsNotIncrementalLoadsTheCompleteListWhateverIsKnown() throws {
        let folder = try SharedFolder()
        defer { folder.remove() }
        let phone = try loadedPhone(folder)
        try folder.writeChanges(from: Self.base, to: Self.changed)
        // iOS asks for everything (the user turned the extension off and on): no changes, no removals.
        let report = phone.load(from: folder.url, incremental: false)
        #expect(report.mode == .complete && report.added == Self.changed.count && report.removed == 0)
        #expect(phone.entries == Self.changed)
    }

    @Test func anIncrementalLoadHandsOnlyTheChanges() throws {
        let folder = try SharedFolder()
        defer { folder.remove() }
        let phone = try loadedPhone(folder)
        let counts = try folder.writeChanges(from: Self.base, to: Self.changed)
        // 4 removed + 2 relabelled; 3 added + 2 relabelled.
        #expect(counts == CallDirectoryChangesWriter.Counts(removals: 6, additions: 5))
        var ticket = folder.lastAttemptID
        let report = phone.load(from: folder.url)
        #expect(report.mode == .incremental && report.removed == 6 && report.added == 5)
        #expect(phone.entries == Self.changed, "a changed label and a number that moved to another brand: removed, then added")
        #expect(try folder.confirm(since: ticket))

        // And on from there: the next changes start from what iOS now holds.
        var next = Self.changed
        next[1] = nil
        next[2] = "Second"
        try folder.writeChanges(from: Self.changed, to: next)
        ticket = folder.lastAttemptID
        #expect(phone.load(from: folder.url) == CallDirectoryLoadReport(
            mode: .incremental, removed: 1, added: 1, fingerprint: try CallDirectorySnapshotFormat.validate(folder.files.snapshot).fingerprint,
            error: nil))
        #expect(phone.entries == next)
        #expect(try folder.confirm(since: ticket))
    }

    @Test func anIncrementalRequestWhoseBaseIsUnknownRemovesEverythingThenLoadsTheCompleteList() throws {
        let folder = try SharedFolder()
        defer { folder.remove() }
        try folder.writeSnapshot(Self.changed)
        // iOS holds something the host never confirmed (no state file).
        let phone = SimulatedCallDirectory(entries: [5: "Stale", 12_000_000_000: "Brand 0"])
        let report = phone.load(from: folder.url)
        #expect(report.mode == .reset && report.added == Self.changed.count)
        #expect(phone.entries == Self.changed)

        // A confirmed load, but changes that start from another snapshot, or none.
        let other = try SharedFolder()
        defer { other.remove() }
        let loaded = try loadedPhone(other)
        try other.writeChanges(from: Self.changed, to: Self.base)
        #expect(loaded.load(from: other.url).mode == .reset, "changes from a snapshot iOS does not hold")
        #expect(loaded.entries == Self.base)
        #expect(try other.confirm(since: nil))
        try FileManager.default.removeItem(at: other.files.changes)
        #expect(loaded.load(from: other.url).mode == .reset, "no changes file")
        #expect(loaded.entries == Self.base)
    }

    @Test func aLoadTheHostNeverConfirmedMakesTheNextRequestComplete() throws {
        let folder = try SharedFolder()
        defer { folder.remove() }
        let phone = try loadedPhone(folder)
        try folder.writeChanges(from: Self.base, to: Self.changed)
        // iOS starts a request of its own: it applies the changes, and no host confirms it.
        #expect(phone.load(from: folder.url).mode == .incremental)
        #expect(phone.entries == Self.changed)
        // The same changes again would add numbers iOS now holds: the next request is a reset.
        let report = phone.load(from: folder.url)
        #expect(report.mode == .reset)
        #expect(phone.entries == Self.changed)
    }

    @Test(arguments: [SimulatedCallDirectory.Ending.failed, .expired])
    func afterARefusedRequestTheNextOneIsCompleteAndNothingIsConfirmed(ending: SimulatedCallDirectory.Ending) throws {
        let folder = try SharedFolder()
        defer { folder.remove() }
        let phone = try loadedPhone(folder)
        try folder.writeChanges(from: Self.base, to: Self.changed)
        let ticket = folder.lastAttemptID
        #expect(phone.load(from: folder.url, ending: ending).mode == .incremental)
        #expect(phone.entries == Self.base, "iOS discarded the request")
        #expect(CallDirectoryAttempt.read(in: folder.files)?.outcome == (ending == .failed ? .failed : .expired))
        #expect(try folder.confirm(since: ticket) == false, "even if the host's reload said otherwise")
        #expect(phone.load(from: folder.url).mode == .reset)
        #expect(phone.entries == Self.changed)
    }

    /// Snapshots CallKit would refuse (or that were cut short), each with the line at fault.
    static let damagedSnapshots: [(text: String, line: Int, reason: String)] = [
        ("1\ta\n3\tc\n2\tb\n", 3, "numbers must ascend"),
        ("1\ta\n1\tb\n", 2, "duplicate number"),
        ("1\ta\nx\tb\n", 2, "expected '<digits>\\t<label>'"),
        ("1\ta\n1234567890123456\tb\n", 2, "expected '<digits>\\t<label>'"),
        ("1\ta\n0\tb\n", 2, "expected '<digits>\\t<label>'"),
        ("1\ta\n2\tb", 2, "the last line is not terminated"),
        ("1\ta\n2 b\n", 2, "expected '<digits>\\t<label>'"),
    ]

    @Test(arguments: damagedSnapshots.indices)
    func aSnapshotThatFailsItsCheckIsNeverLoaded(index: Int) throws {
        let damage = Self.damagedSnapshots[index]
        let folder = try SharedFolder()
        defer { folder.remove() }
        try Data(damage.text.utf8).write(to: folder.files.snapshot)
        let held: [CallDirectoryPhoneNumber: String] = [7: "Kept"]
        for incremental in [false, true] {
            let phone = SimulatedCallDirectory(entries: held)
            let report = phone.load(from: folder.url, incremental: incremental)
            #expect(report.error == .invalidFile(CallDirectoryFormatError(file: .snapshot, line: damage.line, reason: damage.reason)))
            #expect(report.mode == (incremental ? .reset : .complete) && report.fingerprint == nil)
            #expect(phone.entries == held, "the request was cancelled: iOS discarded what it was handed, the removal of everything included")
            #expect(CallDirectoryAttempt.read(in: folder.files)?.outcome == .cancelled)
        }
    }

    /// Changes files damaged in their body, each with the line at fault.
    static let damagedChanges: [(body: String, line: Int, reason: String)] = [
        ("-12000007919\n-12000000000\nend 2 0\n", 3, "removals must ascend"),
        ("+1\ta\n+1\tb\nend 0 2\n", 3, "duplicate addition"),
        ("+2\ta\n+1\tb\nend 0 2\n", 3, "additions must ascend"),
        ("+1\ta\n-12000000000\nend 1 1\n", 3, "a removal after the additions"),
        ("+1\ta\n", 3, "the file ends before its last line 'end <removals> <additions>'"),
        ("+1\ta\nend 0 2\n", 3, "the file holds 0 removals and 1 additions, its last line says 0 and 2"),
        ("+1\ta\nend 0 1\n+2\tb\n", 4, "a line after the last line"),
        ("+1 a\nend 0 1\n", 2, "expected '+<digits>\\t<label>'"),
        ("*1\nend 0 0\n", 2, "expected '-<digits>', '+<digits>\\t<label>' or 'end <removals> <additions>'"),
        ("+1\ta\nend 0 1", 3, "the last line is not terminated"),
    ]

    @Test(arguments: damagedChanges.indices)
    func changesThatFailTheirCheckAreNeverLoaded(index: Int) throws {
        let damage = Self.damagedChanges[index]
        let folder = try SharedFolder()
        defer { folder.remove() }
        let phone = try loadedPhone(folder)
        let baseFingerprint = try CallDirectorySnapshotFormat.validate(folder.files.snapshot).fingerprint
        let header = "securenode-call-directory-changes 1 \(baseFingerprint) \(CallDirectoryFingerprint(value: 42))\n"
        try Data((header + damage.body).utf8).write(to: folder.files.changes)
        let report = phone.load(from: folder.url)
        #expect(report.mode == .incremental)
        #expect(report.error == .invalidFile(CallDirectoryFormatError(file: .changes, line: damage.line, reason: damage.reason)))
        #expect(phone.entries == Self.base, "cancelled: iOS keeps what it held")
        #expect(phone.load(from: folder.url).mode == .reset, "after a cancelled request, the next is complete")
        #expect(phone.entries == Self.base)
    }

    @Test func changesWhoseFirstLineIsNotTheirHeaderAreSetAsideForTheCompleteList() throws {
        let folder = try SharedFolder()
        defer { folder.remove() }
        let phone = try loadedPhone(folder)
        try folder.writeChanges(from: Self.base, to: Self.changed)
        for header in ["garbage", "securenode-call-directory-changes 2 0000000000000000 0000000000000000", ""] {
            var text = try String(contentsOf: folder.files.changes, encoding: .utf8)
            text = header + text[text.firstIndex(of: "\n")!...]
            try Data(text.utf8).write(to: folder.files.changes)
            // Nothing was handed when the header is read: the complete list is safe.
            #expect(phone.load(from: folder.url).mode == .reset)
            #expect(phone.entries == Self.changed)
            #expect(try folder.confirm(since: nil))
        }
    }

    @Test func aMissingSnapshotIsAnEmptyList() throws {
        let folder = try SharedFolder()
        defer { folder.remove() }
        let phone = SimulatedCallDirectory()
        #expect(phone.load(from: folder.url) == CallDirectoryLoadReport(mode: .complete, removed: 0, added: 0, fingerprint: CallDirectoryFingerprint(), error: nil))
        #expect(phone.entries.isEmpty && phone.requests == 1)
    }

    @Test func anAttemptThatCannotBeRecordedLoadsNothing() throws {
        let folder = try SharedFolder()
        defer { folder.remove() }
        try folder.writeSnapshot(Self.base)
        // The attempt's name is taken by a folder: the record cannot be written.
        try FileManager.default.createDirectory(at: folder.files.attempt, withIntermediateDirectories: true)
        let phone = SimulatedCallDirectory(entries: [7: "Kept"])
        let report = phone.load(from: folder.url, incremental: false)
        guard case .unrecordedAttempt = report.error else {
            Issue.record("expected an unrecorded attempt, got \(String(describing: report.error))")
            return
        }
        #expect(report.added == 0 && phone.entries == [7: "Kept"])
    }
}
