import Foundation
import HTTPTypes

/// The `Retry-After` response header (RFC 9110, section 10.2.3): either a
/// number of seconds or an HTTP date.
public enum RetryAfter {
    /// The wait the header asks for, measured from `now`; `nil` when the
    /// value is neither a non-negative integer nor an HTTP date. A date in
    /// the past means no wait.
    public static func parse(_ value: String, now: Date = Date()) -> Duration? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if !trimmed.isEmpty, trimmed.allSatisfy(\.isASCII), trimmed.allSatisfy(\.isNumber) {
            guard let seconds = Int64(trimmed) else { return .seconds(Int64.max / 2) }
            return .seconds(seconds)
        }
        return httpDate(trimmed).map { .seconds(max(0, $0.timeIntervalSince(now).rounded(.up))) }
    }

    /// The longest `Retry-After` a durable queue (the billing outbox, the
    /// tracker's events) honours: an absurd value must not park an item for
    /// ever, and a probe an hour later is cheap. The family's one cap.
    package static let longestQueueWait: Duration = .seconds(3600)

    /// The wait a queued item keeps before its next attempt, from an
    /// answer's headers: their `Retry-After`, at most ``longestQueueWait``.
    package static func queueWait(in fields: HTTPFields, now: Date = Date()) -> Duration? {
        fields[.retryAfter].flatMap { parse($0, now: now) }.map { min($0, longestQueueWait) }
    }

    /// The date of an HTTP-date header value (`Date`, `Expires`,
    /// `Retry-After`, `Last-Modified`), or nil when it is not one.
    public static func httpDate(_ value: String) -> Date? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        for format in httpDateFormats {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: trimmed) { return date }
        }
        return nil
    }

    /// IMF-fixdate (the preferred form), then the obsolete RFC 850 and asctime forms.
    private static let httpDateFormats = [
        "EEE, dd MMM yyyy HH:mm:ss zzz",
        "EEEE, dd-MMM-yy HH:mm:ss zzz",
        "EEE MMM d HH:mm:ss yyyy",
    ]
}
