import Dispatch
import Foundation
import RuntimeSupport

/// Whether the calling code runs where it would run on iOS's main thread:
/// the main thread itself, or the main dispatch queue, which runs the main
/// actor. (On Linux the test runner hands the main queue to a worker
/// thread, so `Thread.isMainThread` alone is false in `@MainActor` code.)
enum MainThread {
    private static let mainQueueKey: Locked<DispatchSpecificKey<Bool>> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return Locked(key)
    }()

    /// Whether the caller is on the main thread or the main queue.
    static var isCurrent: Bool {
        Thread.isMainThread || mainQueueKey.withLock { DispatchQueue.getSpecific(key: $0) } == true
    }
}
