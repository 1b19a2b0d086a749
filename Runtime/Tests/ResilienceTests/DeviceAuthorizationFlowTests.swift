import ClientRuntime
import ClientRuntimeTesting
import Foundation
import LoopbackHTTPServer
import OpenAPIURLSession
import Resilience
import RuntimeSupport
import Testing
import Waiting

/// The device authorization grant (RFC 8628) over real HTTP on loopback,
/// its polls on a test clock: the requests the RFC prescribes, `slow_down`
/// honoured, each ending the RFC names, no secret in an error.
@Suite struct DeviceAuthorizationFlowTests {
    static let deviceAnswer = """
        {"device_code": "dc-secret-123", "user_code": "WDJB-MJHT", "verification_uri": "https://example.com/device",
         "verification_uri_complete": "https://example.com/device?user_code=WDJB-MJHT", "expires_in": 60, "interval": 5}
        """

    /// A server that answers the device request, then each token poll with
    /// the next of `polls`; it notes the clock's time of each poll.
    final class AuthorizationServer: Sendable {
        let server: LoopbackHTTPServer
        let pollTimes = Locked<[Duration]>([])

        init(clock: ManualClock, device: LoopbackHTTPServer.Reply = .json(200, DeviceAuthorizationFlowTests.deviceAnswer), polls: [LoopbackHTTPServer.Reply]) throws {
            let times = pollTimes
            let start = clock.continuous.now
            server = try LoopbackHTTPServer { request in
                guard request.path == "/oauth/token" else { return device }
                let index = times.withLock { times -> Int in
                    times.append(start.duration(to: clock.continuous.now))
                    return times.count - 1
                }
                return polls[min(index, polls.count - 1)]
            }
        }

        var endpoints: OAuthDeviceFlowEndpoints {
            OAuthDeviceFlowEndpoints(deviceAuthorization: "/oauth/device", token: "/oauth/token", scopes: ["read", "profile"])
        }
    }

