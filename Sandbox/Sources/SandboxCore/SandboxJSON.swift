import ContractCheck
import Foundation

/// JSON in and out for the stateful backends: bodies read as
/// `JSONSerialization` objects, answers written with sorted keys.
enum SandboxJSON {
    /// The body as a JSON object, or an empty one.
    static func object(_ bytes: [UInt8]?) -> [String: Any] {
        ((try? JSONSerialization.jsonObject(with: Data(bytes ?? []))) as? [String: Any]) ?? [:]
    }

    /// JSON text for an array or object.
    static func text(_ value: Any) -> String {
        guard JSONSerialization.isValidJSONObject(value),
            let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes])
        else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    /// A JSON reply of `value`.
    static func reply(_ status: Int, _ value: Any, headers: [(name: String, value: String)] = []) -> SandboxReply {
        var reply = SandboxReply.json(status, text(value))
        reply.headers += headers
        return reply
    }

    /// The first value of the query parameter `name`, percent-decoded.
    static func query(_ query: String?, _ name: String) -> String? {
        for pair in (query ?? "").split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            if parts.first == name {
                let raw = parts.count == 2 ? parts[1].replacingOccurrences(of: "+", with: " ") : ""
                return raw.removingPercentEncoding ?? raw
            }
        }
        return nil
    }

    /// The bearer token of the request, if it carries one.
    static func bearer(_ request: ContractRequest) -> String? {
        guard let header = request.header("Authorization"), header.lowercased().hasPrefix("bearer ") else { return nil }
        return String(header.dropFirst(7))
    }

    /// `2025-01-15T08:30:00Z` (whole seconds) or with milliseconds.
    static func timestamp(_ date: Date, fractional: Bool = false) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = fractional ? [.withInternetDateTime, .withFractionalSeconds] : [.withInternetDateTime]
        return formatter.string(from: date)
    }

    /// A date-time in either form, or nil.
    static func date(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text) ?? ISO8601DateFormatter().date(from: text)
    }
}
