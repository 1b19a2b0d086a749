import ContractCheck
import Foundation
import OpenAPIModel

/// One backend the sandbox serves: its spec, the path prefix it answers
/// under, and the contract every request to it is checked against.
public struct SandboxBackend: Sendable {
    /// The backend's name, and the first path segment it answers under
    /// (`soul` -> `http://127.0.0.1:8080/soul/api/moods`).
    public let name: String
    /// The spec's file, as given.
    public let specPath: String
    /// The spec's request rules.
    public let contract: RequestContract
    /// The state behind the answers; nil answers every valid request with
    /// the spec's documented example.
    public let behaviour: (any SandboxBehaviour)?

    /// Loads the spec at `specPath`; a spec with errors throws
    /// ``RequestContract/LoadError`` naming them.
    public init(name: String, specPath: String, behaviour: (any SandboxBehaviour)? = nil) throws {
        self.name = name
        self.specPath = specPath
        contract = try RequestContract(specPath: specPath)
        self.behaviour = behaviour
    }

    /// The response the spec documents for a valid request: the first
    /// success status (2xx, lowest first), with its example body when the
    /// spec gives one.
    func documentedSuccess(for operationID: String?) -> SandboxReply {
        let document = contract.document
        guard let operation = operation(operationID) else {
            return .json(500, #"{"error": "sandbox", "message": "the matched operation is gone"}"#)
        }
        let successes = operation.responses.compactMap { key, response -> (Int, Response)? in
            guard let code = Int(key), (200..<300).contains(code), let resolved = document.resolve(response) else { return nil }
            return (code, resolved)
        }.sorted { $0.0 < $1.0 }
        guard let (status, response) = successes.first else { return SandboxReply(status: 204, headers: [], body: []) }
        guard let (contentType, media) = response.content.first(where: { _ in true }).map({ ($0.key, $0.value) }) else {
            return SandboxReply(status: status, headers: [], body: [])
        }
        guard let body = DocumentedExample.body(of: media, contentType: contentType, in: document) else {
            return SandboxReply(status: status, headers: [], body: [])
        }
        return SandboxReply(status: status, headers: [("Content-Type", contentType)], body: body)
    }
}

extension SandboxBackend {
    /// The operation with `operationID` (its `operationId`, or `METHOD /path`).
    func operation(_ operationID: String?) -> OpenAPIModel.Operation? {
        guard let operationID else { return nil }
        return contract.document.operations.first { ($0.operation.operationId ?? "\($0.method.wireName) \($0.path)") == operationID }?.operation
    }

    /// The response the operation documents for `status`: its own code,
    /// else its range (`4XX`), else `default`.
    func documentedResponse(for status: Int, of operationID: String?) -> Response? {
        guard let operation = operation(operationID) else { return nil }
        return Self.responseKeys(for: status).lazy.compactMap { operation.responses[$0] }.first.flatMap { contract.document.resolve($0) }
    }

    /// Which of `statuses` the operation documents, by code, range or `default`.
    func documentedStatuses(_ statuses: [Int], of operationID: String?) -> Set<Int> {
        guard let operation = operation(operationID) else { return [] }
        return Set(statuses.filter { status in Self.responseKeys(for: status).contains { operation.responses[$0] != nil } })
    }

    /// The `responses` keys that answer for `status`, most specific first:
    /// its code, its range (`4XX`, either case), then `default`.
    private static func responseKeys(for status: Int) -> [String] {
        [String(status), "\(status / 100)XX", "\(status / 100)xx", "default"]
    }

    /// The body the spec documents for `status` of the operation (its
    /// example), as a reply of that status; nil when it documents none.
    func documentedError(status: Int, of operationID: String?) -> SandboxReply? {
        guard let response = documentedResponse(for: status, of: operationID),
            let (contentType, media) = response.content.first(where: { $0.key.contains("json") }).map({ ($0.key, $0.value) }),
            let body = DocumentedExample.body(of: media, contentType: contentType, in: contract.document)
        else { return nil }
        return SandboxReply(status: status, headers: [("Content-Type", contentType)], body: body)
    }
}

/// What the sandbox answers: status, headers, body.
public struct SandboxReply: Sendable, Equatable {
    /// The status code.
    public var status: Int
    /// The header fields.
    public var headers: [(name: String, value: String)]
    /// The body bytes.
    public var body: [UInt8]
    /// How long the server waits before sending it (injected latency).
    public var delay: Duration
    /// A body too large to hold at once, produced a chunk at a time; when
    /// set, it replaces ``body``.
    public var stream: SandboxBodyStream?
    /// Whether the server closes the connection instead of sending the
    /// reply (a response lost after the request was applied).
    public var dropsConnection = false

    /// Creates a reply.
    public init(status: Int, headers: [(name: String, value: String)], body: [UInt8] = [], delay: Duration = .zero, stream: SandboxBodyStream? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.delay = delay
        self.stream = stream
    }

    /// The whole body: ``body``, or every chunk of ``stream``.
    public func collectedBody() -> [UInt8] {
        guard let stream else { return body }
        var bytes: [UInt8] = []
        var index = 0
        while let chunk = stream.chunk(index) {
            bytes += chunk
            index += 1
        }
        return bytes
    }

    /// A JSON reply.
    public static func json(_ status: Int, _ text: String) -> SandboxReply {
        SandboxReply(status: status, headers: [("Content-Type", "application/json")], body: Array(text.utf8))
    }

    /// The first value of the header `name`.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// Replies are equal when status, headers, delay, whole body and dropping are.
    public static func == (lhs: SandboxReply, rhs: SandboxReply) -> Bool {
        lhs.status == rhs.status && lhs.collectedBody() == rhs.collectedBody() && lhs.dropsConnection == rhs.dropsConnection && lhs.delay == rhs.delay && lhs.headers.map { "\($0.name): \($0.value)" } == rhs.headers.map { "\($0.name): \($0.value)" }
    }
}

/// A reply body produced a chunk at a time, so a million-record sync is
/// never held in memory whole.
public struct SandboxBodyStream: Sendable {
    /// Chunk `index` (from 0), or nil after the last.
    public let chunk: @Sendable (Int) -> [UInt8]?

    /// A stream whose chunks `chunk` produces.
    public init(chunk: @escaping @Sendable (Int) -> [UInt8]?) {
        self.chunk = chunk
    }
}