    static func pending(_ error: String) -> LoopbackHTTPServer.Reply { .json(400, #"{"error": "\#(error)", "error_description": "dc-secret-123"}"#) }

    /// Runs `body` while moving the clock a second at a time, until it ends.
    static func driving<T: Sendable>(_ clock: ManualClock, _ body: @escaping @Sendable () async throws -> T) async throws -> Result<T, any Error> {
        let outcome = Locked<Result<T, any Error>?>(nil)
        let task = Task {
            let result: Result<T, any Error>
            do { result = .success(try await body()) } catch { result = .failure(error) }
            outcome.withLock { $0 = result }
        }
        try await waitUntil("the flow to end") {
            clock.advance(by: .seconds(1))
            return outcome.read() != nil
        }
        await task.value
        return try #require(outcome.read())
    }

    @Test func theUserApprovesAfterAPendingPollAndASlowDown() async throws {
        let clock = ManualClock()
        let tokens = LoopbackHTTPServer.Reply.json(200, #"{"access_token": "at-1", "refresh_token": "rt-1", "token_type": "Bearer", "expires_in": 3600}"#)
        let authorization = try AuthorizationServer(clock: clock, polls: [Self.pending("authorization_pending"), Self.pending("slow_down"), tokens])
        defer { authorization.server.shutdown() }
        let flow = try DeviceAuthorizationFlow(
            endpoints: authorization.endpoints, serverURL: authorization.server.baseURL, clientID: "tv-app", transport: URLSessionTransport(),
            clock: clock.continuous)
        let started = try await flow.start()
        #expect(started.userCode == "WDJB-MJHT")
        #expect(started.verificationURIComplete?.absoluteString == "https://example.com/device?user_code=WDJB-MJHT")
        #expect(!started.description.contains("dc-secret"))
        let pair = try await Self.driving(clock) { try await flow.waitForApproval(started) }.get()
        #expect(pair == TokenPair(accessToken: "at-1", refreshToken: "rt-1"))

        let requests = authorization.server.requests
        #expect(requests.map(\.path) == ["/oauth/device", "/oauth/token", "/oauth/token", "/oauth/token"])
        #expect(requests[0].bodyText == "client_id=tv-app&scope=read%20profile")
        #expect(requests[1].bodyText == "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Adevice_code&device_code=dc-secret-123&client_id=tv-app")
        #expect(requests.allSatisfy { $0.method == "POST" && $0.header("Content-Type") == "application/x-www-form-urlencoded" })
        // Every 5 s, then 10 s after the server asked to slow down.
        let times = authorization.pollTimes.read()
        #expect(times.count == 3)
        if times.count == 3 {
            #expect(times[0] >= .seconds(5))
            #expect(times[1] - times[0] >= .seconds(5))
            #expect(times[2] - times[1] >= .seconds(10))
        }
    }

    @Test(arguments: [("access_denied", DeviceAuthorizationFlow.Failure.accessDenied), ("expired_token", .expired)])
    func theUsersRefusalOrAnExpiredCodeEndsTheWait(_ error: String, _ expected: DeviceAuthorizationFlow.Failure) async throws {
        let clock = ManualClock()
        let authorization = try AuthorizationServer(clock: clock, polls: [Self.pending("authorization_pending"), Self.pending(error)])
        defer { authorization.server.shutdown() }
        let flow = try DeviceAuthorizationFlow(
            endpoints: authorization.endpoints, serverURL: authorization.server.baseURL, clientID: "tv-app", transport: URLSessionTransport(),
            clock: clock.continuous)
        let started = try await flow.start()
        let result = try await Self.driving(clock) { try await flow.waitForApproval(started) }
        #expect(throws: expected) { try result.get() }
        #expect(authorization.pollTimes.read().count == 2)
    }

    @Test func theCodesLifetimeEndsThePollingWithoutAnotherRequest() async throws {
        let clock = ManualClock()
        let answer = Self.deviceAnswer.replacingOccurrences(of: #""expires_in": 60"#, with: #""expires_in": 12"#)
        let authorization = try AuthorizationServer(clock: clock, device: .json(200, answer), polls: [Self.pending("authorization_pending")])
        defer { authorization.server.shutdown() }
        let flow = try DeviceAuthorizationFlow(
            endpoints: authorization.endpoints, serverURL: authorization.server.baseURL, clientID: "tv-app", transport: URLSessionTransport(),
            clock: clock.continuous)
        let started = try await flow.start()
        let result = try await Self.driving(clock) { try await flow.waitForApproval(started) }
        #expect(throws: DeviceAuthorizationFlow.Failure.expired) { try result.get() }
        // Polls at 5 s, 10 s and, last, 12 s, when the code expires; none after.
        let times = authorization.pollTimes.read()
        #expect(times.count == 3)
        // (The clock moves on while a poll is in flight, so only the lower bounds are exact.)
        #expect(times.count == 3 && times[2] >= .seconds(12) && times[2] - times[1] >= .seconds(2), "\(times)")
    }

    @Test func aRefusalNamesTheOAuthErrorAndNeverTheCodeOrItsEcho() async throws {
        let clock = ManualClock()
        let authorization = try AuthorizationServer(clock: clock, device: Self.pending("invalid_client"), polls: [])
        defer { authorization.server.shutdown() }
        let flow = try DeviceAuthorizationFlow(
            endpoints: authorization.endpoints, serverURL: authorization.server.baseURL, clientID: "tv-app", transport: URLSessionTransport(),
            clock: clock.continuous)
        let error = await #expect(throws: DeviceAuthorizationFlow.Failure.self) { _ = try await flow.start() }
        #expect(error == .refused(status: 400, error: "invalid_client"))
        #expect(error.map { !"\($0)".contains("dc-secret") } == true)
    }

    @Test func anEndpointThatIsNotHTTPSIsRefusedBeforeAnythingIsSent() throws {
        let endpoints = OAuthDeviceFlowEndpoints(deviceAuthorization: "http://auth.example.com/device", token: "https://auth.example.com/token")
        #expect(throws: DeviceAuthorizationFlow.Failure.insecureEndpoint("http://auth.example.com/device")) {
            _ = try DeviceAuthorizationFlow(endpoints: endpoints, clientID: "tv-app", transport: URLSessionTransport())
        }
        // Relative endpoints need the server's URL.
        #expect(throws: DeviceAuthorizationFlow.Failure.insecureEndpoint("/oauth/token")) {
            _ = try DeviceAuthorizationFlow(
                endpoints: OAuthDeviceFlowEndpoints(deviceAuthorization: "https://auth.example.com/device", token: "/oauth/token"),
                clientID: "tv-app", transport: URLSessionTransport())
        }
    }

    @Test func cancellingTheWaitStopsThePolling() async throws {
        let clock = ManualClock()
        let authorization = try AuthorizationServer(clock: clock, polls: [Self.pending("authorization_pending")])
        defer { authorization.server.shutdown() }
        let flow = try DeviceAuthorizationFlow(
            endpoints: authorization.endpoints, serverURL: authorization.server.baseURL, clientID: "tv-app", transport: URLSessionTransport(),
            clock: clock.continuous)
        let started = try await flow.start()
        let task = Task { try await flow.waitForApproval(started) }
        try await waitUntil("a first poll") {
            clock.advance(by: .seconds(1))
            return authorization.pollTimes.read().count == 1
        }
        task.cancel()
        await #expect(throws: CancellationError.self) { _ = try await task.value }
        clock.advance(by: .seconds(60))
        #expect(authorization.pollTimes.read().count == 1)
    }
}
