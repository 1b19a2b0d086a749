/// An HTTP request as a contract check sees it: what arrived on the wire,
/// the path relative to the server's base path (the spec's `paths` keys).
public struct ContractRequest: Sendable {
    /// The method, upper case (`GET`).
    public var method: String
    /// The path, percent-encoded as received, without the query (`/api/moods/7`).
    public var path: String
    /// The raw query, without `?`; nil when there is none.
    public var query: String?
    /// The header fields; names compare case-insensitively.
    public var headers: [(name: String, value: String)]
    /// The body bytes; nil or empty when there is none.
    public var body: [UInt8]?

    /// Creates a request.
    public init(method: String, path: String, query: String? = nil, headers: [(name: String, value: String)] = [], body: [UInt8]? = nil) {
        self.method = method.uppercased()
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
    }

    /// The first value of the header `name`, if any.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveEquals(name) }?.value
    }
}

extension String {
    func caseInsensitiveEquals(_ other: String) -> Bool {
        utf8.count == other.utf8.count && lowercased() == other.lowercased()
    }
}
