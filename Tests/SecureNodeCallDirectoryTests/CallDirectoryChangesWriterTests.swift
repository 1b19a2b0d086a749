import Foundation
import SecureNodeCallDirectory
import Testing

/// The host's changes file: a streaming merge of two sorted snapshots,
/// written, fsynced and read back, never from a snapshot other than the one named.
@Suite struct CallDirectoryChangesWriterTests {
    @Test func theChangesAreRemovalsThenAdditionsEachAscending() throws {
        let folder = try SharedFolder()
        defer { folder.remove() }
        let held: [CallDirectoryPhoneNumber: String] = [10: "Acme", 20: "Contoso", 30: "Northwind", 40: "Fabrikam"]
        let wanted: [CallDirectoryPhoneNumber: String] = [5: "New", 20: "Contoso", 30: "Acme", 45: "Later"]
        let counts = try folder.writeChanges(from: held, to: wanted)
        #expect(counts == CallDirectoryChangesWriter.Counts(removals: 3, additions: 3))
        let base = try CallDirectorySnapshotFormat.validate(folder.file("held.snapshot")).fingerprint
        let target = try CallDirectorySnapshotFormat.validate(folder.files.snapshot).fingerprint
        // 30 moved from Northwind to Acme: removed, then added with its new label.
        #expect(try String(contentsOf: folder.files.changes, encoding: .utf8) == """
            securenode-call-directory-changes 1 \(base) \(target)
            -10
            -30
            -40
            +5\tNew
            +30\tAcme
            +45\tLater
            end 3 3

            """)
        #expect(!FileManager.default.fileExists(atPath: folder.files.changes.path + ".additions"), "the additions' scratch file is gone")
    }

    @Test func identicalEmptyAndFullSnapshotsMakeTheChangesTheyShould() throws {
        let folder = try SharedFolder()
        defer { folder.remove() }
        let entries: [CallDirectoryPhoneNumber: String] = Dictionary(uniqueKeysWithValues: (1...300).map { (CallDirectoryPhoneNumber($0 * 3), "Brand é \($0)") })
        #expect(try folder.writeChanges(from: entries, to: entries) == .init(removals: 0, additions: 0))
        #expect(try folder.writeChanges(from: [:], to: entries) == .init(removals: 0, additions: 300))
        #expect(try folder.writeChanges(from: entries, to: [:]) == .init(removals: 300, additions: 0), "branding turned off: everything removed")
    }

    @Test func noChangesAreWrittenFromASnapshotOtherThanTheOneNamed() throws {
        let folder = try SharedFolder()
        defer { folder.remove() }
        let base = folder.file("held.snapshot")
        let baseFingerprint = try folder.writeSnapshot([1: "a"], to: base)
        let targetFingerprint = try folder.writeSnapshot([2: "b"])
        let named = CallDirectoryFingerprint(value: 7)
        #expect(throws: CallDirectoryChangesWriter.FingerprintMismatch(snapshot: "base", expected: named, found: baseFingerprint)) {
            try CallDirectoryChangesWriter.write(
                from: base, baseFingerprint: named, to: folder.files.snapshot, targetFingerprint: targetFingerprint, into: folder.files.changes)
        }
        #expect(throws: CallDirectoryChangesWriter.FingerprintMismatch(snapshot: "target", expected: named, found: targetFingerprint)) {
            try CallDirectoryChangesWriter.write(
                from: base, baseFingerprint: baseFingerprint, to: folder.files.snapshot, targetFingerprint: named, into: folder.files.changes)
        }
        #expect(!FileManager.default.fileExists(atPath: folder.files.changes.path), "nothing left behind")
        // A snapshot that fails its check makes no changes either.
        try Data("2\tb\n1\ta\n".utf8).write(to: folder.files.snapshot)
        #expect(throws: CallDirectoryFormatError(file: .snapshot, line: 2, reason: "numbers must ascend")) {
            try CallDirectoryChangesWriter.write(
                from: base, baseFingerprint: baseFingerprint, to: folder.files.snapshot, targetFingerprint: targetFingerprint, into: folder.files.changes)
        }
        #expect(!FileManager.default.fileExists(atPath: folder.files.changes.path))
    }
}
