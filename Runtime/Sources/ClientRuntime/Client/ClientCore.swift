import Foundation
import HTTPTypes
import OpenAPIRuntime

/// What every generated client holds: where to send requests, through which
/// transport, and which middlewares see them on the way.
///
/// Middlewares run in array order, the first outermost, the same contract as
/// swift-openapi-runtime's clients, so any `ClientMiddleware` and any
/// `ClientTransport` plug in.
public struct ClientCore: Sendable {
    /// The base URL that request paths are appended to, without a trailing
    /// slash (``normalisedServerURL(_:)``).
    public let serverURL: URL
    /// Sends requests.
    public let transport: any ClientTransport
    /// Intercept requests, outermost first.
    public let middlewares: [any ClientMiddleware]
    /// The most bytes a response body may have before the call fails with
    /// ``ResponseTooLargeError`` (default 32 MiB).
    public let maximumResponseBytes: Int
    /// Which values are checked against the spec's constraints: requests by
    /// default (see ``ConstraintChecks``).
    public let constraintChecks: ConstraintChecks
    /// When a dropped server-sent-event stream connects again (three times
    /// in a row at most, by default; ``EventStreamReconnection``).
    public let eventStreamReconnection: EventStreamReconnection

    /// Creates a core. A trailing slash on `serverURL` is dropped, so
    /// `https://api.example.com/v1/` and `https://api.example.com/v1` both
    /// send `/v1/items`, never `/v1//items`.
    public init(
        serverURL: URL, transport: any ClientTransport, middlewares: [any ClientMiddleware] = [],
        maximumResponseBytes: Int = 32 << 20, constraintChecks: ConstraintChecks = .requests,
        eventStreamReconnection: EventStreamReconnection = .standard
    ) {
        self.serverURL = Self.normalisedServerURL(serverURL)
        self.transport = transport
        self.middlewares = middlewares
        self.maximumResponseBytes = maximumResponseBytes
        self.constraintChecks = constraintChecks
        self.eventStreamReconnection = eventStreamReconnection
    }

    /// The URL of a server the spec names (a generated `Client.Server`
    /// case's raw value), never trapping: the generator refuses a spec
    /// whose server URL does not parse (`invalid-server-url`), and should
    /// one reach here, its requests fail with the transport's error for an
    /// unsupported URL instead of the app crashing.
    public static func serverURL(named text: String) -> URL {
        URL(string: text) ?? Self.unusableServerURL
    }

    /// What ``serverURL(named:)`` gives for text that is no URL.
    static let unusableServerURL = URL(string: "about:blank")!

    /// `serverURL` without trailing slashes on its path (request paths start
    /// with one); a URL without them is returned as it is.
    public static func normalisedServerURL(_ serverURL: URL) -> URL {
        guard var components = URLComponents(url: serverURL, resolvingAgainstBaseURL: true), components.percentEncodedPath.hasSuffix("/") else {
            return serverURL
        }
        var path = Substring(components.percentEncodedPath)
        while path.hasSuffix("/") { path = path.dropLast() }
        components.percentEncodedPath = String(path)
        return components.url ?? serverURL
    }

    /// Runs a generated operation's checks of its parameters and body when
    /// requests are checked; they throw ``ConstraintViolation`` before
    /// anything is sent.
    public func validateRequest(_ operation: OperationDescriptor, _ checks: (inout ConstraintValidator) throws -> Void) throws {
        guard constraintChecks.contains(.requests) else { return }
        var validator = ConstraintValidator(operationID: operation.id)
        try checks(&validator)
    }

    /// Sends a request through the middlewares and the transport and
    /// buffers the response body.
    public func send(_ request: RequestBuilder) async throws -> ClientResponse {
        try await open(request).collect()
    }

