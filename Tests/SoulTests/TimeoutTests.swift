import BackendDoubles
import Foundation
import LoopbackHTTPServer
import Resilience
import Soul
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A listener whose accept queue is full: the kernel drops new connection
/// attempts, so a client's connect waits until it gives up (a server that
/// accepts late, or a network that loses the handshake).
final class UnacceptingListener {
    let port: Int
    private var descriptors: [Int32] = []

    init() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listener, 0) == 0 else { throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        descriptors.append(listener)
        // Fill the queue: these connections complete and are never accepted.
        for _ in 0..<3 {
            let filler = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            _ = fcntl(filler, F_SETFL, fcntl(filler, F_GETFL) | O_NONBLOCK)
            _ = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(filler, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            descriptors.append(filler)
        }
        usleep(100_000)
    }

    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    deinit { for descriptor in descriptors { close(descriptor) } }
}

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
