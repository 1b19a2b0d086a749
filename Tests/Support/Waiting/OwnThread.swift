import Foundation

/// Runs `body`, which blocks its thread (a child process waited for, a
/// kill test's pauses, threads joined), on a thread of its own, and awaits
/// its result.
///
/// Swift Testing runs tests on the cooperative thread pool, which has one
/// thread per core: a test that blocks one of them for seconds takes a
/// core's worth of progress from every other test running beside it, and
/// on two cores two such tests stop them all. Blocking work goes here.
public func onOwnThread<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            continuation.resume(with: Result { try body() })
        }
        thread.stackSize = 4 << 20
        thread.start()
    }
}
