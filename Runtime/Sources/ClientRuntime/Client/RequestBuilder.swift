import Foundation
import HTTPTypes
import OpenAPIRuntime

/// The request of one operation call, filled in by generated code:
/// path parameters, query items, headers and the body, each encoded as the
/// spec's `style` and `explode` say.
public struct RequestBuilder: Sendable {
    /// The operation being called.
    public let operation: OperationDescriptor
    /// The path with its parameters filled in (`/pets/42`).
    public var path: String
    /// Encoded `name=value` query items, in order.
    public var queryItems: [String] = []
    /// Request headers.
    public var headerFields = HTTPFields()
    /// Encoded cookies (`name=value`).
    public var cookies: [String] = []
    /// The encoded body.
    public var body: Data?
    /// A body written while it is sent (``setEventStreamBody(_:format:contentType:)``),
    /// in place of ``body``; it can be read once.
    private(set) var streamedBody: HTTPBody?

    /// Starts a request for `operation` with its path template. A template
    /// that holds a query (`/keys?api-version=2021-05-01`, as some specs
    /// write a fixed one into the path key) sends that query first; one
    /// that holds a fragment (`/token#refresh`, which tells two keys of one
    /// path apart) sends none, as no request carries a fragment.
    public init(_ operation: OperationDescriptor) {
        self.operation = operation
        var template = Substring(operation.pathTemplate)
        if let hash = template.firstIndex(of: "#") { template = template[..<hash] }
        if let question = template.firstIndex(of: "?") {
            for item in template[template.index(after: question)...].split(separator: "&") where !item.isEmpty {
                let (name, value) = item.firstIndex(of: "=").map { (item[..<$0], item[item.index(after: $0)...]) } ?? (item, "")
                let decodedName = String(name).removingPercentEncoding ?? String(name)
                let decodedValue = String(value).removingPercentEncoding ?? String(value)
                queryItems.append(
                    ParameterEncoding.escape(decodedName, allowing: ParameterEncoding.queryNameSafe) + "="
                        + ParameterEncoding.escape(decodedValue, allowing: ParameterEncoding.queryValueSafe))
            }
            template = template[..<question]
        }
        self.path = String(template)
    }

    // MARK: Parameters

    /// Replaces `{name}` in the path with the value (`simple` style, or
    /// `label`/`matrix` when the spec says so).
    public mutating func setPath<Value: Encodable>(_ name: String, _ value: Value, style: String = "simple", explode: Bool = false) throws {
        let encoded = try ParameterValue(encoding: value)
        path = path.replacingOccurrences(of: "{\(name)}", with: ParameterEncoding.pathValue(name: name, value: encoded, style: style, explode: explode))
    }

    /// Adds a query parameter; `nil` adds nothing. Any value its schema
    /// allows has a form (`ParameterEncoding.items`):
    /// nested objects and arrays in brackets.
    public mutating func addQuery<Value: Encodable>(
        _ name: String, _ value: Value?, style: ParameterEncoding.QueryStyle = .form, explode: Bool = true, allowReserved: Bool = false
    ) throws {
        guard let value else { return }
        let json = try JSONValue(encoding: value)
        // A null sent for an optional parameter is `name=` (the spec's empty value).
        if json == .null {
            queryItems.append(ParameterEncoding.escape(name, allowing: ParameterEncoding.queryNameSafe) + "=")
            return
        }
        queryItems += ParameterEncoding.items(name: name, value: json, style: style, explode: explode, allowReserved: allowReserved)
    }

    /// Sets a header parameter (`simple` style); `nil` sets nothing.
    public mutating func setHeader<Value: Encodable>(_ name: String, _ value: Value?, explode: Bool = false) throws {
        guard let value, let fieldName = HTTPField.Name(name) else { return }
        headerFields[fieldName] = try ParameterValue(encoding: value).headerText(explode: explode)
    }

