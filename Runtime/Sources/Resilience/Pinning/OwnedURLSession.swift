import Foundation
import HTTPTypes
import OpenAPIRuntime

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A URLSession an SDK's transport made for itself, invalidated when the
/// transport's last copy goes: URLSession keeps its delegate (and on iOS
/// itself, with its connections) until it is invalidated, so a session
/// never invalidated lives as long as the app, one more each time an app
/// makes an SDK object again. `finishTasksAndInvalidate` lets a request
/// still running end first.
final class OwnedURLSession: Sendable {
    /// The session.
    let session: URLSession

    init(_ session: URLSession) {
        self.session = session
    }

    deinit {
        session.finishTasksAndInvalidate()
    }
}

/// The transport that sends through an ``OwnedURLSession``, holding it: the
/// session lives exactly as long as some copy of this transport does,
/// whoever holds it (the SDK's ``CertificatePinningTransport``, or code that
/// took its `transport` out).
struct SessionOwningTransport: ClientTransport {
    /// The transport made over the session.
    let wrapped: any ClientTransport
    /// The session, invalidated when the last copy of this transport goes.
    let session: OwnedURLSession

    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        try await wrapped.send(request, body: body, baseURL: baseURL, operationID: operationID)
    }
}
