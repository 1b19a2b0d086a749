import Foundation

/// Work that runs once for everyone who asks for it while it runs: a caller
/// that asks during a run joins it and gets its result, as a caller of a
/// token refresh gets the refresh in flight.
///
/// Each ask names the `generation` of the state it wants the work to see
/// (a counter its owner bumps on every change a run in flight cannot see,
/// such as new credentials). A run that started at that generation or later
/// is joined; an older one is not: the ask is answered by one more run that
/// starts when the older one ends, and every later ask joins that one. So
/// at most one run is in flight and at most one waits behind it.
///
/// A caller whose task is cancelled stops waiting at once and gets
/// `CancellationError`; the run goes on for the others, and is cancelled
/// only when nobody waits for it any more (a run nobody waits for that has
/// not started is dropped).
///
/// ```swift
/// let syncs = SharedRun<SyncStatus>()
/// let status = try await syncs.run(generation: credentialsEpoch) { await performSync() }
/// ```
public final class SharedRun<Value: Sendable>: Sendable {
    /// One run: the callers waiting for it and, once started, its task.
    struct Flight {
        let id: Int
        /// The generation of the state the run sees (its asks' highest, for a run not started yet).
        var generation: Int
        var work: @Sendable () async -> Value
        var task: Task<Void, Never>?
        /// Cancelled because nobody waited for it any more: a later ask starts a new run.
        var isCancelled = false
        var waiters: [Int: CheckedContinuation<Value, any Error>] = [:]
    }

    struct State {
        var running: Flight?
        var queued: Flight?
        var nextID = 0
    }

    private let state = Locked(State())

    /// Creates an idle runner.
    public init() {}

    /// Whether a run is in flight.
    public var isRunning: Bool { state.read().running != nil }

    /// How many callers wait, for the run in flight and the one queued behind it.
    public var waiterCount: Int {
        let state = state.read()
        return (state.running?.waiters.count ?? 0) + (state.queued?.waiters.count ?? 0)
    }

    /// Runs `work`, joins the run in flight when it sees `generation`, or
    /// runs once more after it; returns the result of the run it waited for.
    /// Throws `CancellationError` only when the calling task is cancelled.
    public func run(generation: Int, _ work: @escaping @Sendable () async -> Value) async throws -> Value {
        let waiter = state.withLock { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
                let start: Flight? = state.withLock { state in
                    if Task.isCancelled {
                        continuation.resume(throwing: CancellationError())
                        return nil
                    }
                    if var running = state.running, !running.isCancelled, running.generation >= generation {
                        running.waiters[waiter] = continuation
                        state.running = running
                        return nil
                    }
                    if state.running != nil {
                        var queued = state.queued ?? Flight(id: waiter, generation: generation, work: work)
                        queued.generation = max(queued.generation, generation)
                        queued.waiters[waiter] = continuation
                        state.queued = queued
                        return nil
                    }
                    var flight = Flight(id: waiter, generation: generation, work: work)
                    flight.waiters[waiter] = continuation
                    state.running = flight
                    return flight
                }
                if let start { launch(start) }
            }
        } onCancel: {
            leave(waiter)
        }
    }

    /// Starts `flight`'s task (it is `running` already).
    private func launch(_ flight: Flight) {
        let task = Task { [self] in
            let value = await flight.work()
            finish(flight.id, with: value)
        }
        let cancelled = state.withLock { state -> Bool in
            guard state.running?.id == flight.id else { return false }
            state.running?.task = task
            // Every waiter left before the task existed.
            guard state.running?.waiters.isEmpty == true else { return false }
            state.running?.isCancelled = true
            return true
        }
        if cancelled { task.cancel() }
    }

    /// Hands `value` to the run's waiters and starts the queued run, if any.
    private func finish(_ id: Int, with value: Value) {
        let (waiters, next) = state.withLock { state -> ([CheckedContinuation<Value, any Error>], Flight?) in
            guard let running = state.running, running.id == id else { return ([], nil) }
            state.running = state.queued
            state.queued = nil
            return (Array(running.waiters.values), state.running)
        }
        for waiter in waiters { waiter.resume(returning: value) }
        if let next { launch(next) }
    }

    /// A cancelled caller stops waiting; a run left with no waiter is
    /// cancelled (running) or dropped (queued).
    private func leave(_ waiter: Int) {
        let (continuation, cancel) = state.withLock { state -> (CheckedContinuation<Value, any Error>?, Task<Void, Never>?) in
            if let continuation = state.queued?.waiters.removeValue(forKey: waiter) {
                if state.queued?.waiters.isEmpty == true { state.queued = nil }
                return (continuation, nil)
            }
            guard let continuation = state.running?.waiters.removeValue(forKey: waiter) else { return (nil, nil) }
            guard state.running?.waiters.isEmpty == true else { return (continuation, nil) }
            state.running?.isCancelled = true
            return (continuation, state.running?.task)
        }
        continuation?.resume(throwing: CancellationError())
        cancel?.cancel()
    }
}
