import RuntimeSupport

/// Exponential backoff with full jitter: the wait before retry `n` (1-based)
/// is a uniformly random duration in `[0, min(maximumDelay, baseDelay * 2^(n-1))]`.
///
/// Full jitter spreads the retries of many clients that failed together, so
/// they do not return in waves (see "Exponential Backoff And Jitter", AWS
/// Architecture Blog, 2015).
public struct BackoffPolicy: Sendable, Hashable {
    /// The ceiling of the first retry's wait. Default 0.5 s.
    public var baseDelay: Duration
    /// The largest wait ever chosen by backoff alone. Default 30 s.
    public var maximumDelay: Duration

    /// Creates a policy.
    public init(baseDelay: Duration = .milliseconds(500), maximumDelay: Duration = .seconds(30)) {
        self.baseDelay = baseDelay
        self.maximumDelay = maximumDelay
    }

    /// The upper bound of the wait before retry `retry` (1 for the first retry).
    public func ceiling(forRetry retry: Int) -> Duration {
        let exponent = min(max(retry - 1, 0), 62)
        let base = baseDelay.totalSeconds
        let ceiling = base * Double(UInt64(1) << UInt64(exponent))
        return .seconds(min(ceiling, maximumDelay.totalSeconds))
    }

    /// A random wait in `[0, ceiling(forRetry:)]`.
    public func delay(forRetry retry: Int, using generator: inout some RandomNumberGenerator) -> Duration {
        delay(forRetry: retry) { Double.random(in: $0, using: &generator) }
    }

    /// A wait in `[0, ceiling(forRetry:)]` drawn by `random` from the range
    /// it is given (tests inject a fixed draw).
    public func delay(forRetry retry: Int, random: (ClosedRange<Double>) -> Double) -> Duration {
        let ceiling = ceiling(forRetry: retry).totalSeconds
        guard ceiling > 0 else { return .zero }
        return .seconds(random(0...ceiling))
    }
}

