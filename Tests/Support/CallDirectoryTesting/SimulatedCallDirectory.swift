import Foundation
import RuntimeSupport
import SecureNodeCallDirectory
import Testing

/// iOS's side of a Call Directory extension, for tests: what iOS holds
/// (numbers and labels), and each request run through the extension's
/// ``CallDirectoryLoader`` against a ``RecordingCallDirectoryContext``
/// that fails the test on any CallKit rule the load breaks. A request
/// that completes in time replaces what iOS holds; a cancelled, expired
/// or failed one is discarded, as iOS does.
///
/// ```swift
/// let phone = SimulatedCallDirectory()
/// phone.load(from: folder)                  // the first load: not incremental
/// #expect(phone.entries == [61412345678: "Acme Bank"])
/// ```
public final class SimulatedCallDirectory: Sendable {
    /// How iOS ends a request the extension completed.
    public enum Ending: Sendable, Hashable {
        /// Kept: iOS now holds what the request led to.
        case accepted
        /// The completion handler says it expired: discarded.
        case expired
        /// iOS fails it (and tells the extension's delegate): discarded.
        case failed
    }

    private struct State {
        var entries: [CallDirectoryPhoneNumber: String]
        var hasLoaded: Bool
        var requests = 0
    }

    private let state: Locked<State>

    /// A phone holding `entries` (nothing by default: the extension never loaded).
    public init(entries: [CallDirectoryPhoneNumber: String] = [:]) {
        state = Locked(State(entries: entries, hasLoaded: !entries.isEmpty))
    }

    /// What iOS holds.
    public var entries: [CallDirectoryPhoneNumber: String] { state.read().entries }

    /// How many requests ran.
    public var requests: Int { state.read().requests }

    /// Runs one request of the extension whose shared files are in
    /// `folder`: incremental once iOS holds a load (or as `incremental`
    /// says), ended as `ending` says. Returns the extension's report.
    @discardableResult
    public func load(
        from folder: URL, incremental: Bool? = nil, ending: Ending = .accepted, sourceLocation: SourceLocation = #_sourceLocation
    ) -> CallDirectoryLoadReport {
        let start = state.read()
        let context = RecordingCallDirectoryContext(
            isIncremental: incremental ?? start.hasLoaded, holding: start.entries, ending: ending, sourceLocation: sourceLocation)
        let report = CallDirectoryLoader.handleRequest(context, in: folder)
        if ending == .failed { CallDirectoryLoader.requestFailed(in: folder) }
        let kept = context.finish()
        state.withLock { state in
            state.requests += 1
            if let kept {
                state.entries = kept
                state.hasLoaded = true
            }
        }
        return report
    }

    /// The entries of the snapshot at `url`, as a phone would hold them.
    public static func entries(ofSnapshot url: URL) throws -> [CallDirectoryPhoneNumber: String] {
        var entries: [CallDirectoryPhoneNumber: String] = [:]
        try CallDirectorySnapshotFormat.forEachEntry(in: url) { number, label in entries[number] = label }
        return entries
    }
}
