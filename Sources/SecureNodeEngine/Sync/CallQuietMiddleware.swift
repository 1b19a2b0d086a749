import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Holds every request back while a call is in progress and sends it once
/// the last call ended: "incoming calls never trigger network requests",
/// whatever asked for one (a lookup after a miss, a heartbeat, billing
/// delivery, a retry). The innermost middleware, so each attempt is held.
struct CallQuietMiddleware: ClientMiddleware {
    let calls: CallActivity

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        await calls.waitUntilNoCall()
        try Task.checkCancellation()
        return try await next(request, body, baseURL)
    }
}
