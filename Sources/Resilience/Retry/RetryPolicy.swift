import HTTPTypes

/// Which requests may be retried, on which outcomes, how often and how long
/// to wait.
///
/// Defaults: at most 3 attempts; backoff 0.5 s base, 30 s cap, full jitter;
/// retried statuses 408, 429, 500, 502, 503, 504 and transport failures
/// (connection errors, timeouts); `Retry-After` honoured on 429 and 503 up to
/// 60 s. Only idempotent requests are retried: GET, HEAD, PUT, DELETE,
/// OPTIONS, a request that carries an `Idempotency-Key`, or an operation
/// listed in ``idempotentOperations``; never one in ``nonRetryableOperations``.
public struct RetryPolicy: Sendable {
    /// The most attempts, the first included. Default 3.
    public var maximumAttempts: Int
    /// The waits between attempts.
    public var backoff: BackoffPolicy
    /// Response statuses that are retried.
    public var retryableStatuses: Set<Int>
    /// Statuses whose `Retry-After` header is honoured.
    public var retryAfterStatuses: Set<Int>
    /// The longest `Retry-After` wait honoured. A longer one is not waited
    /// for: a 429 then throws ``RateLimitedError`` carrying the wait.
    public var maximumRetryAfter: Duration
    /// Methods that are safe to repeat.
    public var idempotentMethods: Set<HTTPRequest.Method>
    /// Operations (by operation id) safe to repeat whatever their method, such
    /// as a POST keyed by an `event_key`.
    public var idempotentOperations: Set<String>
    /// Operations never retried, whatever their method (SOUL's `requestOTP`
    /// and `verifyOTP`: a repeat sends another code or burns an attempt).
    public var nonRetryableOperations: Set<String>
    /// A request with this header counts as idempotent.
    public var idempotencyKeyHeader: HTTPField.Name

    /// Creates a policy; every parameter has the documented default.
    public init(
        maximumAttempts: Int = 3,
        backoff: BackoffPolicy = BackoffPolicy(),
        retryableStatuses: Set<Int> = [408, 429, 500, 502, 503, 504],
        retryAfterStatuses: Set<Int> = [429, 503],
        maximumRetryAfter: Duration = .seconds(60),
        idempotentMethods: Set<HTTPRequest.Method> = [.get, .head, .put, .delete, .options],
        idempotentOperations: Set<String> = [],
        nonRetryableOperations: Set<String> = [],
        idempotencyKeyHeader: HTTPField.Name = .idempotencyKey
    ) {
        self.maximumAttempts = max(1, maximumAttempts)
        self.backoff = backoff
        self.retryableStatuses = retryableStatuses
        self.retryAfterStatuses = retryAfterStatuses
        self.maximumRetryAfter = maximumRetryAfter
        self.idempotentMethods = idempotentMethods
        self.idempotentOperations = idempotentOperations
        self.nonRetryableOperations = nonRetryableOperations
        self.idempotencyKeyHeader = idempotencyKeyHeader
    }

    /// Whether `request` for `operationID` may be sent more than once.
    public func allowsRetry(of request: HTTPRequest, operationID: String) -> Bool {
        if nonRetryableOperations.contains(operationID) { return false }
        return idempotentMethods.contains(request.method) || idempotentOperations.contains(operationID)
            || request.headerFields[idempotencyKeyHeader] != nil
    }
}

extension HTTPField.Name {
    /// `Idempotency-Key` (IETF draft-ietf-httpapi-idempotency-key-header).
    public static let idempotencyKey = HTTPField.Name("Idempotency-Key")!
}
