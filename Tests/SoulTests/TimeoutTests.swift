import BackendDoubles
import Foundation
import LoopbackHTTPServer
import Resilience
import Soul
import Testing

/// SOUL's timeouts as its document states them (connect 5 s, read 10 s),
/// real whatever the transport: scaled down here so the suite stays quick.
@Suite struct SoulTimeoutTests {
    let harness: SoulHarness
    let timeouts = TransportTimeouts(connect: .milliseconds(500), read: .seconds(3))

    init() throws {
        harness = try SoulHarness(keepAlive: false)
    }

    @Test func theDocumentedValuesAreTheDefaults() {
        #expect(TransportTimeouts().connect == .seconds(5))
        #expect(TransportTimeouts().read == .seconds(10))
    }

    @Test func aServerThatDoesNotAcceptFailsAtTheConnectTimeout() async throws {
        defer { harness.cleanUp() }
        let late = try UnacceptingListener()
        let soul = try harness.makeSoul(timeouts: timeouts, retryPolicy: RetryPolicy(maximumAttempts: 1), baseURL: late.baseURL)
        let started = ContinuousClock.now
        let error = await soulError { try await soul.signIn.requestCode(phone: "+14155550123") }
        #expect(error == .timeout)
        #expect(ContinuousClock.now - started >= .milliseconds(450), "the connection was waited for")
        // The attempt's log line says which bound ended it: the connect
        // timeout (0.5 s), before the request's (3 s) could.
        #expect(harness.log.all.contains { $0.contains("failed after") && $0.contains("could not connect to 127.0.0.1:\(late.port) within 0.5 seconds") },
            "\(harness.log.all.suffix(3))")
    }

    @Test func aServerThatAnswersLateFailsAtTheRequestTimeoutEvenWhileBytesTrickle() async throws {
        defer { harness.cleanUp() }
        let soul = try await harness.signedIn()
        let slow = try harness.makeSoul(timeouts: timeouts, retryPolicy: RetryPolicy(maximumAttempts: 1))
        // Headers at once, then a byte every 250 ms for 6 s: never idle long
        // enough for an idle timeout, too slow for the request timeout.
        harness.backend.fault.withLock { fault in
            fault = { request in
                guard request.method == "GET", request.path == "/api/moods" else { return nil }
                return .streamed(status: 200, headers: [("Content-Type", "application/json")], length: 24) { write in
                    for byte in Array(#"[                      ]"#.utf8) {
                        usleep(250_000)
                        guard write([byte]) else { return }
                    }
                }
            }
        }
        let started = ContinuousClock.now
        let error = await soulError { try await slow.listMoods() }
        // Without the request timeout the body would complete after 6 s and
        // the call succeed: no gap is long enough for an idle timeout.
        #expect(error == .timeout)
        #expect(ContinuousClock.now - started >= .milliseconds(2900), "not before the 3 s request timeout")
        #expect(harness.backend.server.requests.contains { $0.path == "/api/moods" }, "the moods request was answered, slowly")
        _ = soul
    }

    @Test func anAnswerAfterTheConnectTimeoutButWithinTheRequestTimeoutArrives() async throws {
        defer { harness.cleanUp() }
        _ = try await harness.signedIn()
        let soul = try harness.makeSoul(timeouts: timeouts, retryPolicy: RetryPolicy(maximumAttempts: 1))
        harness.backend.fault.withLock { fault in
            fault = { request in
                guard request.method == "GET", request.path == "/api/moods" else { return nil }
                return .delayed(.milliseconds(1200), .json(200, "[]"))
            }
        }
        let moods = try await soul.listMoods()
        #expect(moods.value.isEmpty && moods.source == .network, "waiting 1.2 s for an answer is not a connect timeout")
    }
}
