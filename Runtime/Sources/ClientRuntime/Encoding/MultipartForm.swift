import Foundation

/// A `multipart/form-data` body (RFC 7578), built part by part.
///
/// Generated code appends each property of the body schema: `Data` as a file
/// part (`application/octet-stream`), strings, numbers and booleans as text,
/// anything else as JSON; `nil` values are left out.
public struct MultipartForm: Sendable {
    /// One part.
    public struct Part: Sendable, Hashable {
        /// The form field name.
        public var name: String
        /// The file name, for file parts.
        public var filename: String?
        /// The part's `Content-Type`.
        public var contentType: String
        /// The part's bytes.
        public var data: Data
    }

    /// The boundary between parts.
    public let boundary: String
    /// The parts, in order.
    public private(set) var parts: [Part] = []

    /// An empty form with a random boundary (or a given one, for tests).
    public init(boundary: String = "clientgen-" + UUID().uuidString.lowercased()) {
        self.boundary = boundary
    }

    /// Appends a file part; nil appends nothing.
    public mutating func append(_ name: String, _ data: Data?, filename: String? = nil, contentType: String = "application/octet-stream") {
        guard let data else { return }
        parts.append(Part(name: name, filename: filename ?? name, contentType: contentType, data: data))
    }

    /// Appends a text or JSON part; nil appends nothing. A scalar is written
    /// as its text unless `contentType` is JSON (OpenAPI: a primitive part
    /// is `text/plain`, and an `encoding` media type such as
    /// `application/sdp` names what the text is, not a JSON string).
    public mutating func append<Value: Encodable>(_ name: String, _ value: Value?, contentType: String? = nil) throws {
        guard let value else { return }
        let json = try JSONValue(encoding: value)
        if let text = json.parameterText, !(contentType.map(Self.isJSON) ?? false) {
            parts.append(Part(name: name, contentType: contentType ?? "text/plain", data: Data(text.utf8)))
        } else {
            parts.append(Part(name: name, contentType: contentType ?? "application/json", data: try JSONCoding.makeEncoder().encode(json)))
        }
    }

    private static func isJSON(_ mediaType: String) -> Bool {
        let base = mediaType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        return base == "application/json" || base.hasSuffix("+json")
    }

    /// Appends a part per member of a value that encodes to a JSON object
    /// (scalars as text, the rest as JSON); for bodies whose schema the
    /// generator did not declare as an object.
    public mutating func appendFields<Value: Encodable>(of value: Value) throws {
        guard case .object(let members) = try JSONValue(encoding: value) else {
            throw ParameterEncodingError(reason: "a multipart/form-data body must be an object")
        }
        for (name, member) in JSONValue.sortedMembers(members) where member != .null {
            try append(name, member)
        }
    }

    /// The encoded body.
    public func encoded() -> Data {
        var data = Data()
        for part in parts {
            var head = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(Self.quoted(part.name))\""
            if let filename = part.filename { head += "; filename=\"\(Self.quoted(filename))\"" }
            head += "\r\nContent-Type: \(part.contentType)\r\n\r\n"
            data.append(contentsOf: head.utf8)
            data.append(part.data)
            data.append(contentsOf: "\r\n".utf8)
        }
        data.append(contentsOf: "--\(boundary)--\r\n".utf8)
        return data
    }

    private static func quoted(_ text: String) -> String {
        text.replacingOccurrences(of: "\"", with: "%22").replacingOccurrences(of: "\r", with: "%0D").replacingOccurrences(of: "\n", with: "%0A")
    }
}
