import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Adds headers a backend's contract names for every request when the
/// request does not carry them already (SecureNode's contract lists
/// `Content-Type: application/json` on its GETs too). A header the client
/// set (a form body's content type, say) is left as it is.
public struct DefaultHeadersMiddleware: ClientMiddleware {
    /// The headers and their values.
    public var headers: HTTPFields

    /// Adds `headers` to requests that lack them.
    public init(_ headers: HTTPFields) {
        self.headers = headers
    }

    /// Fills in the missing headers.
    public func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        for field in headers where request.headerFields[field.name] == nil {
            request.headerFields[field.name] = field.value
        }
        return try await next(request, body, baseURL)
    }
}