    /// Adds a cookie parameter (`form` style); `nil` adds nothing. An array
    /// or object is `id=3,4` (`role,admin,id,7`), or with `explode` a cookie
    /// per item (`id=3; id=4`) or member (`role=admin; id=7`), as OpenAPI
    /// 3.2's `cookie` style spells out what `form` meant in a cookie. Each
    /// value is percent-encoded, so `;` or `,` in it cannot start another.
    /// With `percentEncoding: false` (the 3.2 `cookie` style, whose values
    /// the app passes already escaped) a value goes as it is, except for
    /// what RFC 6265 allows in no cookie value (spaces, quotes, `,`, `;`,
    /// `\`, controls, letters outside ASCII), which is still
    /// percent-encoded: a value cannot add a cookie of its own.
    public mutating func addCookie<Value: Encodable>(_ name: String, _ value: Value?, explode: Bool = false, percentEncoding: Bool = true) throws {
        guard let value else { return }
        let allowed = percentEncoding ? ParameterEncoding.unreserved : Self.cookieOctets
        func escaped(_ text: String) -> String { ParameterEncoding.escape(text, allowing: allowed) }
        switch try ParameterValue(encoding: value) {
        case .array(let items) where explode:
            cookies += items.map { "\(name)=\(escaped($0))" }
        case .object(let pairs) where explode:
            cookies += pairs.map { "\(escaped($0.0))=\(escaped($0.1))" }
        case let other:
            cookies.append("\(name)=\(escaped(other.headerText(explode: false)))")
        }
    }

    /// RFC 6265's `cookie-octet`: what a cookie value may hold as it is.
    static let cookieOctets: Set<UInt8> = Set((0x21...0x7E).filter { ![0x22, 0x2C, 0x3B, 0x5C].contains($0) }.map { UInt8($0) })

    // MARK: Bodies

    /// Sets a JSON body (`application/json` or another JSON media type).
    public mutating func setJSONBody<Body: Encodable>(_ value: Body, contentType: String = "application/json") throws {
        body = try JSONCoding.makeEncoder().encode(value)
        headerFields[.contentType] = contentType
    }

    /// Sets an `application/x-www-form-urlencoded` body from an object's
    /// properties, each written as the spec's `encoding` for it says
    /// (`ParameterEncoding.formItems`): by default scalars
    /// and arrays of scalars as `form` (`tag=a&tag=b`), objects and nested
    /// arrays in brackets (`line_items[0][price]=p_1`).
    public mutating func setFormBody<Body: Encodable>(_ value: Body, encodings: [String: FormFieldEncoding] = [:]) throws {
        let items = try ParameterEncoding.formItems(JSONValue(encoding: value), encodings: encodings)
        body = Data(items.joined(separator: "&").utf8)
        headerFields[.contentType] = "application/x-www-form-urlencoded"
    }

    /// Sets a multipart body (`multipart/form-data`, or the form's other
    /// `MultipartForm.mediaType`).
    public mutating func setMultipartBody(_ form: MultipartForm) {
        body = form.encoded()
        headerFields[.contentType] = "\(form.mediaType); boundary=\(form.boundary)"
    }

    /// Sets raw bytes (`application/octet-stream`, images, ...).
    public mutating func setDataBody(_ data: Data, contentType: String) {
        body = data
        headerFields[.contentType] = contentType
    }

    /// Sets a body of bytes that arrive while it is sent, read once.
    mutating func setStreamedBody(_ streamed: HTTPBody, contentType: String) {
        body = nil
        streamedBody = streamed
        headerFields[.contentType] = contentType
    }

    /// Sets a text body (`text/plain`, ...).
    public mutating func setTextBody(_ text: String, contentType: String) {
        body = Data(text.utf8)
        headerFields[.contentType] = contentType
    }

    /// Sets the whole query string from one value, as OpenAPI 3.2's
    /// `in: querystring` parameter says: written as its media type,
    /// `application/x-www-form-urlencoded` (an object's properties as a form
    /// body writes them: `q=caf%C3%A9&limit=5`) or JSON (the value's JSON
    /// text, percent-encoded). Nil sends no query string of its own; the
    /// query the path template holds stays.
    public mutating func setQueryString<Value: Encodable>(_ value: Value?, contentType: String) throws {
        guard let value else { return }
        let json = try JSONValue(encoding: value)
        let base = contentType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        if base == "application/x-www-form-urlencoded" {
            queryItems += try ParameterEncoding.formItems(json)
        } else {
            let text = String(decoding: try JSONCoding.makeEncoder().encode(json), as: UTF8.self)
            queryItems.append(ParameterEncoding.escape(text, allowing: ParameterEncoding.unreserved))
        }
    }

    /// Sets `Accept`.
    public mutating func accept(_ contentTypes: String) {
        headerFields[.accept] = contentTypes
    }

    /// The request as swift-http-types describes it (the path carries the query).
    public func makeHTTPRequest() -> HTTPRequest {
        var fields = headerFields
        if !cookies.isEmpty { fields[.cookie] = cookies.joined(separator: "; ") }
        let fullPath = queryItems.isEmpty ? path : path + "?" + queryItems.joined(separator: "&")
        return HTTPRequest(method: operation.method, scheme: nil, authority: nil, path: fullPath, headerFields: fields)
    }
}
