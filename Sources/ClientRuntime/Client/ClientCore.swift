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
    /// The base URL that request paths are appended to.
    public let serverURL: URL
    /// Sends requests.
    public let transport: any ClientTransport
    /// Intercept requests, outermost first.
    public let middlewares: [any ClientMiddleware]
    /// The most bytes a response body may have before the call fails with
    /// ``ResponseTooLargeError`` (default 32 MiB).
    public let maximumResponseBytes: Int

    /// Creates a core.
    public init(serverURL: URL, transport: any ClientTransport, middlewares: [any ClientMiddleware] = [], maximumResponseBytes: Int = 32 << 20) {
        self.serverURL = serverURL
        self.transport = transport
        self.middlewares = middlewares
        self.maximumResponseBytes = maximumResponseBytes
    }

    /// Sends a request through the middlewares and the transport and
    /// buffers the response body.
    public func send(_ request: RequestBuilder) async throws -> ClientResponse {
        let operation = request.operation
        let httpRequest = request.makeHTTPRequest()
        let body = request.body.map { HTTPBody($0) }
        let (response, responseBody) = try await OperationDescriptor.$current.withValue(operation) {
            try await call(index: 0, request: httpRequest, body: body, baseURL: serverURL, operationID: operation.id)
        }
        var bytes = Data()
        if let responseBody {
            // Read chunk by chunk: only going past the limit is "too large";
            // a reset or timeout while reading reaches the caller as it is.
            for try await chunk in responseBody {
                bytes.append(contentsOf: chunk)
                if bytes.count > maximumResponseBytes {
                    throw ResponseTooLargeError(operationID: operation.id, status: response.status.code, limit: maximumResponseBytes)
                }
            }
        }
        return ClientResponse(operationID: operation.id, response: response, body: bytes)
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
