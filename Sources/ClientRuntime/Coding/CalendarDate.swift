import Foundation

/// A calendar day without a time or time zone, for the OpenAPI format
/// `date` (`2024-05-01`). Using `Date` for it would shift the day in time
/// zones west of UTC.
public struct CalendarDate: Codable, Hashable, Sendable, Comparable, CustomStringConvertible, LosslessStringConvertible {
    /// The year.
    public var year: Int
    /// The month, 1-12.
    public var month: Int
    /// The day of the month, 1-31.
    public var day: Int

    /// Creates a date; `nil` when the day does not exist (`2023-02-29`).
    public init?(year: Int, month: Int, day: Int) {
        var components = DateComponents()
        (components.year, components.month, components.day) = (year, month, day)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        guard (1...12).contains(month), (1...31).contains(day), calendar.date(from: components).map({
            calendar.component(.day, from: $0) == day
        }) == true else { return nil }
        (self.year, self.month, self.day) = (year, month, day)
    }

    /// Parses `YYYY-MM-DD`.
    public init?(_ description: String) {
        let parts = description.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// `YYYY-MM-DD`.
    public var description: String {
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }

    /// Decodes `YYYY-MM-DD`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let date = CalendarDate(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(text)' is not a date (YYYY-MM-DD)")
        }
        self = date
    }

    /// Encodes `YYYY-MM-DD`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    /// Orders by day.
    public static func < (lhs: CalendarDate, rhs: CalendarDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }
}
