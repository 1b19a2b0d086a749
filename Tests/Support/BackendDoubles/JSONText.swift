import Foundation

extension JSONText {
    /// A JSON object from a request body, or nil.
    package static func object(_ bytes: [UInt8]) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any]
    }

    /// JSON text for `value`.
    package static func text(_ value: Any) -> String {
        precondition(JSONSerialization.isValidJSONObject(value), "not a JSON array or object: \(type(of: value))")
        let data = (try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}

/// JSON helpers for the doubles.
package enum JSONText {}

