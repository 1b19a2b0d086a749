import Foundation

/// The extension's record of its last request (``CallDirectoryFolder/attempt``),
/// which the host reads after a reload to learn what iOS was handed.
///
/// The extension writes it before it hands iOS anything (``Outcome/loading``),
/// again once everything is handed (``Outcome/completing``, with the
/// fingerprint of what iOS will hold), and once more when the request ends.
/// Each request has a new ``id``, so an attempt the host did not confirm,
/// one iOS started on its own, is never mistaken for the confirmed one.
///
/// ```
/// securenode-call-directory-attempt 1
/// id 6F9619FF-8B86-D011-B42D-00C04FC964FF
/// mode incremental
/// outcome completing
/// fingerprint 8d3f0c6a1b2e4f57
/// ```
public struct CallDirectoryAttempt: Sendable, Hashable {
    /// How far a request got.
    public enum Outcome: String, Sendable, Hashable, CaseIterable {
        /// Started; nothing or part of it handed (a crash leaves it so).
        case loading
        /// Everything handed; the request asked iOS to complete it.
        case completing
        /// iOS said the request completed in time.
        case completed
        /// iOS said the request ran out of time (iOS discards it).
        case expired
        /// The extension cancelled it (a file failed its check): iOS discards it.
        case cancelled
        /// iOS reported that the request failed.
        case failed

        /// Whether a reload iOS reported successful may be confirmed for
        /// this attempt: everything was handed and nothing says it failed.
        public var mayBeConfirmed: Bool { self == .completing || self == .completed }
    }

    /// Unique to the request.
    public let id: String
    /// What it hands iOS.
    public let mode: CallDirectoryLoadMode
    /// How far it got.
    public var outcome: Outcome
    /// What iOS holds once the request completes: the fingerprint of the
    /// snapshot it handed or the changes led to; nil until everything is handed.
    public var fingerprint: CallDirectoryFingerprint?

    /// An attempt.
    public init(id: String, mode: CallDirectoryLoadMode, outcome: Outcome, fingerprint: CallDirectoryFingerprint? = nil) {
        self.id = id
        self.mode = mode
        self.outcome = outcome
        self.fingerprint = fingerprint
    }

    static let magic = "securenode-call-directory-attempt"
    static let version = 1

    /// The last attempt recorded in `folder`; nil when there is none or
    /// the file cannot be read (then nothing is confirmed or trusted).
    public static func read(in folder: CallDirectoryFolder) -> CallDirectoryAttempt? {
        guard let fields = CallDirectorySharedFile.readFields(folder.attempt, magic: magic, version: version),
            let id = fields["id"], !id.isEmpty, let mode = fields["mode"].flatMap(CallDirectoryLoadMode.init(rawValue:)),
            let outcome = fields["outcome"].flatMap(Outcome.init(rawValue:)), let fingerprintText = fields["fingerprint"]
        else { return nil }
        let fingerprint = CallDirectoryFingerprint(hexadecimal: fingerprintText)
        guard fingerprint != nil || fingerprintText == "none" else { return nil }
        return CallDirectoryAttempt(id: id, mode: mode, outcome: outcome, fingerprint: fingerprint)
    }

    /// Records this attempt in `folder` (atomically, durably).
    func write(in folder: CallDirectoryFolder) throws {
        let text = CallDirectorySharedFile.text(
            magic: Self.magic, version: Self.version,
            fields: ["id": id, "mode": mode.rawValue, "outcome": outcome.rawValue, "fingerprint": fingerprint?.description ?? "none"])
        try CallDirectorySharedFile.write(text, to: folder.attempt)
    }

    /// Records that this attempt ended with `outcome`, unless a later
    /// attempt replaced it meanwhile; best effort (the host confirms
    /// nothing it cannot read).
    func record(_ outcome: Outcome, in folder: CallDirectoryFolder) {
        guard Self.read(in: folder)?.id == id else { return }
        var ended = self
        ended.outcome = outcome
        try? ended.write(in: folder)
    }
}
