import Foundation
import RuntimeSupport

/// When this SDK last showed identity for a number at ring time (a lookup
/// that found its branding): the `displayed_at` of the events the app then
/// records for that call, which come after the call, sometimes minutes later.
final class IdentityDisplays: Sendable {
    private let shown = Locked<[String: Date]>([:])
    /// Numbers remembered at once (the most recent ones).
    static let capacity = 64
    /// How long a display stays the one an event refers to.
    static let relevance: TimeInterval = 3600

    /// Identity for `e164` was shown at `date`.
    func record(_ e164: String, at date: Date = Date()) {
        shown.withLock { shown in
            shown[e164] = date
            if shown.count > Self.capacity, let oldest = shown.min(by: { $0.value < $1.value })?.key { shown[oldest] = nil }
        }
    }

    /// When identity for `e164` was last shown, if that was at most an hour
    /// before `date` (and not after it).
    func shownAt(_ e164: String, before date: Date) -> Date? {
        guard let at = shown.withLock({ $0[e164] }), at <= date, date.timeIntervalSince(at) <= Self.relevance else { return nil }
        return at
    }
}
