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
/// - No silent waits: a `Retry-After` beyond the policy's maximum (2 s), or
///   a 429 that names none, is not waited for: the response goes to the app
///   at once, body and headers included (the SDKs turn it into a typed
///   rate-limit error with the wait, for a countdown); and the waits of one
///   call add up to at most ``RetryPolicy/maximumRetryWait`` (5 s).
/// - While ``Connectivity`` reports offline, a retry waits for it (the
///   device is known to be offline: the app shows that, not a spinner).
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
            return try await next(request, body, baseURL)
        }
        var attempt = 1
        var waited = Duration.zero
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
                guard let delay = delay(retry: attempt, atLeast: .zero, waited: waited) else { throw error }
                try await wait(delay, retry: attempt, operationID: operationID)
                waited += delay
            case .success(let (response, responseBody)):
                let status = response.status.code
                guard policy.retryableStatuses.contains(status), !isLastAttempt else { return (response, responseBody) }
                let requested = retryAfter(of: response)
                // A 429 is retried only when it names a wait that fits; else the app shows a countdown at once.
                if status == 429, requested == nil { return (response, responseBody) }
                if let requested, requested > policy.maximumRetryAfter { return (response, responseBody) }
                guard let delay = delay(retry: attempt, atLeast: requested ?? .zero, waited: waited) else { return (response, responseBody) }
                try await wait(delay, retry: attempt, operationID: operationID)
                waited += delay
            }
            attempt += 1
        }
    }

    /// The wait before retry `retry`, or nil when it would take the call's
    /// waits past ``RetryPolicy/maximumRetryWait``.
    private func delay(retry: Int, atLeast minimum: Duration, waited: Duration) -> Duration? {
        let delay = max(policy.backoff.delay(forRetry: retry, random: random), minimum)
        return waited + delay <= policy.maximumRetryWait ? delay : nil
    }

    private func retryAfter(of response: HTTPResponse) -> Duration? {
        guard policy.retryAfterStatuses.contains(response.status.code), let value = response.headerFields[.retryAfter] else { return nil }
        return RetryAfter.parse(value, now: now())
    }

    private func wait(_ delay: Duration, retry: Int, operationID: String) async throws {
        if let connectivity { try await connectivity.waitUntilOnline() }
        onRetry?(operationID, retry, delay)
        try await clock.sleep(for: delay)
    }

    /// Whether an error is a failure of the exchange that another attempt
    /// may not meet: not cancellation, and not one of this module's own
    /// verdicts (rate limit, ended session, insecure URL, a connection that
    /// could not be verified), and not a TLS failure (another attempt meets
    /// the same certificate). The runtime wraps
    /// errors in `ClientError`; its underlying error decides.
    static func isTransportFailure(_ error: any Error) -> Bool {
        let cause = (error as? ClientError)?.underlyingError ?? error
        switch cause {
        case is CancellationError, is TokenRefreshError, is InsecureBaseURLError, is CertificatePinningError:
            return false
        case let urlError as URLError:
            return urlError.code != .cancelled && !TLSFailure.matches(urlError)
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
