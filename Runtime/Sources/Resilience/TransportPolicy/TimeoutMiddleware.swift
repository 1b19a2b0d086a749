import Foundation
import HTTPTypes
import OpenAPIRuntime
import RuntimeSupport

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
///
/// A deadline counts from the moment the request is handed on. The request
/// runs as a child task (`async let`), so a deadline cancels it and not the
/// caller, and a cancelled caller cancels it too; either way the call
/// returns only once the request has ended. One task per middleware watches
/// every deadline in flight (a `DeadlineWatch`): a timer task armed and
/// cancelled for each request made the middleware cost 16-28 us a request,
/// against 6-7 us now (`resilience-bench`'s breakdown).
public struct TimeoutMiddleware<C: Clock>: ClientMiddleware where C.Duration == Duration {
    /// The deadline.
    public var timeout: Duration
    /// The clock the deadline runs on.
    public let clock: C
    /// Operations passed on without this deadline: those with a bound of
    /// their own (SecureNode's sync, whose body can take minutes).
    public var exemptOperations: Set<String>
    /// The deadlines in flight, shared by copies of this middleware.
    let watch: DeadlineWatch<C>

    /// Creates the middleware.
    public init(timeout: Duration, clock: C, exemptOperations: Set<String> = []) {
        self.timeout = timeout
        self.clock = clock
        self.exemptOperations = exemptOperations
        watch = DeadlineWatch(clock: clock)
    }

    /// Sends the request within the deadline.
    public func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        // Checked only when there are any: hashing the id costs every request otherwise.
        if !exemptOperations.isEmpty, exemptOperations.contains(operationID) { return try await next(request, body, baseURL) }
        let timeout = timeout
        let outcome = AttemptOutcome()
        // The deadline is set before the request starts, so it is in place
        // by the time anything of the request can be seen.
        let deadline = watch.register(deadline: clock.now.advanced(by: timeout)) {
            outcome.deliver(.failure(RequestTimeoutError(operationID: operationID, timeout: timeout)))
        }
        defer { watch.finish(deadline) }
        async let _: Void = {
            do { outcome.deliver(.success(try await next(request, body, baseURL))) } catch { outcome.deliver(.failure(error)) }
        }()
        // Returning cancels the request if it is still out (its deadline
        // passed) and waits for it to end.
        return try await outcome.value().get()
    }
}

/// How one attempt under a ``TimeoutMiddleware`` ended: its answer, or its
/// deadline, whichever came first; the other is ignored.
private final class AttemptOutcome: Sendable {
    private struct State {
        var result: Result<(HTTPResponse, HTTPBody?), any Error>?
        var waiting: CheckedContinuation<Result<(HTTPResponse, HTTPBody?), any Error>, Never>?
    }

    private let state = Locked(State())

    /// Ends the attempt with `result`, unless it has ended already.
    func deliver(_ result: Result<(HTTPResponse, HTTPBody?), any Error>) {
        state.withLock { state -> CheckedContinuation<Result<(HTTPResponse, HTTPBody?), any Error>, Never>? in
            guard case nil = state.result else { return nil }
            state.result = result
            defer { state.waiting = nil }
            return state.waiting
        }?.resume(returning: result)
    }

    /// How the attempt ended, once it has.
    func value() async -> Result<(HTTPResponse, HTTPBody?), any Error> {
        await withCheckedContinuation { continuation in
            state.withLock { state -> Result<(HTTPResponse, HTTPBody?), any Error>? in
                if case nil = state.result { state.waiting = continuation }
                return state.result
            }.map { continuation.resume(returning: $0) }
        }
    }
}

extension TimeoutMiddleware where C == ContinuousClock {
    /// Creates the middleware on the real clock.
    public init(timeout: Duration, exemptOperations: Set<String> = []) {
        self.init(timeout: timeout, clock: ContinuousClock(), exemptOperations: exemptOperations)
    }
}