    /// Sends a request through the middlewares and the transport and returns
    /// once the response head has arrived, its body unread: for a body read
    /// as it arrives (``OpenedResponse/streamJSONArray(of:member:envelope:batchSize:)``,
    /// ``OpenedResponse/eventStream(of:expected:reopen:reconnection:)``).
    /// `lastEventID` is sent as `Last-Event-ID` (a reconnecting event stream).
    public func open(_ request: RequestBuilder, lastEventID: String? = nil) async throws -> OpenedResponse {
        let operation = request.operation
        var httpRequest = request.makeHTTPRequest()
        if let lastEventID, let name = HTTPField.Name("Last-Event-ID") { httpRequest.headerFields[name] = lastEventID }
        let body = request.streamedBody ?? request.body.map { HTTPBody($0) }
        let (response, responseBody) = try await OperationDescriptor.$current.withValue(operation) {
            try await call(index: 0, request: httpRequest, body: body, baseURL: serverURL, operationID: operation.id)
        }
        return OpenedResponse(
            operationID: operation.id, response: response, body: responseBody, maximumBytes: maximumResponseBytes,
            validatesBody: constraintChecks.contains(.responses))
    }

    private func call(index: Int, request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        if index == middlewares.count {
            return try await transport.send(request, body: body, baseURL: baseURL, operationID: operationID)
        }
        return try await middlewares[index].intercept(request, body: body, baseURL: baseURL, operationID: operationID) { request, body, baseURL in
            try await call(index: index + 1, request: request, body: body, baseURL: baseURL, operationID: operationID)
        }
    }
}

/// A response whose head has arrived and whose body has not been read.
public struct OpenedResponse: Sendable {
    /// The operation.
    public let operationID: String
    /// The status and headers.
    public let response: HTTPResponse
    /// The body, unread.
    public let body: HTTPBody?
    /// The most bytes ``collect()`` reads, and the most one streamed element may have.
    public let maximumBytes: Int
    /// Whether decoded bodies are checked against the spec's constraints.
    public let validatesBody: Bool

    /// Creates an opened response.
    public init(operationID: String, response: HTTPResponse, body: HTTPBody?, maximumBytes: Int, validatesBody: Bool = false) {
        self.operationID = operationID
        self.response = response
        self.body = body
        self.maximumBytes = maximumBytes
        self.validatesBody = validatesBody
    }

    /// The status code.
    public var status: Int { response.status.code }

    /// Reads the whole body; past ``maximumBytes`` it throws ``ResponseTooLargeError``.
    public func collect() async throws -> ClientResponse {
        var bytes = Data()
        if let body {
            // Read chunk by chunk: only going past the limit is "too large";
            // a reset or timeout while reading reaches the caller as it is.
            for try await chunk in body {
                bytes.append(contentsOf: chunk)
                if bytes.count > maximumBytes {
                    throw ResponseTooLargeError(operationID: operationID, status: status, limit: maximumBytes)
                }
            }
        }
        return ClientResponse(operationID: operationID, response: response, body: bytes, validatesBody: validatesBody)
    }

    /// The body as a JSON array decoded element by element while it arrives:
    /// the array at `member` of the body's object, or the body itself when
    /// `member` is nil. No limit applies to the whole body; one element, or
    /// the body around the array, may have up to ``maximumBytes``.
    public func streamJSONArray<Item: Decodable & Sendable, Envelope: Decodable & Sendable>(
        of item: Item.Type, member: String?, envelope: Envelope.Type, batchSize: Int = 256
    ) -> StreamedJSONArray<Item, Envelope> {
        StreamedJSONArray(operationID: operationID, response: response, body: body, member: member, limit: maximumBytes, batchSize: batchSize)
    }
}

/// A response body was larger than ``ClientCore/maximumResponseBytes``.
public struct ResponseTooLargeError: Error, Sendable, CustomStringConvertible {
    /// The operation.
    public let operationID: String
    /// The response status.
    public let status: Int
    /// The limit in bytes.
    public let limit: Int

    /// Creates the error.
    public init(operationID: String, status: Int, limit: Int) {
        self.operationID = operationID
        self.status = status
        self.limit = limit
    }

    /// `operationID: response 200 is larger than 33554432 bytes`.
    public var description: String {
        "\(operationID): response \(status) is larger than \(limit) bytes; raise ClientCore.maximumResponseBytes if this is expected"
    }
}
