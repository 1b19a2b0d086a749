import Foundation
import HTTPTypes
import OpenAPIRuntime

/// A `ClientTransport` in memory, for tests of code that calls a generated
/// client: it records every request (with its body) and answers from a
/// script, without a socket, a server or a run loop.
///
/// ```swift
/// let transport = ScriptedTransport { request in
///     request.path == "/api/moods" ? .json(200, #"{"moods": []}"#) : .status(404)
/// }
/// let client = SoulAPI.Client(serverURL: URL(string: "https://api.example.com")!, transport: transport)
/// _ = try await client.listMoods()
/// #expect(transport.requests.last?.header("Authorization") == "Bearer t1")
/// ```
///
/// Or a queue of replies, one per request, in order
/// (`ScriptedTransport(replies: [.status(503), .json(200, "{}")])`). A
/// reply can wait first (`.delayed(.seconds(2), .json(...))`, cancellable)
/// or fail as a transport would (`.failure(URLError(.notConnectedToInternet))`).
///
/// `@unchecked Sendable` is safe because the mutable state (`recorded`,
/// `queue`) is read and written only while `lock` is held, and `answer` is
/// an immutable `@Sendable` closure.
public final class ScriptedTransport: ClientTransport, @unchecked Sendable {
    /// A request as the client sent it.
    public struct Request: Sendable {
        /// The method, path with query, and header fields.
        public let request: HTTPRequest
        /// The body's bytes (nil when the request had none).
        public let body: Data?
        /// The base URL the client put in front of the path.
        public let baseURL: URL
        /// The `operationId` of the generated method that sent it.
        public let operationID: String

        /// The method (`GET`).
        public var method: String { request.method.rawValue }
        /// The path with the query, as encoded (`/items?tags=a%20b`).
        public var target: String { request.path ?? "" }
        /// The path without the query.
        public var path: String { String(target.split(separator: "?", maxSplits: 1).first ?? "") }
        /// The query without `?` (nil without one).
        public var query: String? {
            let parts = target.split(separator: "?", maxSplits: 1)
            return parts.count == 2 ? String(parts[1]) : nil
        }

        /// A header's value (fields of the same name joined with `, `).
        public func header(_ name: String) -> String? {
            HTTPField.Name(name).flatMap { request.headerFields[$0] }
        }

        /// The body as UTF-8 text.
        public var bodyText: String? { body.map { String(decoding: $0, as: UTF8.self) } }

        /// The body decoded as `T` (JSON).
        public func decodeBody<T: Decodable>(_ type: T.Type = T.self) throws -> T {
            try JSONDecoder().decode(T.self, from: body ?? Data())
        }
    }

    /// What the transport does with a request.
    public indirect enum Reply: Sendable {
        /// Answers with a status, header fields and a body.
        case respond(status: Int, headers: HTTPFields, body: Data?)
        /// Waits (cancellably), then does the next reply.
        case delayed(Duration, Reply)
        /// Fails as a transport does (no connection, a timeout).
        case failure(any Error & Sendable)

        /// A JSON body with its `Content-Type`.
        public static func json(_ status: Int, _ text: String, headers: HTTPFields = [:]) -> Reply {
            var fields = headers
            fields[.contentType] = "application/json"
            return .respond(status: status, headers: fields, body: Data(text.utf8))
        }

        /// A status without a body.
        public static func status(_ status: Int, headers: HTTPFields = [:]) -> Reply {
            .respond(status: status, headers: headers, body: nil)
        }

        /// A text body with its `Content-Type`.
        public static func text(_ status: Int, _ text: String, contentType: String = "text/plain") -> Reply {
            var fields = HTTPFields()
            fields[.contentType] = contentType
            return .respond(status: status, headers: fields, body: Data(text.utf8))
        }
    }

    /// A queued script ran out of replies.
    public struct ScriptExhausted: Error, Sendable, CustomStringConvertible {
        /// The request that found no reply.
        public let operationID: String
        /// How many replies the script had.
        public let replies: Int

        /// `listItems: request 3 has no scripted reply (the script has 2)`.
        public var description: String { "\(operationID): request \(replies + 1) has no scripted reply (the script has \(replies))" }
    }

    private let lock = NSLock()
    private var recorded: [Request] = []
    private var queue: [Reply]?
    private var queued = 0
    private let answer: (@Sendable (Request) throws -> Reply)?

    /// A transport answering each request with what `answer` returns for it
    /// (a thrown error reaches the client as a transport failure).
    public init(_ answer: @escaping @Sendable (Request) throws -> Reply) {
        self.answer = answer
    }

    /// A transport answering requests with `replies`, one each, in order;
    /// a request past the last reply fails with ``ScriptExhausted``.
    public init(replies: [Reply]) {
        answer = nil
        queue = replies
        queued = replies.count
    }

    /// Every request so far, in the order they were sent.
    public var requests: [Request] { lock.withLock { recorded } }

    /// The requests sent by one operation.
    public func requests(for operationID: String) -> [Request] { requests.filter { $0.operationID == operationID } }

    /// Records the request and plays its reply.
    public func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        var bytes: Data?
        if let body { bytes = try await Data(collecting: body, upTo: .max) }
        let recordedRequest = Request(request: request, body: bytes, baseURL: baseURL, operationID: operationID)
        let reply: Reply = try lock.withLock {
            recorded.append(recordedRequest)
            if let answer { return try answer(recordedRequest) }
            guard var pending = queue, !pending.isEmpty else { throw ScriptExhausted(operationID: operationID, replies: queued) }
            let next = pending.removeFirst()
            queue = pending
            return next
        }
        return try await play(reply)
    }

    private func play(_ reply: Reply) async throws -> (HTTPResponse, HTTPBody?) {
        switch reply {
        case .respond(let status, let headers, let body):
            return (HTTPResponse(status: .init(code: status), headerFields: headers), body.map { HTTPBody($0) })
        case .delayed(let duration, let next):
            try await Task.sleep(for: duration)
            return try await play(next)
        case .failure(let error):
            throw error
        }
    }
}
