import Foundation
import HTTPTypes
import OpenAPIRuntime
import OpenAPIURLSession
import RuntimeSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A real URLSession transport whose requests go to `target` instead of
/// the configured base URL (a document's `https://edge.securenode.io` or
/// `https://api.yourbackend.com`), so its samples run unchanged against a
/// loopback server; the target can be
/// switched to stand for the network going and coming back.
package final class RedirectingTransport: ClientTransport, Sendable {
    /// Where requests go.
    package let target: Locked<URL>
    private let inner: URLSessionTransport

    /// A transport to `target`.
    package init(to target: URL) {
        self.target = Locked(target)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 30
        inner = URLSessionTransport(configuration: .init(session: URLSession(configuration: configuration)))
    }

    /// Sends to ``target``, whatever the base URL.
    package func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        try await inner.send(request, body: body, baseURL: target.read(), operationID: operationID)
    }
}
