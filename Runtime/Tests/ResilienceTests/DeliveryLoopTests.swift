import ClientRuntime
import Foundation
import HTTPTypes
import Resilience
import RuntimeSupport
import SDKCore
import Testing
import Waiting

/// The one delivery loop and the one classifier of the SDKs' durable
/// queues (the billing outbox, the tracker's event queue).
@Suite struct DeliveryLoopTests {
    /// Holds a pass until the test opens it.
    actor Gate {
        private var waiting: CheckedContinuation<Void, Never>?
        private var isOpen = false
        func wait() async {
            guard !isOpen else { return }
            await withCheckedContinuation { waiting = $0 }
        }
        func open() {
            isOpen = true
            waiting?.resume()
            waiting = nil
        }
    }

    @Test func aKickDuringAPassIsKeptNotLostToTheBackoff() async throws {
        let passes = Locked(0)
        let gate = Gate()
        let loop = DeliveryLoop {
            let pass = passes.withLock { $0 += 1; return $0 }
            if pass == 1 { await gate.wait() }
            // Every pass asks for a long backoff: only a kept kick runs another soon.
            return .wait(.seconds(3600))
        }
        await loop.kick()
        try await waitUntil("the first pass to start") { passes.withLock { $0 } == 1 }
        await loop.kick()  // an item queued while the first is being sent
        await gate.open()
        try await waitUntil("a second pass, without the hour's backoff", limit: .seconds(60)) { passes.withLock { $0 } == 2 }
        await loop.stop()
    }

    @Test func aKickWakesASleepingLoop() async throws {
        let passes = Locked(0)
        let loop = DeliveryLoop {
            passes.withLock { $0 += 1 }
            return .wait(.seconds(3600))
        }
        await loop.kick()
        try await waitUntil("the first pass") { passes.withLock { $0 } == 1 }
        try await waitUntil("the loop to sleep") { await loop.isRunning }
        await loop.kick()
        try await waitUntil("a pass on the kick, not after the hour", limit: .seconds(60)) { passes.withLock { $0 } == 2 }
        await loop.stop()
        try await waitUntil("the loop to end") { await !loop.isRunning }
    }

    @Test func aLoopWithNothingToDoEndsAndTheNextKickStartsIt() async throws {
        let passes = Locked(0)
        let loop = DeliveryLoop {
            passes.withLock { $0 += 1 }
            return .done
        }
        await loop.kick()
        try await waitUntil("the pass and the end") {
            let running = await loop.isRunning
            return passes.withLock { $0 } == 1 && !running
        }
        await loop.kick()
        try await waitUntil("a pass on the next kick") { passes.withLock { $0 } == 2 }
    }

    @Test func everyAnswerHasOneVerdict() {
        func answer(_ status: Int, _ headers: HTTPFields = [:], _ body: String = "") -> UndocumentedResponseError {
            UndocumentedResponseError(operationID: "send", response: HTTPResponse(status: .init(code: status), headerFields: headers), body: Array(body.utf8))
        }
        let stated: (any HTTPStatusError) -> String? = { DeliveryVerdict.isServerErrorObject($0.rawBody) ? "stated" : nil }
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        func verdict(_ error: any Error) -> DeliveryVerdict { DeliveryVerdict(error: error, now: now, statedReason: stated) }
        #expect(verdict(answer(401)) == .pause(status: 401))
        #expect(verdict(answer(403, [:], "<html>Forbidden</html>")) == .pause(status: 403))
        #expect(verdict(ResponseDecodingError(operationID: "send", status: 401, field: "", reason: "not JSON")) == .pause(status: 401),
            "refused credentials, whatever the body")
        #expect(verdict(answer(400, [:], #"{"error":"bad_event"}"#)) == .drop(status: 400, reason: "stated"))
        #expect(verdict(answer(422, [:], "<html>proxy</html>")) == .retry(notBefore: nil, notFound: false), "a proxy's page states nothing")
        #expect(verdict(answer(404)) == .retry(notBefore: nil, notFound: true))
        #expect(verdict(answer(409, [.retryAfter: "5"])) == .retry(notBefore: .seconds(5), notFound: false), "any 4xx honours Retry-After")
        #expect(verdict(answer(429, [.retryAfter: "7"])) == .retry(notBefore: .seconds(7), notFound: false))
        #expect(verdict(answer(503, [.retryAfter: "99999999"])) == .retry(notBefore: RetryAfter.longestQueueWait, notFound: false))
        #expect(verdict(answer(503, [.retryAfter: "Tue, 14 Nov 2023 22:14:20 GMT"])) == .retry(notBefore: .seconds(60), notFound: false),
            "an HTTP date is read against the given clock")
        #expect(verdict(ResponseDecodingError(operationID: "send", status: 201, field: "id", reason: "missing")) == .delivered)
        #expect(verdict(DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "stored"))) == .drop(
            status: 0, reason: "the stored item no longer decodes"))
        #expect(verdict(URLError(.timedOut)) == .retry(notBefore: nil, notFound: false))
    }
}
