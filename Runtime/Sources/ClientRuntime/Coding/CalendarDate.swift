import Foundation

/// A calendar day without a time or time zone, for the OpenAPI format
/// `date` (`2024-05-01`). Using `Date` for it would shift the day in time
/// zones west of UTC.
///
/// Its initialisers throw ``InvalidValueError`` rather than returning nil,
/// so a day that does not exist never turns into an argument left out of a
/// call.
public struct CalendarDate: Codable, Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The year.
    public var year: Int
    /// The month, 1-12.
    public var month: Int
    /// The day of the month, 1-31.
    public var day: Int

    /// Creates a date; throws ``InvalidValueError`` when the day does not
    /// exist (`2023-02-29`).
    public init(year: Int, month: Int, day: Int) throws(InvalidValueError) {
        guard let date = Self(validYear: year, month: month, day: day) else {
            throw InvalidValueError(typeName: "CalendarDate", expected: "a day that exists (month 1-12, day within the month)", inputLength: nil)
        }
        self = date
    }

    /// The date, or nil when the day does not exist.
    init?(validYear year: Int, month: Int, day: Int) {
        // RFC 3339's full-date is proleptic Gregorian: the leap-year rule
        // applies to every year (no Julian dates before 1582). Arithmetic,
        // not `Calendar`: a response can hold thousands of dates, and a
        // calendar per date was most of their decoding time.
        guard (1...12).contains(month), day >= 1, day <= Self.days(inMonth: month, of: year) else { return nil }
        (self.year, self.month, self.day) = (year, month, day)
    }

    /// The number of days of a month of a year.
    static func days(inMonth month: Int, of year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Parses `YYYY-MM-DD`; throws ``InvalidValueError`` for anything else.
    public init(_ text: String) throws(InvalidValueError) {
        guard let date = Self(parsing: text) else {
            throw InvalidValueError(typeName: "CalendarDate", expected: "YYYY-MM-DD, a day that exists", inputLength: text.count)
        }
        self = date
    }

    /// Parses `YYYY-MM-DD`; nil for anything else (the runtime's decoders,
    /// which throw their own errors).
    init?(parsing text: String) {
        // `withUTF8`, not `utf8.withContiguousStorageIfAvailable`: a date is a
        // small string, stored inline, which has no contiguous storage to lend
        // (the fallback copied it into an array on every date).
        var text = text
        guard let date = text.withUTF8({ Self(utf8: $0) }) else { return nil }
        self = date
    }

    /// Parses the bytes of `YYYY-MM-DD`; nil for anything else. The
    /// response decoder reads a string's bytes in place with it.
    init?(utf8: UnsafeBufferPointer<UInt8>) {
        guard let (year, month, day) = Self.parse(utf8) else { return nil }
        self.init(validYear: year, month: month, day: day)
    }

    /// Year, month and day of exactly `DDDD-DD-DD` in ASCII digits.
    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> (Int, Int, Int)? {
        guard bytes.count == 10, bytes[bytes.startIndex + 4] == UInt8(ascii: "-"), bytes[bytes.startIndex + 7] == UInt8(ascii: "-") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for offset in range {
                let byte = bytes[bytes.startIndex + offset]
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10) else { return nil }
        return (year, month, day)
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
        guard let date = CalendarDate(parsing: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: Self.invalidDescription(text))
        }
        self = date
    }

    /// What a decoding error says of a string that is not a date.
    static func invalidDescription(_ text: String) -> String {
        "'\(text)' is not a date (YYYY-MM-DD)"
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
