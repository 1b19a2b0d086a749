import Foundation
import HTTPTypes
import RuntimeSupport

/// The message a server put in an error response, as an HTTP error's
/// description quotes it: what a developer reading "status 400" needs
/// next, without printing a body that can echo what the caller sent.
///
/// Only a message is taken, never the whole body: from a JSON object, the
/// first string of `message`, `error_description`, `detail`, `title`,
/// `error` (or `error.message`, `errors[0].message`, `errors[0].detail`);
/// from a `text/plain` body, its text. At most 200 characters, on one
/// line, with bearer tokens, JWTs and phone numbers masked by the rule the
/// redactor uses for free text.
enum ServerMessage {
    /// The most characters quoted.
    static let limit = 200

    /// The members that hold a message, in the order they are tried.
    private static let messageKeys = ["message", "error_description", "detail", "title", "error"]

    /// The message in `body`, or nil when the body has none.
    static func quoted(from body: Data, headerFields: HTTPFields) -> String? {
        guard !body.isEmpty else { return nil }
        let contentType = headerFields[.contentType]?.lowercased() ?? ""
        let text: String?
        if contentType.contains("json") || (contentType.isEmpty && body.first == UInt8(ascii: "{")) {
            text = jsonMessage(body)
        } else if contentType.hasPrefix("text/plain") || contentType.isEmpty {
            text = String(data: body.prefix(4 * limit), encoding: .utf8).map { String($0) }
        } else {
            text = nil
        }
        guard let text else { return nil }
        let line = String(text.unicodeScalars.map { CharacterSet.controlCharacters.contains($0) ? " " : Character($0) })
            .trimmingCharacters(in: .whitespaces)
        guard !line.isEmpty else { return nil }
        let cut = line.count > limit ? String(line.prefix(limit)) + "..." : line
        return SecretTextMask.masked(cut)
    }

    private static func jsonMessage(_ body: Data) -> String? {
        guard let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] else { return nil }
        return message(in: object) ?? (object["errors"] as? [Any])?.first.flatMap { ($0 as? [String: Any]).flatMap(message(in:)) }
    }

    private static func message(in object: [String: Any]) -> String? {
        for key in messageKeys {
            if let text = object[key] as? String, !text.isEmpty { return text }
        }
        if let nested = object["error"] as? [String: Any], let text = nested["message"] as? String, !text.isEmpty { return text }
        return nil
    }
}
