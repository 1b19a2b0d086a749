import Foundation
import SecureNodeCallDirectory
import Testing

/// The small files both processes share, and the rules that read them:
/// the fingerprint, the load state, the attempt, what the host may confirm.
@Suite struct CallDirectorySharedFilesTests {
    @Test func theFingerprintIsTheFilesWhateverTheChunkSize() throws {
        let folder = try SharedFolder()
        defer { folder.remove() }
        let entries = Dictionary(uniqueKeysWithValues: (1...2_000).map { (CallDirectoryPhoneNumber(4_470_000_000 + $0 * 13), "Brand é \($0)") })
        let fingerprint = try folder.writeSnapshot(entries)
        var expected = CallDirectoryFingerprint()
        try Data(contentsOf: folder.files.snapshot).withUnsafeBytes { expected.combine($0) }
        #expect(fingerprint == expected)
        for chunkSize in [1, 5, 4096, 1 << 20] {
            var read: [CallDirectoryPhoneNumber: String] = [:]
            let summary = try CallDirectorySnapshotFormat.forEachEntry(in: folder.files.snapshot, chunkSize: chunkSize) { read[$0] = $1 }
            #expect(summary == CallDirectorySnapshotFormat.Summary(count: 2_000, fingerprint: fingerprint))
            #expect(read == entries)
        }
        #expect(CallDirectoryFingerprint().description == "cbf29ce484222325", "FNV-1a's offset basis: an empty file")
        #expect(CallDirectoryFingerprint(hexadecimal: fingerprint.description) == fingerprint)
        #expect(CallDirectoryFingerprint(hexadecimal: "xyz") == nil && CallDirectoryFingerprint(hexadecimal: "123") == nil)
    }

    @Test func labelsStayOnOneLine() {
        #expect(CallDirectorySnapshotFormat.sanitizedLabel("Acme\tBank\nLine\u{2028}Two") == "Acme Bank Line Two")
        #expect(CallDirectorySnapshotFormat.sanitizedLabel("Société Générale") == "Société Générale")
        var data = Data()
        CallDirectorySnapshotFormat.appendLine(61_412_345_678, label: "Acme\tBank", to: &data)
        #expect(String(decoding: data, as: UTF8.self) == "61412345678\tAcme Bank\n")
    }

    @Test func theLoadStateAndTheAttemptReadBackAndDamageReadsAsUnknown() throws {
        let folder = try SharedFolder()
        defer { folder.remove() }
        #expect(CallDirectoryLoadState.read(in: folder.files) == .unknown, "no file: nothing known")
        #expect(CallDirectoryAttempt.read(in: folder.files) == nil)
        let state = CallDirectoryLoadState(loaded: CallDirectoryFingerprint(value: 0xabc), confirmedAttempt: "A-1")
        try state.write(in: folder.files)
        #expect(CallDirectoryLoadState.read(in: folder.files) == state)
        #expect(try String(contentsOf: folder.files.loadState, encoding: .utf8) == "securenode-call-directory-state 1\nloaded 0000000000000abc\nattempt A-1\n")
        try CallDirectoryLoadState.unknown.write(in: folder.files)
        #expect(CallDirectoryLoadState.read(in: folder.files) == .unknown)
        for damaged in ["", "securenode-call-directory-state 2\nloaded 0000000000000abc\nattempt A-1\n", "securenode-call-directory-state 1\nloaded 12\nattempt A-1\n",
                        "securenode-call-directory-state 1\nloaded 0000000000000abc\n", "securenode-call-directory-state 1\nloaded 0000000000000abc\nattempt\n"] {
            try Data(damaged.utf8).write(to: folder.files.loadState)
            #expect(CallDirectoryLoadState.read(in: folder.files) == .unknown, "\(damaged.debugDescription)")
        }
        try Data("securenode-call-directory-attempt 1\nid A-1\nmode sideways\noutcome completed\nfingerprint none\n".utf8).write(to: folder.files.attempt)
        #expect(CallDirectoryAttempt.read(in: folder.files) == nil, "a mode this version does not know")
        try Data("securenode-call-directory-attempt 1\nid A-1\nmode reset\noutcome completed\nfingerprint 0000000000000abc\n".utf8).write(to: folder.files.attempt)
        #expect(CallDirectoryAttempt.read(in: folder.files) == CallDirectoryAttempt(
            id: "A-1", mode: .reset, outcome: .completed, fingerprint: CallDirectoryFingerprint(value: 0xabc)))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.contains(".tmp-") }
        #expect(leftovers.isEmpty, "each write renames its temporary file")
    }

    @Test func iOSHoldsTheConfirmedLoadOnlyWhileNoRequestCameSince() {
        let state = CallDirectoryLoadState(loaded: CallDirectoryFingerprint(value: 1), confirmedAttempt: "A")
        let confirmed = CallDirectoryAttempt(id: "A", mode: .complete, outcome: .completed, fingerprint: CallDirectoryFingerprint(value: 1))
        #expect(state.held(lastAttempt: confirmed) == CallDirectoryFingerprint(value: 1))
        let later = CallDirectoryAttempt(id: "B", mode: .incremental, outcome: .loading)
        #expect(state.held(lastAttempt: later) == nil, "a request since, confirmed or not, may have changed what iOS holds")
        #expect(state.held(lastAttempt: nil) == nil)
        #expect(CallDirectoryLoadState.unknown.held(lastAttempt: confirmed) == nil)
    }

    @Test func theHostConfirmsOnlyAnAttemptMadeForItsReloadThatHandedTheCurrentSnapshot() {
        let current = CallDirectoryFingerprint(value: 9)
        func attempt(_ id: String, _ outcome: CallDirectoryAttempt.Outcome, _ fingerprint: CallDirectoryFingerprint? = CallDirectoryFingerprint(value: 9))
            -> CallDirectoryAttempt
        {
            CallDirectoryAttempt(id: id, mode: .incremental, outcome: outcome, fingerprint: fingerprint)
        }
        #expect(CallDirectoryLoadState.confirming(attempt("B", .completed), previousAttemptID: "A", currentSnapshot: current)
            == CallDirectoryLoadState(loaded: current, confirmedAttempt: "B"))
        #expect(CallDirectoryLoadState.confirming(attempt("B", .completing), previousAttemptID: nil, currentSnapshot: current) != nil,
            "iOS may answer the host before the extension hears its completion")
        #expect(CallDirectoryLoadState.confirming(attempt("A", .completed), previousAttemptID: "A", currentSnapshot: current) == nil,
            "no attempt since the reload began")
        #expect(CallDirectoryLoadState.confirming(nil, previousAttemptID: "A", currentSnapshot: current) == nil)
        for outcome in [CallDirectoryAttempt.Outcome.loading, .expired, .cancelled, .failed] {
            #expect(CallDirectoryLoadState.confirming(attempt("B", outcome), previousAttemptID: "A", currentSnapshot: current) == nil, "\(outcome)")
        }
        #expect(CallDirectoryLoadState.confirming(attempt("B", .completed, CallDirectoryFingerprint(value: 8)), previousAttemptID: "A", currentSnapshot: current)
            == nil, "another snapshot than the current one (an export during the reload)")
    }
}
