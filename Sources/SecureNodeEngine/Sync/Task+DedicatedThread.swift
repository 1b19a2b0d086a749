import Foundation

extension Task where Failure == any Error {
    /// Runs blocking work (a SQLite transaction that waits for records) on
    /// a thread of its own, so that it never holds one of the few threads
    /// Swift concurrency runs every task on; the task's value is its result.
    static func detachedThread(_ work: @escaping @Sendable () throws -> Success) -> Task<Success, any Error> {
        Task {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Success, any Error>) in
                let thread = Thread { continuation.resume(with: Result(catching: work)) }
                thread.name = "SecureNode.sync"
                thread.start()
            }
        }
    }
}

/// A call started while a sync was being applied: the sync is rolled back
/// and runs again after the call (the store is never written during one).
struct CallStartedDuringSync: Error {}
