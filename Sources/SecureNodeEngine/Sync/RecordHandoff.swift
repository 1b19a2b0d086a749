import BrandingStore
import Foundation

/// Hands records from the task reading a sync response to the store's
/// transaction, which runs on a thread of its own (a SQLite transaction is
/// synchronous, and the response arrives asynchronously).
///
/// At most `capacity` chunks wait between the two, so a slow disk slows
/// the reading down instead of filling memory; the reader awaits room
/// without blocking a thread. The reader ends the stream with the sync's
/// cursor and config, or with the error that stopped it, which the
/// transaction reads (``finalState()``) before it commits: an error rolls
/// the transaction back.
///
/// `@unchecked Sendable` is safe because every stored property except the
/// immutable `capacity` is read and written only while `condition` is held.
final class RecordHandoff: @unchecked Sendable {
    private let condition = NSCondition()
    private let capacity: Int
    private var chunks: [[IncomingBrandingRecord]] = []
    private var head = 0
    private var ending: Result<SyncState, any Error>?
    private var closed = false
    private var roomWaiter: CheckedContinuation<Void, Never>?

    /// A handoff holding at most `capacity` chunks in between.
    init(capacity: Int = 8) {
        self.capacity = max(1, capacity)
    }

    private var waiting: Int { chunks.count - head }

    /// Queues a chunk, waiting for room; false when the transaction has
    /// stopped taking records (it failed, or finished): stop reading.
    func put(_ chunk: [IncomingBrandingRecord]) async -> Bool {
        while true {
            if let queued = tryPut(chunk) { return queued }
            await withCheckedContinuation { waitForRoom($0) }
        }
    }

    /// Queues the chunk if there is room: true; false when closed; nil when full.
    private func tryPut(_ chunk: [IncomingBrandingRecord]) -> Bool? {
        condition.lock()
        defer { condition.unlock() }
        if closed { return false }
        guard waiting < capacity else { return nil }
        chunks.append(chunk)
        condition.signal()
        return true
    }

    /// Resumes `continuation` at once if there is room (or the handoff is
    /// closed), else when the transaction takes a chunk or closes.
    private func waitForRoom(_ continuation: CheckedContinuation<Void, Never>) {
        condition.lock()
        if closed || waiting < capacity {
            condition.unlock()
            continuation.resume()
        } else {
            roomWaiter = continuation
            condition.unlock()
        }
    }

    /// Ends the stream: the cursor and config to commit with, or the error
    /// that makes the transaction roll back.
    func finish(_ result: Result<SyncState, any Error>) {
        condition.lock()
        if ending == nil { ending = result }
        condition.signal()
        condition.unlock()
    }

    /// The transaction is over: wakes a waiting reader, refuses more chunks.
    func close() {
        condition.lock()
        closed = true
        let waiter = roomWaiter
        roomWaiter = nil
        condition.unlock()
        waiter?.resume()
    }

    /// The next chunk, blocking the calling thread until one comes; nil once
    /// the stream has ended.
    func take() -> [IncomingBrandingRecord]? {
        condition.lock()
        while waiting == 0 && ending == nil { condition.wait() }
        guard waiting > 0 else {
            condition.unlock()
            return nil
        }
        let chunk = chunks[head]
        chunks[head] = []
        head += 1
        if head > 64, head * 2 > chunks.count {
            chunks.removeFirst(head)
            head = 0
        }
        let waiter = roomWaiter
        roomWaiter = nil
        condition.unlock()
        waiter?.resume()
        return chunk
    }

    /// How the stream ended (called once ``take()`` has returned nil).
    func finalState() throws -> SyncState {
        condition.lock()
        defer { condition.unlock() }
        guard let ending else { throw HandoffNotFinished() }
        return try ending.get()
    }

    /// The records, in order, for the store to read once.
    var records: Records { Records(handoff: self) }

    /// The records as a `Sequence` that blocks between chunks.
    struct Records: Sequence {
        let handoff: RecordHandoff

        func makeIterator() -> Iterator { Iterator(handoff: handoff) }

        struct Iterator: IteratorProtocol {
            let handoff: RecordHandoff
            var chunk: [IncomingBrandingRecord] = []
            var index = 0

            mutating func next() -> IncomingBrandingRecord? {
                while index == chunk.count {
                    guard let next = handoff.take() else { return nil }
                    chunk = next
                    index = 0
                }
                defer { index += 1 }
                return chunk[index]
            }
        }
    }
}

/// Reading the response failed (the connection dropped, the body is not
/// JSON); the transaction rolled back because of it.
struct ResponseReadFailure: Error {
    /// What stopped the reading.
    let underlying: any Error
}

/// The transaction asked for the final state before the stream ended (a
/// programming error: it is asked for after the last record).
struct HandoffNotFinished: Error, CustomStringConvertible {
    var description: String { "the sync response was not read to its end" }
}
