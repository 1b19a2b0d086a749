import Foundation
import HTTPTypes
import OpenAPIRuntime

/// A request (or, placed above ``RetryMiddleware``, a whole call with its
/// retries) took longer than its deadline and was cancelled.
public struct RequestTimeoutError: Error, Sendable, CustomStringConvertible {
    /// The operation.
    public let operationID: String
    /// The deadline that passed.
    public let timeout: Duration

    /// A readable summary.
    public var description: String { "\(operationID) did not complete within \(timeout)" }
}

/// Gives each request a deadline: when it passes, the request is cancelled
/// and ``RequestTimeoutError`` thrown.
///
/// Below ``RetryMiddleware`` it bounds each attempt (and a timed-out attempt
/// is retried like any transport failure); above it, it bounds the whole call.
/// Transports keep their own connect and read timeouts (URLSession's
/// `timeoutIntervalForRequest` is the idle/read timeout; SOUL asks for 10 s);
/// this deadline is the bound they lack for the request as a whole.
public struct TimeoutMiddleware<C: Clock>: ClientMiddleware where C.Duration == Duration {
    /// The deadline.
    public var timeout: Duration
    /// The clock the deadline runs on.
    public let clock: C
    /// Operations passed on without this deadline: those with a bound of
    /// their own (SecureNode's sync, whose body can take minutes).
    public var exemptOperations: Set<String>

    /// Creates the middleware.
    public init(timeout: Duration, clock: C, exemptOperations: Set<String> = []) {
        self.timeout = timeout
        self.clock = clock
        self.exemptOperations = exemptOperations
    }

    /// Races the request against the deadline.
    public func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        // Checked only when there are any: hashing the id costs every request otherwise.
        if !exemptOperations.isEmpty, exemptOperations.contains(operationID) { return try await next(request, body, baseURL) }
        let timeout = timeout
        let clock = clock
        return try await withoutActuallyEscaping(next) { next in
            try await withThrowingTaskGroup(of: (HTTPResponse, HTTPBody?).self) { group in
                group.addTask { try await next(request, body, baseURL) }
                group.addTask {
                    try await clock.sleep(for: timeout)
                    throw RequestTimeoutError(operationID: operationID, timeout: timeout)
                }
                defer { group.cancelAll() }
                guard let first = try await group.next() else { throw CancellationError() }
                return first
            }
        }
    }
}

extension TimeoutMiddleware where C == ContinuousClock {
    /// Creates the middleware on the real clock.
    public init(timeout: Duration, exemptOperations: Set<String> = []) {
        self.init(timeout: timeout, clock: ContinuousClock(), exemptOperations: exemptOperations)
    }
}
