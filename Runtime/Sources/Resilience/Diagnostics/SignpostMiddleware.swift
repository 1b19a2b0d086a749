import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Each request an interval named `request`, its detail the operation's id
/// (the spec's name of the call, public), from its first attempt to its
/// answer or error: retries, waits and token refreshes inside it.
package struct SignpostMiddleware: ClientMiddleware {
    /// Where the intervals go.
    package let signposts: Signposts

    /// A middleware reporting to `signposts`.
    package init(signposts: Signposts) { self.signposts = signposts }

    /// Runs the request inside its interval.
    package func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        try await signposts.interval("request", detail: operationID) { try await next(request, body, baseURL) }
    }
}
