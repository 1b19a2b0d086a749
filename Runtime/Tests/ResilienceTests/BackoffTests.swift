import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing

@testable import Resilience

@Suite struct BackoffTests {
    @Test func ceilingsDoubleUpToTheCap() {
        let backoff = BackoffPolicy(baseDelay: .milliseconds(100), maximumDelay: .seconds(1))
        #expect((1...6).map { backoff.ceiling(forRetry: $0) } == [
            .milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(800), .seconds(1), .seconds(1),
        ])
        #expect(backoff.ceiling(forRetry: 500) == .seconds(1), "no overflow for large retry numbers")
    }

    @Test func tenThousandJitteredWaitsStayInsideTheirBounds() {
        var generator = SystemRandomNumberGenerator()
        let backoff = BackoffPolicy(baseDelay: .milliseconds(250), maximumDelay: .seconds(8))
        var sawLow = false
        var sawHigh = false
        for index in 0..<10_000 {
            let retry = index % 12 + 1
            let ceiling = backoff.ceiling(forRetry: retry)
            let delay = backoff.delay(forRetry: retry, using: &generator)
            #expect(delay >= .zero && delay <= ceiling)
            if delay < ceiling / 4 { sawLow = true }
            if delay > ceiling * 3 / 4 { sawHigh = true }
        }
        #expect(sawLow && sawHigh, "full jitter spreads over the whole range")
    }

    @Test func retryAfterSecondsAndDates() throws {
        let now = Date(timeIntervalSince1970: 1_700_000_000)  // Tue, 14 Nov 2023 22:13:20 GMT
        #expect(RetryAfter.parse("120", now: now) == .seconds(120))
        #expect(RetryAfter.parse(" 0 ", now: now) == .zero)
        #expect(RetryAfter.parse("Tue, 14 Nov 2023 22:14:20 GMT", now: now) == .seconds(60))
        #expect(RetryAfter.parse("Tuesday, 14-Nov-23 22:13:50 GMT", now: now) == .seconds(30))
        #expect(RetryAfter.parse("Tue Nov 14 22:13:25 2023", now: now) == .seconds(5))
        #expect(RetryAfter.parse("Tue, 14 Nov 2023 22:00:00 GMT", now: now) == .zero, "a past date means no wait")
        #expect(RetryAfter.parse("-5", now: now) == nil)
        #expect(RetryAfter.parse("soon", now: now) == nil)
        #expect(RetryAfter.parse("1.5", now: now) == nil)
    }
}

/// The retry middleware itself, 10,000 retries on virtual time against a
/// scripted in-memory transport that answers 503 or 429 with random
/// `Retry-After` values.
@Suite struct RetryWaitsOnVirtualTimeTests {
    @Test func tenThousandRetriesRespectBackoffAndRetryAfter() async throws {
        let clock = VirtualClock()
        let backoff = BackoffPolicy(baseDelay: .milliseconds(100), maximumDelay: .seconds(5))
        let waits = WaitLog()
        let middleware = RetryMiddleware(
            policy: RetryPolicy(maximumAttempts: 11, backoff: backoff, maximumRetryAfter: .seconds(60), maximumRetryWait: .seconds(3600)), clock: clock,
            onRetry: { _, retry, wait in waits.append(retry: retry, wait: wait) })
        let retryAfters = RetryAfterScript()
        for _ in 0..<1_000 {
            _ = try await middleware.intercept(
                HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/x"), body: nil, baseURL: URL(string: "https://a.example")!,
                operationID: "x"
            ) { _, _, _ in
                // A 429 always names its wait here: one that names none goes to the app at once, unretried.
                let seconds = retryAfters.next()
                var response = HTTPResponse(status: seconds != nil && Bool.random() ? .tooManyRequests : .serviceUnavailable)
                if let seconds { response.headerFields[.retryAfter] = String(seconds) }
                return (response, nil)
            }
        }
        let log = waits.entries
        #expect(log.count == 10_000, "1,000 calls x 10 retries")
        let requested = retryAfters.issued
        #expect(requested.count == 11_000, "11 responses per call; the last is returned, not retried")
        for (index, entry) in log.enumerated() {
            // Wait i follows response i % 10 of call i / 10.
            let floor = requested[index / 10 * 11 + index % 10].map { Duration.seconds($0) } ?? .zero
            let ceiling = max(backoff.ceiling(forRetry: entry.retry), floor)
            #expect(entry.wait >= floor && entry.wait <= ceiling, "retry \(entry.retry): \(entry.wait) not in [\(floor), \(ceiling)]")
        }
        #expect(clock.sleeps == log.map(\.wait), "every wait went through the injected clock")
    }

    /// `@unchecked Sendable` is safe: `log` is only touched under `lock`.
    final class WaitLog: @unchecked Sendable {
        private let lock = NSLock()
        private var log: [(retry: Int, wait: Duration)] = []
        var entries: [(retry: Int, wait: Duration)] { lock.withLock { log } }
        func append(retry: Int, wait: Duration) { lock.withLock { log.append((retry, wait)) } }
    }

    /// Random `Retry-After` seconds (or none), remembered in order.
    /// `@unchecked Sendable` is safe: `values` is only touched under `lock`.
    final class RetryAfterScript: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [Int?] = []
        var issued: [Int?] { lock.withLock { values } }
        func next() -> Int? {
            let value: Int? = Int.random(in: 0..<3) == 0 ? nil : Int.random(in: 0...4)
            lock.withLock { values.append(value) }
            return value
        }
    }
}
