import Foundation

/// The JSON encoders and decoders generated clients use.
///
/// Dates (`format: date-time`) decode from RFC 3339 with or without
/// fractional seconds and with any offset (`2024-05-01T10:00:00Z`,
/// `2024-05-01T10:00:00.123+02:00`), and encode as UTC with milliseconds when
/// the date has them. Keys are written sorted, so request bodies are stable.
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

    /// Formats a date as RFC 3339 in UTC, with milliseconds when it has any.
    public static func formatDateTime(_ date: Date) -> String {
        // To the nearest millisecond. The formatter truncates, and a parsed
        // `.124` is often stored as 0.12399...: half a millisecond added
        // makes the truncation land on the rounded value, so a date read
        // from a server is sent back exactly as it came.
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        if milliseconds.truncatingRemainder(dividingBy: 1000) == 0 {
            return Date(timeIntervalSince1970: milliseconds / 1000).formatted(withoutFraction)
        }
        return Date(timeIntervalSince1970: (milliseconds + 0.5) / 1000).formatted(withFraction)
    }

    // Value types, made once: decoding a list of dates creates no formatter
    // per value. The fractional style parses both forms (and microseconds).
    private static let withFraction = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    private static let withoutFraction = Date.ISO8601FormatStyle()
}
