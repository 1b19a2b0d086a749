import ClientRuntime
import Foundation
import LoopbackHTTPServer
import OpenAPIRuntime
import SDKCore
import Testing
@testable import Resilience

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Which network failure a real transport error is, over real sockets.
@Suite struct NetworkFailureTests {
    /// A refused connection (a wrong port, a server that is down) is the
    /// server being unreachable, not the device being offline: the user is
    /// not told to check a network that works. Nothing left the device, so
    /// writes still queue.
    @Test func aRefusedConnectionIsUnreachableNotOffline() async throws {
        let nobody = try ClosedPort()
        let session = URLSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        do {
            _ = try await session.data(from: nobody.baseURL.appendingPathComponent("moods"))
            Issue.record("a connection to a closed port was answered")
        } catch {
            #expect(NetworkFailure(error) == .unreachable, "\(error)")
            #expect(NetworkFailure.requestNeverLeft(error))
            let wrapped = ClientError(operationID: "listMoods", operationInput: (), causeDescription: "", underlyingError: error)
            guard case .unreachable = CallFailure<EmptyBody>(wrapped) else {
                Issue.record("a refused connection classified as \(CallFailure<EmptyBody>(wrapped))")
                return
            }
        }
    }

    /// No connectivity, or a connection lost, is offline; a host that is
    /// not found is unreachable.
    @Test func eachURLErrorHasItsKind() {
        #expect(NetworkFailure(URLError(.notConnectedToInternet)) == .offline)
        #expect(NetworkFailure(URLError(.networkConnectionLost)) == .offline)
        #expect(NetworkFailure(URLError(.cannotFindHost)) == .unreachable)
        #expect(NetworkFailure(URLError(.cannotConnectToHost)) == .unreachable)
        #expect(NetworkFailure(URLError(.timedOut)) == .timeout)
        #expect(NetworkFailure(URLError(.cancelled)) == .cancelled)
    }
}
