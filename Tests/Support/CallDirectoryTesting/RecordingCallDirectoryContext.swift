import Foundation
import SecureNodeCallDirectory
import Testing

/// One request as iOS sees it: the calls the extension makes, checked
/// against CallKit's rules. Each rule the extension breaks is recorded as
/// a test issue at `sourceLocation` (and iOS would fail the request, so it
/// is discarded):
///
/// - additions out of ascending order, or the same number twice;
/// - in an incremental request, adding a number iOS holds, or removing
///   one it does not;
/// - any removal in a complete (not incremental) request;
/// - any call after the request ended, a request ended twice or never.
public final class RecordingCallDirectoryContext: CallDirectoryContext {
    /// Whether iOS asked for an incremental request.
    public let isIncremental: Bool
    /// Numbers added.
    public private(set) var additions = 0
    /// Numbers removed one by one.
    public private(set) var removals = 0
    /// Whether everything was removed at once.
    public private(set) var removedAll = false

    private enum End {
        case completed
        case cancelled
    }

    private var working: [CallDirectoryPhoneNumber: String]
    private var lastAdded: CallDirectoryPhoneNumber?
    private var end: End?
    private var broken = false
    private let ending: SimulatedCallDirectory.Ending
    private let sourceLocation: SourceLocation

    /// A request over what iOS holds (`holding`), ended as `ending` says.
    public init(
        isIncremental: Bool, holding: [CallDirectoryPhoneNumber: String], ending: SimulatedCallDirectory.Ending = .accepted,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        self.isIncremental = isIncremental
        // A complete request starts from nothing.
        working = isIncremental ? holding : [:]
        self.ending = ending
        self.sourceLocation = sourceLocation
    }

    /// Adds `number`, checking order, duplicates and, when incremental, what iOS holds.
    public func addEntry(_ number: CallDirectoryPhoneNumber, label: String) {
        guard isOpen("an addition") else { return }
        if let lastAdded, number <= lastAdded {
            violation(number == lastAdded ? "number \(number) added twice" : "number \(number) added after \(lastAdded): additions must ascend")
        }
        if working[number] != nil {
            violation(isIncremental ? "number \(number) added while iOS holds it (remove it first)" : "number \(number) added twice")
        }
        working[number] = label
        lastAdded = number
        additions += 1
    }

    /// Removes `number`, which iOS must hold, in an incremental request only.
    public func removeEntry(_ number: CallDirectoryPhoneNumber) {
        guard isOpen("a removal") else { return }
        guard isIncremental else { return violation("number \(number) removed in a complete (not incremental) request") }
        if working.removeValue(forKey: number) == nil { violation("number \(number) removed while iOS does not hold it") }
        removals += 1
    }

    /// Removes everything, in an incremental request only.
    public func removeAllEntries() {
        guard isOpen("removing all") else { return }
        guard isIncremental else { return violation("everything removed in a complete (not incremental) request") }
        working = [:]
        removedAll = true
    }

    /// Ends the request; `completion` hears whether it expired (``SimulatedCallDirectory/Ending/expired``).
    public func complete(_ completion: @escaping @Sendable (_ expired: Bool) -> Void) {
        guard isOpen("completing") else { return }
        end = .completed
        completion(ending == .expired)
    }

    /// Ends the request; iOS discards it.
    public func cancel(with error: any Error) {
        guard isOpen("cancelling") else { return }
        end = .cancelled
    }

    /// What iOS holds after the request: what it led to when it completed
    /// in time and broke no rule; nil when iOS discards it.
    func finish() -> [CallDirectoryPhoneNumber: String]? {
        guard let end else {
            violation("the request never ended (neither completed nor cancelled)")
            return nil
        }
        guard case .completed = end, ending == .accepted, !broken else { return nil }
        return working
    }

    private func isOpen(_ call: String) -> Bool {
        guard end == nil else {
            violation("\(call) after the request ended")
            return false
        }
        return true
    }

    private func violation(_ what: String) {
        broken = true
        Issue.record(Comment(rawValue: "CallKit would fail this request: \(what)"), sourceLocation: sourceLocation)
    }
}
