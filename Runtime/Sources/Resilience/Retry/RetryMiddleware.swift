import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Retries failed idempotent requests with exponential backoff and full
/// jitter, honouring `Retry-After`.
///
/// Place it below the idempotency and token-refresh layers and above
/// credentials, so that each attempt gets fresh credentials and every attempt
/// of one call shares one idempotency key:
///
/// ```swift
/// let retry = RetryMiddleware(policy: RetryPolicy(nonRetryableOperations: ["requestOTP", "verifyOTP"]))
/// ```
///
/// Rules (see ``RetryPolicy`` for the defaults):
/// - Only requests the policy allows are retried; the others get one attempt.
/// - Retried: transport failures (connection errors, timeouts) and the
///   retryable statuses. Cancellation is never retried.
/// - The wait before retry `n` is random in `[0, min(cap, base * 2^(n-1))]`,
///   and never shorter than the `Retry-After` of a 429 or 503.
/// - A `Retry-After` beyond the policy's maximum is not waited for: a 429 then
///   throws ``RateLimitedError``; other statuses are returned as they are.
/// - While ``Connectivity`` reports offline, a retry waits for it.
/// - Request bodies are buffered (up to ``maximumBufferedBodyBytes``) so that
///   every attempt sends the same bytes.
///
/// Sleeping goes through `clock`, so tests run on virtual time.
public struct RetryMiddleware<C: Clock>: ClientMiddleware where C.Duration == Duration {
    /// The rules.
    public var policy: RetryPolicy
    /// The clock retries sleep on.
    public let clock: C
    /// The device's connectivity, if the app reports it.
    public var connectivity: Connectivity?
    /// The largest request body kept for replay. Default 10 MiB.
    public var maximumBufferedBodyBytes: Int
    /// The wall-clock time, for HTTP-date `Retry-After` values.
    public var now: @Sendable () -> Date
    /// Called before each retry with the operation, the retry number (1 for
    /// the first retry) and the wait; for metrics and tests.
    public var onRetry: (@Sendable (_ operationID: String, _ retry: Int, _ wait: Duration) -> Void)?
    private let random: @Sendable (ClosedRange<Double>) -> Double

    /// Creates the middleware.
    public init(
        policy: RetryPolicy = RetryPolicy(),
        clock: C,
        connectivity: Connectivity? = nil,
        maximumBufferedBodyBytes: Int = 10 * 1024 * 1024,
        now: @escaping @Sendable () -> Date = { Date() },
        random: @escaping @Sendable (ClosedRange<Double>) -> Double = { Double.random(in: $0) },
        onRetry: (@Sendable (String, Int, Duration) -> Void)? = nil
    ) {
        self.policy = policy
        self.clock = clock
        self.connectivity = connectivity
        self.maximumBufferedBodyBytes = maximumBufferedBodyBytes
        self.now = now
        self.random = random
        self.onRetry = onRetry
    }

    /// Retries the request as the policy allows.
    public func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard policy.allowsRetry(of: request, operationID: operationID), policy.maximumAttempts > 1,
            let replayable = try await ReplayableBody.prepare(body, upTo: maximumBufferedBodyBytes)
        else {
            return try await finish(next(request, body, baseURL), operationID: operationID)
        }
        var attempt = 1
        while true {
            let outcome: Result<(HTTPResponse, HTTPBody?), any Error>
            do {
                outcome = .success(try await next(request, replayable.copy(), baseURL))
            } catch {
                outcome = .failure(error)
            }
            let isLastAttempt = attempt >= policy.maximumAttempts
            switch outcome {
            case .failure(let error):
                if isLastAttempt || Task.isCancelled || !Self.isTransportFailure(error) { throw error }
                try await wait(retry: attempt, atLeast: .zero, operationID: operationID)
            case .success(let (response, responseBody)):
                let status = response.status.code
                guard policy.retryableStatuses.contains(status), !isLastAttempt else {
                    return try finish((response, responseBody), operationID: operationID)
                }
                let requested = retryAfter(of: response) ?? .zero
                if requested > policy.maximumRetryAfter {
                    return try finish((response, responseBody), operationID: operationID)
                }
                try await wait(retry: attempt, atLeast: requested, operationID: operationID)
            }
            attempt += 1
        }
    }

    /// Turns a final 429 whose `Retry-After` exceeds the maximum into ``RateLimitedError``.
    private func finish(_ result: (HTTPResponse, HTTPBody?), operationID: String) throws -> (HTTPResponse, HTTPBody?) {
        let response = result.0
        if response.status.code == 429, let wait = retryAfter(of: response), wait > policy.maximumRetryAfter {
            throw RateLimitedError(operationID: operationID, retryAfter: wait, response: response)
        }
        return result
    }

    private func retryAfter(of response: HTTPResponse) -> Duration? {
        guard policy.retryAfterStatuses.contains(response.status.code), let value = response.headerFields[.retryAfter] else { return nil }
        return RetryAfter.parse(value, now: now())
    }

    private func wait(retry: Int, atLeast minimum: Duration, operationID: String) async throws {
        if let connectivity { try await connectivity.waitUntilOnline() }
        let delay = max(policy.backoff.delay(forRetry: retry, random: random), minimum)
        onRetry?(operationID, retry, delay)
        try await clock.sleep(for: delay)
    }

    /// Whether an error is a failure of the exchange that another attempt
    /// may not meet: not cancellation, and not one of this module's own
    /// verdicts (rate limit, ended session, insecure URL). The runtime wraps
    /// errors in `ClientError`; its underlying error decides.
    static func isTransportFailure(_ error: any Error) -> Bool {
        let cause = (error as? ClientError)?.underlyingError ?? error
        switch cause {
        case is CancellationError, is RateLimitedError, is TokenRefreshError, is InsecureBaseURLError:
            return false
        case let urlError as URLError:
            return urlError.code != .cancelled
        default:
            return true
        }
    }
}

extension RetryMiddleware where C == ContinuousClock {
    /// Creates the middleware on the real clock; every option of the
    /// clock-generic initialiser, with the same defaults.
    public init(
        policy: RetryPolicy = RetryPolicy(),
        connectivity: Connectivity? = nil,
        maximumBufferedBodyBytes: Int = 10 * 1024 * 1024,
        now: @escaping @Sendable () -> Date = { Date() },
        random: @escaping @Sendable (ClosedRange<Double>) -> Double = { Double.random(in: $0) },
        onRetry: (@Sendable (String, Int, Duration) -> Void)? = nil
    ) {
        self.init(
            policy: policy, clock: ContinuousClock(), connectivity: connectivity, maximumBufferedBodyBytes: maximumBufferedBodyBytes,
            now: now, random: random, onRetry: onRetry)
    }
}
