import ClientRuntimeTesting
import Foundation
import HTTPTypes
import OpenAPIRuntime
import RuntimeSupport
import Testing
import Waiting

@testable import Resilience

/// `TimeoutMiddleware` on a clock the test moves: which request a deadline
/// ends, and what it leaves behind. (The loopback tests in
/// `TransportPolicyTests` show a real transport's request cancelled.)
@Suite(.timeLimit(.minutes(10))) struct TimeoutMiddlewareTests {
    /// A request that never answers until told to or cancelled (a server
    /// gone silent), saying when it started. One request per path.
    final class SilentServer: Sendable {
        private struct State {
            var started: [String] = []
            var cancelled: [String] = []
            var released: Set<String> = []
            /// Paths whose request was cancelled before it began to wait.
            var cancelledEarly: Set<String> = []
            var waiting: [String: CheckedContinuation<Void, any Error>] = [:]
        }

        private let state = Locked(State())

        var startedPaths: [String] { state.withLock { $0.started } }
        var cancelledPaths: [String] { state.withLock { $0.cancelled } }

        /// Lets the request for `path` answer 200.
        func answer(_ path: String) {
            state.withLock { state in
                state.released.insert(path)
                return state.waiting.removeValue(forKey: path)
            }?.resume()
        }

        @Sendable func send(_ request: HTTPRequest, _ body: HTTPBody?, _ url: URL) async throws -> (HTTPResponse, HTTPBody?) {
            let path = request.path ?? ""
            state.withLock { $0.started.append(path) }
            do {
                try await withTaskCancellationHandler {
                    try await withCheckedThrowingContinuation { continuation in
                        let answered = state.withLock { state -> Bool? in
                            if state.released.contains(path) { return true }
                            if state.cancelledEarly.contains(path) { return false }
                            state.waiting[path] = continuation
                            return nil
                        }
                        switch answered {
                        case true?: continuation.resume()
                        case false?: continuation.resume(throwing: CancellationError())
                        case nil: break
                        }
                    }
                } onCancel: {
                    state.withLock { state in
                        state.cancelledEarly.insert(path)
                        return state.waiting.removeValue(forKey: path)
                    }?.resume(throwing: CancellationError())
                }
            } catch {
                state.withLock { $0.cancelled.append(path) }
                throw error
            }
            return (HTTPResponse(status: .ok), nil)
        }
    }

    /// A call in flight through the middleware.
    struct Call {
        let task: Task<Int, any Error>

        /// Its status; a test cancelled at its time limit cancels the call
        /// too, so a deadline that never fires fails the test instead of hanging it.
        var value: Int {
            get async throws { try await withTaskCancellationHandler { try await task.value } onCancel: { task.cancel() } }
        }

        func cancel() { task.cancel() }
    }

    func call(_ middleware: TimeoutMiddleware<ManualClock.Continuous>, _ server: SilentServer, _ path: String) -> Call {
        Call(task: Task {
            let request = HTTPRequest(method: .get, scheme: nil, authority: nil, path: path)
            let (response, _) = try await middleware.intercept(
                request, body: nil, baseURL: URL(string: "https://api.example.com")!, operationID: "op\(path)", next: server.send)
            return response.status.code
        })
    }

    @Test func aDeadlineEndsOnlyTheRequestWhoseTimeHasCome() async throws {
        let clock = ManualClock()
        let middleware = TimeoutMiddleware(timeout: .seconds(20), clock: clock.continuous)
        let server = SilentServer()
        let first = call(middleware, server, "/first")
        try await waitUntil("the first request started") { server.startedPaths == ["/first"] }
        clock.advance(by: .seconds(15))
        let second = call(middleware, server, "/second")
        try await waitUntil("the second request started") { server.startedPaths.count == 2 }

        // 21 s after the first began, 6 s after the second.
        clock.advance(by: .seconds(6))
        do {
            _ = try await first.value
            Issue.record("the first request outlived its deadline")
        } catch let error as RequestTimeoutError {
            #expect(error.operationID == "op/first" && error.timeout == .seconds(20))
        }
        #expect(server.cancelledPaths == ["/first"])

        // The second is still in flight and answers in its own time.
        server.answer("/second")
        #expect(try await second.value == 200)
        #expect(middleware.watch.pendingCount == 0)
    }

    @Test func aRequestAnsweredInTimeIsNotEndedLater() async throws {
        let clock = ManualClock()
        let middleware = TimeoutMiddleware(timeout: .seconds(20), clock: clock.continuous)
        let server = SilentServer()
        server.answer("/quick")
        #expect(try await call(middleware, server, "/quick").value == 200)
        #expect(middleware.watch.pendingCount == 0)
        // The watcher wakes at the deadline (or, started after the answer,
        // at once), finds nothing in flight, and ends.
        try await waitUntil("the watcher sleeps or ended") { clock.sleeperCount == 1 || !middleware.watch.isWatching }
        clock.advance(by: .seconds(25))
        try await waitUntil("the watcher ended") { !middleware.watch.isWatching }
        #expect(server.cancelledPaths.isEmpty)
    }

    @Test func aCancelledCallerCancelsItsRequestWithoutATimeout() async throws {
        let clock = ManualClock()
        let middleware = TimeoutMiddleware(timeout: .seconds(20), clock: clock.continuous)
        let server = SilentServer()
        let call = call(middleware, server, "/abandoned")
        try await waitUntil("the request started") { server.startedPaths == ["/abandoned"] }
        call.cancel()
        await #expect(throws: CancellationError.self) { try await call.value }
        #expect(server.cancelledPaths == ["/abandoned"])
        #expect(middleware.watch.pendingCount == 0)
    }

    @Test func manyRequestsInFlightShareOneWatcher() async throws {
        let clock = ManualClock()
        let middleware = TimeoutMiddleware(timeout: .seconds(20), clock: clock.continuous)
        let server = SilentServer()
        let calls = (0..<50).map { call(middleware, server, "/\($0)") }
        try await waitUntil("all fifty started") { server.startedPaths.count == 50 }
        try await waitUntil("one watcher sleeps") { clock.sleeperCount == 1 }
        #expect(middleware.watch.pendingCount == 50)
        clock.advance(by: .seconds(20))
        for call in calls { await #expect(throws: RequestTimeoutError.self) { try await call.value } }
        #expect(Set(server.cancelledPaths).count == 50)
        #expect(middleware.watch.pendingCount == 0)
    }

    @Test func aShortenedTimeoutIsWatchedFromItsOwnDeadline() async throws {
        let clock = ManualClock()
        var middleware = TimeoutMiddleware(timeout: .seconds(60), clock: clock.continuous)
        let server = SilentServer()
        let long = call(middleware, server, "/long")
        try await waitUntil("the long request started") { server.startedPaths == ["/long"] }
        // A copy with a shorter deadline shares the watch: its request's
        // deadline comes before the one the watcher sleeps until.
        middleware.timeout = .seconds(5)
        let short = call(middleware, server, "/short")
        try await waitUntil("the short request started") { server.startedPaths.count == 2 }
        clock.advance(by: .seconds(6))
        await #expect(throws: RequestTimeoutError.self) { try await short.value }
        #expect(server.cancelledPaths == ["/short"])
        server.answer("/long")
        #expect(try await long.value == 200)
    }
}
