import Foundation

/// What iOS holds, as far as the host app confirmed it
/// (``CallDirectoryFolder/loadState``): the host's half of the two-phase
/// commit with the extension.
///
/// The extension records each request in ``CallDirectoryAttempt``; the host
/// confirms one only after its own reload succeeded
/// (``confirming(_:previousAttemptID:currentSnapshot:)``), writing this
/// state. iOS is known to hold ``loaded`` only while the last attempt is
/// the confirmed one (``held(lastAttempt:)``): any later request, confirmed
/// or not, may have changed what iOS holds, and a refused reload makes the
/// state ``unknown``. When it is not known, the next request hands the
/// complete list.
///
/// ```
/// securenode-call-directory-state 1
/// loaded 8d3f0c6a1b2e4f57
/// attempt 6F9619FF-8B86-D011-B42D-00C04FC964FF
/// ```
public struct CallDirectoryLoadState: Sendable, Hashable {
    /// The fingerprint of the snapshot iOS holds; nil when not known.
    public var loaded: CallDirectoryFingerprint?
    /// The attempt that loaded it (``CallDirectoryAttempt/id``).
    public var confirmedAttempt: String?

    /// A state.
    public init(loaded: CallDirectoryFingerprint?, confirmedAttempt: String?) {
        self.loaded = loaded
        self.confirmedAttempt = confirmedAttempt
    }

    /// Nothing known about what iOS holds.
    public static let unknown = CallDirectoryLoadState(loaded: nil, confirmedAttempt: nil)

    /// What iOS holds, given the extension's last attempt: ``loaded`` when
    /// that attempt is the confirmed one, nil otherwise.
    public func held(lastAttempt: CallDirectoryAttempt?) -> CallDirectoryFingerprint? {
        guard let loaded, let confirmedAttempt, lastAttempt?.id == confirmedAttempt else { return nil }
        return loaded
    }

    /// The state that confirms `attempt`, read after a reload iOS reported
    /// successful, or nil when it cannot be confirmed: no attempt since the
    /// reload began (`previousAttemptID` was the last one then), one that
    /// did not hand everything or that failed, or one that handed another
    /// snapshot than the current one (`currentSnapshot`, its fingerprint).
    public static func confirming(
        _ attempt: CallDirectoryAttempt?, previousAttemptID: String?, currentSnapshot: CallDirectoryFingerprint
    ) -> CallDirectoryLoadState? {
        guard let attempt, attempt.id != previousAttemptID, attempt.outcome.mayBeConfirmed, attempt.fingerprint == currentSnapshot else {
            return nil
        }
        return CallDirectoryLoadState(loaded: currentSnapshot, confirmedAttempt: attempt.id)
    }

    static let magic = "securenode-call-directory-state"
    static let version = 1

    /// The state recorded in `folder`; ``unknown`` when there is none or
    /// the file cannot be read.
    public static func read(in folder: CallDirectoryFolder) -> CallDirectoryLoadState {
        guard let fields = CallDirectorySharedFile.readFields(folder.loadState, magic: magic, version: version),
            let loadedText = fields["loaded"], let attempt = fields["attempt"], !attempt.isEmpty
        else { return .unknown }
        guard let loaded = CallDirectoryFingerprint(hexadecimal: loadedText), attempt != "none" else { return .unknown }
        return CallDirectoryLoadState(loaded: loaded, confirmedAttempt: attempt)
    }

    /// Records this state in `folder` (atomically, durably).
    public func write(in folder: CallDirectoryFolder) throws {
        let text = CallDirectorySharedFile.text(
            magic: Self.magic, version: Self.version, fields: ["loaded": loaded?.description ?? "unknown", "attempt": confirmedAttempt ?? "none"])
        try CallDirectorySharedFile.write(text, to: folder.loadState)
    }
}
