import Foundation

/// An SDK's offline files in one folder: the response cache in `cache/`
/// and the queue of writes in `pending-writes/`.
public struct OfflineStorage: Sendable {
    /// The response cache.
    public let cache: ResponseCache
    /// The durable queue of writes made offline.
    public let queue: OfflineWriteQueue

    /// Opens (and creates) both in `folder`. Throws when the queue's folder
    /// cannot be created or read.
    public init(folder: URL, cacheMaximumBytes: Int, now: @escaping @Sendable () -> Date = { Date() }) throws {
        cache = ResponseCache(folder: folder.appendingPathComponent("cache", isDirectory: true), maximumBytes: cacheMaximumBytes, now: now)
        queue = try OfflineWriteQueue(folder: folder.appendingPathComponent("pending-writes", isDirectory: true))
    }
}
