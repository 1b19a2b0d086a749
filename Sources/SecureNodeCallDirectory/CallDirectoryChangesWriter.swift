import Foundation

/// The host's side of the changes file: a streaming merge of two sorted
/// snapshots (what iOS holds and the new one) into a changes file
/// (``CallDirectoryChangesFormat``), written, fsynced and read back before
/// the caller renames it into place. Memory holds a chunk of each snapshot
/// and two write buffers, whatever their size.
public enum CallDirectoryChangesWriter {
    /// What a changes file holds.
    public struct Counts: Sendable, Hashable {
        /// Numbers removed (a changed label counts here and in ``additions``).
        public let removals: Int
        /// Numbers added.
        public let additions: Int

        /// `removals` and `additions`.
        public init(removals: Int, additions: Int) {
            self.removals = removals
            self.additions = additions
        }
    }

    /// A snapshot that is not the one the caller named: the changes would
    /// start from, or lead to, something else.
    public struct FingerprintMismatch: Error, Sendable, Hashable, CustomStringConvertible {
        /// `base` (the snapshot iOS holds) or `target` (the new one).
        public let snapshot: String
        /// The fingerprint the caller named.
        public let expected: CallDirectoryFingerprint
        /// The fingerprint of the file read.
        public let found: CallDirectoryFingerprint

        /// The `snapshot` read has `found` where `expected` was named.
        public init(snapshot: String, expected: CallDirectoryFingerprint, found: CallDirectoryFingerprint) {
            self.snapshot = snapshot
            self.expected = expected
            self.found = found
        }

        /// `the base snapshot's fingerprint is ..., expected ...`.
        public var description: String { "the \(snapshot) snapshot's fingerprint is \(found), expected \(expected): no changes written" }
    }

    /// Writes the changes from the snapshot `base` (fingerprint
    /// `baseFingerprint`: what iOS holds) to the snapshot `target`
    /// (`targetFingerprint`) into `destination`: removals then additions,
    /// each ascending, a changed label as a removal and an addition. The
    /// file is fsynced and read back through the extension's reader before
    /// this returns; on any error it is removed. Throws
    /// ``FingerprintMismatch`` when a snapshot is not the one named, and
    /// ``CallDirectoryFormatError`` when one fails its check.
    @discardableResult
    public static func write(
        from base: URL, baseFingerprint: CallDirectoryFingerprint, to target: URL, targetFingerprint: CallDirectoryFingerprint, into destination: URL
    ) throws -> Counts {
        let additionsFile = destination.deletingLastPathComponent().appendingPathComponent(destination.lastPathComponent + ".additions")
        defer { try? FileManager.default.removeItem(at: additionsFile) }
        do {
            let counts = try merge(base: base, baseFingerprint: baseFingerprint, target: target, targetFingerprint: targetFingerprint,
                                   into: destination, additionsFile: additionsFile)
            try check(destination, base: baseFingerprint, target: targetFingerprint, counts: counts)
            return counts
        } catch {
            try? FileManager.default.removeItem(at: destination)
            throw error
        }
    }

    /// Writes the changes from the snapshot with `fingerprint` to itself
    /// (none) into `destination`, atomically: after a confirmed load, an
    /// incremental request with nothing new hands nothing.
    public static func writeNone(at fingerprint: CallDirectoryFingerprint, into destination: URL) throws {
        try CallDirectorySharedFile.write(
            CallDirectoryChangesFormat.header(base: fingerprint, target: fingerprint) + CallDirectoryChangesFormat.trailer(removals: 0, additions: 0),
            to: destination)
    }

    /// One pass over both snapshots: removals straight into `destination`
    /// after its first line, additions into `additionsFile`, appended at the end.
    private static func merge(
        base: URL, baseFingerprint: CallDirectoryFingerprint, target: URL, targetFingerprint: CallDirectoryFingerprint, into destination: URL,
        additionsFile: URL
    ) throws -> Counts {
        let held = try CallDirectorySnapshotReader(url: base)
        let wanted = try CallDirectorySnapshotReader(url: target)
        let output = try CallDirectoryFileWriter(url: destination)
        let additions = try CallDirectoryFileWriter(url: additionsFile)
        try output.write(CallDirectoryChangesFormat.header(base: baseFingerprint, target: targetFingerprint).utf8)
        var removalCount = 0
        var additionCount = 0
        func remove(_ number: CallDirectoryPhoneNumber) throws {
            try output.write(byte: UInt8(ascii: "-"))
            try output.write(number: number)
            try output.write(byte: UInt8(ascii: "\n"))
            removalCount += 1
        }
        func add(_ entry: CallDirectorySnapshotReader.Entry) throws {
            try additions.write(byte: UInt8(ascii: "+"))
            try additions.write(number: entry.number)
            try additions.write(byte: UInt8(ascii: "\t"))
            try additions.write(entry.label)
            try additions.write(byte: UInt8(ascii: "\n"))
            additionCount += 1
        }
        var old = try held.next()
        var new = try wanted.next()
        merging: while true {
            switch (old, new) {
            case (nil, nil):
                break merging
            case (let before?, nil):
                try remove(before.number)
                old = try held.next()
            case (nil, let after?):
                try add(after)
                new = try wanted.next()
            case (let before?, let after?):
                if before.number < after.number {
                    try remove(before.number)
                    old = try held.next()
                } else if before.number > after.number {
                    try add(after)
                    new = try wanted.next()
                } else {
                    // The same number: changed only if its label did.
                    if before.label != after.label {
                        try remove(before.number)
                        try add(after)
                    }
                    old = try held.next()
                    new = try wanted.next()
                }
            }
        }
        guard held.fingerprint == baseFingerprint else { throw FingerprintMismatch(snapshot: "base", expected: baseFingerprint, found: held.fingerprint) }
        guard wanted.fingerprint == targetFingerprint else {
            throw FingerprintMismatch(snapshot: "target", expected: targetFingerprint, found: wanted.fingerprint)
        }
        try additions.finish()
        try output.append(contentsOf: additionsFile)
        try output.write(CallDirectoryChangesFormat.trailer(removals: removalCount, additions: additionCount).utf8)
        try output.finish()
        return Counts(removals: removalCount, additions: additionCount)
    }

    /// Reads `url` back as the extension will, checking every line, both
    /// fingerprints and the counts.
    private static func check(_ url: URL, base: CallDirectoryFingerprint, target: CallDirectoryFingerprint, counts: Counts) throws {
        let reader = try CallDirectoryChangesReader(url: url)
        while try reader.next() != nil {}
        guard reader.base == base, reader.target == target, reader.removals == counts.removals, reader.additions == counts.additions else {
            throw CallDirectoryFormatError(file: .changes, line: 1, reason: "read back, the file is not what was written")
        }
    }
}
