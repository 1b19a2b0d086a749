import Foundation
import HTTPTypes

/// The server answered with a status the spec does not document for the
/// operation. Carries everything the response had.
public struct UndocumentedResponseError: Error, Sendable, CustomStringConvertible {
    /// The operation.
    public let operationID: String
    /// The response status and headers.
    public let response: HTTPResponse
    /// The raw body (at most the first MiB).
    public let body: [UInt8]

    /// Creates the error.
    public init(operationID: String, response: HTTPResponse, body: [UInt8]) {
        self.operationID = operationID
        self.response = response
        self.body = body
    }

    /// `operationID: undocumented response status 418: "I'm a teapot"`: the
    /// server's message as ``APIError`` quotes it, never the whole body.
    public var description: String {
        "\(operationID): undocumented response status \(response.status.code)"
            + (ServerMessage.quoted(from: Data(body), headerFields: response.headerFields).map { ": \"\($0)\"" } ?? "")
    }
}

/// A response body that does not match the spec, with the field at fault.
public struct ResponseDecodingError: Error, Sendable, CustomStringConvertible {
    /// The operation.
    public let operationID: String
    /// The response status.
    public let status: Int
    /// The path of the field at fault, as JSON names: `branding[3].logo_url`;
    /// empty for the body itself.
    public let field: String
    /// What is wrong with it.
    public let reason: String
    /// The response headers.
    public let headerFields: HTTPFields
    /// The body's bytes as received, so that what the server did send (an
    /// error envelope's trace id, say) is not lost with the decoding. Not
    /// part of ``description``: bodies can echo what the caller sent.
    public let rawBody: Data

    /// Creates the error.
    public init(operationID: String, status: Int, field: String, reason: String, headerFields: HTTPFields = [:], rawBody: Data = Data()) {
        self.operationID = operationID
        self.status = status
        self.field = field
        self.reason = reason
        self.headerFields = headerFields
        self.rawBody = rawBody
    }

    /// Describes a `DecodingError` (or another error thrown while decoding) in these terms.
    public init(operationID: String, status: Int, decoding error: any Error, headerFields: HTTPFields = [:], rawBody: Data = Data()) {
        var path: [any CodingKey] = []
        let reason: String
        switch error as? DecodingError {
        case .typeMismatch(let type, let context)?:
            path = context.codingPath
            reason = "expected \(type): \(context.debugDescription)"
        case .valueNotFound(let type, let context)?:
            path = context.codingPath
            reason = "a \(type) value is required but was null or missing"
        case .keyNotFound(let key, let context)?:
            path = context.codingPath + [key]
            reason = "the required field is missing"
        case .dataCorrupted(let context)?:
            path = context.codingPath
            // Foundation's decoder reports a number that does not fit its
            // Swift type (an int32 past 2^31) as invalid JSON, without a
            // path; say what it is when the body is valid JSON.
            if context.codingPath.isEmpty, context.debugDescription.contains("not valid JSON"),
               (try? JSONSerialization.jsonObject(with: rawBody, options: .fragmentsAllowed)) != nil {
                reason = "the body is valid JSON, but a value does not fit its type (a number out of its format's range?)"
            } else {
                reason = context.debugDescription
            }
        default:
            reason = String(describing: error)
        }
        self.init(operationID: operationID, status: status, field: Self.render(path), reason: reason, headerFields: headerFields, rawBody: rawBody)
    }

    /// `operationID: response 200 does not match the spec at branding[3].logo_url: ...`.
    public var description: String {
        "\(operationID): response \(status) does not match the spec" + (field.isEmpty ? "" : " at \(field)") + ": \(reason)"
    }

    private static func render(_ path: [any CodingKey]) -> String {
        var text = ""
        for key in path {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += (text.isEmpty ? "" : ".") + key.stringValue
            }
        }
        return text
    }
}
