import Foundation
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
