import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Tells a ``Connectivity`` observed from requests what each attempt met:
/// any answer from a server means online; a failure that kept the request
/// from leaving the device (``NetworkFailure/requestNeverLeft(_:)``: no
/// route, refused, unresolved host, a connect timeout) means offline. Other
/// failures say nothing about the device. A reported signal ignores it.
///
/// Placed below the retry layer, so every attempt counts.
public struct ConnectivityObservingMiddleware: ClientMiddleware {
    /// The signal fed.
    public let connectivity: Connectivity

    /// Feeds `connectivity`.
    public init(connectivity: Connectivity) {
        self.connectivity = connectivity
    }

    /// Sends the request and records whether it reached a server.
    public func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard connectivity.source == .observedFromRequests else { return try await next(request, body, baseURL) }
        do {
            let result = try await next(request, body, baseURL)
            await connectivity.observe(reachedServer: true)
            return result
        } catch {
            if NetworkFailure.requestNeverLeft(error) { await connectivity.observe(reachedServer: false) }
            throw error
        }
    }
}
