import Foundation
import HTTPTypes

/// A response with its body read, as generated code receives it; decodes
/// the body into the type the spec documents for the status.
public struct ClientResponse: Sendable {
    /// The operation that was called.
    public let operationID: String
    /// The status and headers.
    public let response: HTTPResponse
    /// The whole body.
    public let body: Data
    /// Whether decoded bodies are checked against the spec's constraints
    /// (``ConstraintChecks/responses``).
    public let validatesBody: Bool

    /// Creates a response.
    public init(operationID: String, response: HTTPResponse, body: Data, validatesBody: Bool = false) {
        self.operationID = operationID
        self.response = response
        self.body = body
        self.validatesBody = validatesBody
    }

    /// The status code.
    public var status: Int { response.status.code }

    /// Decodes a JSON body; a mismatch throws ``ResponseDecodingError``
    /// naming the field. When responses are checked, a decoded value that
    /// breaks the spec's constraints throws ``ConstraintViolation``.
    public func decodeJSON<Body: Decodable>(_ type: Body.Type = Body.self) throws -> Body {
        let value: Body
        do {
            value = try ResponseJSONDecoder().decode(Body.self, from: body)
        } catch {
            throw ResponseDecodingError(operationID: operationID, status: status, decoding: error, headerFields: response.headerFields, rawBody: body)
        }
        if validatesBody, let checked = value as? any Validatable {
            try ConstraintValidator.validate(checked, operationID: operationID, root: "response", isInResponse: true)
        }
        return value
    }

    /// The body as UTF-8 text.
    public func decodeText() -> String { String(decoding: body, as: UTF8.self) }

    /// Reads a response header into the documented type; nil when absent,
    /// and nil (not an error) when the server sent something unreadable.
    public func header<Value: Decodable>(_ name: String, as type: Value.Type = Value.self) -> Value? {
        guard let fieldName = HTTPField.Name(name), let text = response.headerFields[fieldName] else { return nil }
        if let value = text as? Value { return value }
        let decoder = JSONCoding.makeDecoder()
        if let value = try? decoder.decode(Value.self, from: Data(text.utf8)) { return value }
        let quoted = (try? JSONCoding.makeEncoder().encode(text)) ?? Data()
        return try? decoder.decode(Value.self, from: quoted)
    }

    /// The result for a documented success status.
    public func success<Body: Sendable>(_ body: Body) -> Response<Body> {
        Response(status: status, headerFields: response.headerFields, body: body, rawBody: self.body)
    }

    /// The error for a documented error status, its body decoded.
    public func failure<Body: Sendable>(_ body: Body) -> APIError<Body> {
        APIError(operationID: operationID, status: status, headerFields: response.headerFields, body: body, rawBody: self.body)
    }

    /// The error for a status the spec does not document.
    public func undocumented() -> UndocumentedResponseError {
        UndocumentedResponseError(operationID: operationID, response: response, body: Array(body.prefix(1 << 20)))
    }
}

/// A documented success: the decoded body with the status and headers, for
/// callers that need more than the body (`Retry-After`, `ETag`, pagination
/// links).
public struct Response<Body: Sendable>: Sendable {
    /// The status code.
    public let status: Int
    /// The response headers.
    public let headerFields: HTTPFields
    /// The decoded body.
    public let body: Body
    /// The body's bytes as received.
    public let rawBody: Data

    /// Creates a response.
    public init(status: Int, headerFields: HTTPFields, body: Body, rawBody: Data) {
        self.status = status
        self.headerFields = headerFields
        self.body = body
        self.rawBody = rawBody
    }
}

/// A status the spec documents as an error, with its decoded body.
///
/// `Body` is the documented schema (SOUL's `ErrorDetail`, Safepocket's
/// `ErrorEnvelope`) when all error statuses of the operation share one, or
/// a generated enum with a case per status:
///
/// ```swift
/// do { try await client.verifyOTP(body: request) }
/// catch let error as APIError<ErrorDetail> where error.status == 429 {
///     showCountdown(error.headerFields[.retryAfter])
/// }
/// ```
public struct APIError<Body: Sendable>: Error, Sendable, CustomStringConvertible {
    /// The operation.
    public let operationID: String
    /// The status code.
    public let status: Int
    /// The response headers.
    public let headerFields: HTTPFields
    /// The decoded body.
    public let body: Body
    /// The body's bytes as received.
    public let rawBody: Data

    /// Creates an error.
    public init(operationID: String, status: Int, headerFields: HTTPFields, body: Body, rawBody: Data) {
        self.operationID = operationID
        self.status = status
        self.headerFields = headerFields
        self.body = body
        self.rawBody = rawBody
    }

    /// `operationID: documented error status 400 (EmptyBody): "name is
    /// required"`: the server's message when the body has one
    /// (`message`, `detail`, `error_description`, a text body; at most 200
    /// characters, tokens and phone numbers masked), never the whole body,
    /// since error bodies can echo what the caller sent.
    public var description: String {
        "\(operationID): documented error status \(status) (\(Body.self))"
            + (ServerMessage.quoted(from: rawBody, headerFields: headerFields).map { ": \"\($0)\"" } ?? "")
    }
}

/// The body of a response that the spec documents without content.
public struct EmptyBody: Codable, Hashable, Sendable {
    /// The empty body.
    public init() {}
}
