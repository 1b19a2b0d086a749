import Foundation

/// The JSON encoders and decoders generated clients use.
///
/// Dates (`format: date-time`) decode from RFC 3339 with or without
/// fractional seconds and with any offset (`2024-05-01T10:00:00Z`,
/// `2024-05-01T10:00:00.123456789+02:00`), and encode as UTC with the
/// fraction of a second the date holds, to the microsecond (a `Date` holds
/// about a tenth of one in this century): a date read from a server goes
/// back as it came, fractions and all. Keys are written sorted, so request
/// bodies are stable.
public enum JSONCoding {
    /// A decoder with the date rules above.
    public static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = parseDateTime(text) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(text)' is not an RFC 3339 date-time")
            }
            return date
        }
        return decoder
    }

    /// An encoder with the date rules above and sorted keys.
    public static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(formatDateTime(date))
        }
        return encoder
    }

    /// Parses an RFC 3339 date-time, with or without fractional seconds.
    public static func parseDateTime(_ text: String) -> Date? {
        try? withFraction.parse(text)
    }

    /// Formats a date as RFC 3339 in UTC, with its fraction of a second to
    /// the microsecond when it has one (at least three digits:
    /// `10:00:00.500Z`, `10:00:00.123456Z`).
    public static func formatDateTime(_ date: Date) -> String {
        // To the nearest microsecond: a parsed `.124` is often stored as
        // 0.12399..., and rounding lands on what was read. The formatter
        // writes whole seconds; the fraction is written here, since its
        // own fractional style stops at milliseconds.
        let microseconds = (date.timeIntervalSince1970 * 1_000_000).rounded()
        let seconds = (microseconds / 1_000_000).rounded(.down)
        let fraction = Int(microseconds - seconds * 1_000_000)
        let whole = Date(timeIntervalSince1970: seconds).formatted(withoutFraction)
        guard fraction > 0, whole.hasSuffix("Z") else { return whole }
        var digits = String(fraction)
        digits = String(repeating: "0", count: 6 - digits.count) + digits
        while digits.count > 3, digits.hasSuffix("0") { digits.removeLast() }
        return whole.dropLast() + "." + digits + "Z"
    }

    // Value types, made once: decoding a list of dates creates no formatter
    // per value. The fractional style parses both forms (and any number of
    // fractional digits).
    private static let withFraction = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    private static let withoutFraction = Date.ISO8601FormatStyle()
}
