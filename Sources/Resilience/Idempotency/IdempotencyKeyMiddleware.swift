import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Gives each logical write one `Idempotency-Key`, so that the server
/// applies it once however often it is sent.
///
/// Place it outermost: the key is set once per call, before the retry and
/// token-refresh layers repeat the request, so every attempt carries the same
/// key. A key the caller set (such as a generated client's `idempotencyKey:`
/// argument, or one stored with an outbox entry) is kept.
///
/// Defaults: POST, PUT, PATCH and DELETE get a key; keys are lower-case UUID
/// v4 strings.
public struct IdempotencyKeyMiddleware: ClientMiddleware {
    /// The header the key goes in.
    public var headerName: HTTPField.Name
    /// Methods that get a key.
    public var methods: Set<HTTPRequest.Method>
    /// If set, only these operations get a key (whatever their method).
    public var operations: Set<String>?
    /// Makes a new key.
    public var makeKey: @Sendable () -> String

    /// Creates the middleware.
    public init(
        headerName: HTTPField.Name = .idempotencyKey,
        methods: Set<HTTPRequest.Method> = [.post, .put, .patch, .delete],
        operations: Set<String>? = nil,
        makeKey: @escaping @Sendable () -> String = { UUID().uuidString.lowercased() }
    ) {
        self.headerName = headerName
        self.methods = methods
        self.operations = operations
        self.makeKey = makeKey
    }

    /// Adds the key when the request is a write without one.
    public func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        let applies = operations.map { $0.contains(operationID) } ?? methods.contains(request.method)
        if applies, request.headerFields[headerName] == nil {
            request.headerFields[headerName] = makeKey()
        }
        return try await next(request, body, baseURL)
    }
}
