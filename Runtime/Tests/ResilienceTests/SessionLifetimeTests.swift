import ClientRuntimeTesting
import Foundation
import HTTPTypes
import LoopbackHTTPServer
import OpenAPIURLSession
import Resilience
import Testing
import Waiting

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// URLSession's rule for delegates: a session keeps its delegate (on iOS,
/// itself and its connections too) until it is invalidated, so an SDK
/// object that an app lets go must invalidate the session it made, or one
/// more session lives as long as the app each time an app makes it again
/// (a sign-out, a switch of environment, a settings switch).
@Suite struct SessionLifetimeTests {
    let connections = ConnectionVerificationTests()

    @Test func theSDKsSessionIsInvalidatedWhenItsTransportGoesAfterTheRequestStillRunning() async throws {
        let gate = ReplyGate()
        let server = try LoopbackHTTPServer { _ in .gated(gate, .json(200, #"{"ok":true}"#)) }
        defer { server.shutdown() }
        let log = LogCapture()
        var transport: CertificatePinningTransport? = connections.sdkTransport(log: log)
        let evaluator = try #require(transport?.evaluator)
        #expect(evaluator.openSessions == 1)

        // The app lets the SDK go while a request of its is at the server: the request ends first.
        let running = Task { [transport] in
            try await connections.send(try #require(transport), HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/ok"), baseURL: server.baseURL)
        }
        try await gate.waitForArrivals(1)
        transport = nil
        gate.open()
        #expect(try await running.value.status == .ok)
        try await waitUntil("the session invalidated") { evaluator.openSessions == 0 }
        #expect(log.all.contains { $0.contains("an SDK URLSession was invalidated") }, "\(log.all)")
    }

    @Test func aSessionMadeForTheAppIsTheAppsToInvalidate() async throws {
        let evaluator = ServerTrustEvaluator(pinning: .none, environment: .production)
        let session = evaluator.urlSession(configuration: .ephemeral)
        #expect(evaluator.openSessions == 1)
        session.finishTasksAndInvalidate()
        try await waitUntil("the app's session invalidated") { evaluator.openSessions == 0 }
        // A session the app made with the evaluator's delegate is not counted, made or invalidated.
        let delegate = evaluator.urlSessionDelegate
        let own = URLSession(configuration: .ephemeral, delegate: delegate, delegateQueue: nil)
        delegate.urlSession(own, didBecomeInvalidWithError: nil)
        #expect(evaluator.openSessions == 0)
        own.invalidateAndCancel()
    }

    @Test func theTransportTakenOutOfTheSDKsKeepsItsSession() async throws {
        let server = try LoopbackHTTPServer { _ in .json(200, #"{"ok":true}"#) }
        defer { server.shutdown() }
        let inner = connections.sdkTransport().transport
        // The SDK's transport is gone; the one taken out of it still sends.
        let get = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/ok")
        #expect(try await inner.send(get, body: nil, baseURL: server.baseURL, operationID: "ok").0.status == .ok)
    }
}
