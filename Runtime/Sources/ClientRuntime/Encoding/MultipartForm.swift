import Foundation

/// A `multipart/form-data` body (RFC 7578), built part by part, or another
/// multipart body (`multipart/mixed`, RFC 2046) whose parts stand by
/// position.
///
/// Generated code appends each property of the body schema: `Data` as a file
/// part (`application/octet-stream`), strings, numbers and booleans as text,
/// anything else as JSON; `nil` values are left out. For a body whose schema
/// is an array, it appends each item as a part of its own
/// (``appendItems(_:prefixContentTypes:itemContentType:)``).
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
    /// The body's media type without its boundary (`multipart/form-data`,
    /// or `multipart/mixed` for parts by position).
    let mediaType: String
    /// The parts, in order.
    public private(set) var parts: [Part] = []

    /// An empty body with a random boundary (or a given one, for tests).
    public init(boundary: String = "clientgen-" + UUID().uuidString.lowercased(), mediaType: String = "multipart/form-data") {
        self.boundary = boundary
        self.mediaType = mediaType
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

    /// Appends each item as a part of its own (no name), in order, as OpenAPI 3.2's
    /// `prefixEncoding` and `itemEncoding` say: item `i` has the media type
    /// `prefixContentTypes[i]`, the items past them `itemContentType`; nil
    /// for the default (`Data` as `application/octet-stream`, a scalar as
    /// text, anything else as JSON).
    public mutating func appendItems<Item: Encodable>(_ items: [Item], prefixContentTypes: [String?] = [], itemContentType: String? = nil) throws {
        for (index, item) in items.enumerated() {
            let contentType = index < prefixContentTypes.count ? prefixContentTypes[index] : itemContentType
            if let data = item as? Data {
                append("", data, filename: nil, contentType: contentType ?? "application/octet-stream")
            } else {
                try append("", item, contentType: contentType)
            }
        }
    }

    /// The encoded body.
    public func encoded() -> Data {
        var data = Data()
        for part in parts {
            var head = "--\(boundary)\r\n"
            // A named field has its disposition; a part by position has none.
            if !part.name.isEmpty {
                head += "Content-Disposition: form-data; name=\"\(Self.quoted(part.name))\""
                if let filename = part.filename { head += "; filename=\"\(Self.quoted(filename))\"" }
                head += "\r\n"
            }
            head += "Content-Type: \(part.contentType)\r\n\r\n"
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
