import RuntimeSupport

/// The deadlines of the requests one ``TimeoutMiddleware`` has in flight,
/// watched by a single task that sleeps until the earliest of them.
///
/// A timer per request (a child task sleeping for the whole deadline,
/// raced against the request) starts a task and arms a system timer for
/// every request, and cancels both: most of the middleware's cost when the
/// server answers fast. Here a request costs one entry added and removed
/// under a lock. The watcher wakes when the earliest deadline it knows of
/// comes, expires what is due, and sleeps until the next; an entry removed before then leaves
/// it one wake for nothing, so on a steady stream of fast requests it wakes
/// about once per timeout. With nothing left in flight it ends, and the
/// next request starts another.
final class DeadlineWatch<C: Clock>: Sendable where C.Duration == Duration {
    private struct Entry {
        let deadline: C.Instant
        let expire: @Sendable () -> Void
    }

    private struct State {
        var nextID: UInt64 = 0
        var pending: [UInt64: Entry] = [:]
        /// Bumped for each new watcher; a watcher of an older generation ends.
        var generation: UInt64 = 0
        /// The running watcher and the instant it sleeps until; nil: none.
        var watcher: (task: Task<Void, Never>, until: C.Instant)?
    }

    private let clock: C
    private let state = Locked(State())

    /// A watch on `clock`.
    init(clock: C) {
        self.clock = clock
    }

    /// Calls `expire` once `deadline` has passed, unless ``finish(_:)`` is
    /// called with the returned id first. `expire` runs outside the lock.
    func register(deadline: C.Instant, expire: @escaping @Sendable () -> Void) -> UInt64 {
        state.withLock { state in
            let id = state.nextID
            state.nextID &+= 1
            state.pending[id] = Entry(deadline: deadline, expire: expire)
            // A watcher that wakes by this deadline will see it; otherwise
            // (none runs, or a timeout was shortened) one that does replaces it.
            if let watcher = state.watcher, watcher.until <= deadline { return id }
            state.watcher?.task.cancel()
            state.generation &+= 1
            let generation = state.generation
            // At the priority of the request that starts it, as a timer of
            // the request's own would run: not held back behind the requests
            // it bounds, nor ahead of the work that would have answered them.
            let task = Task.detached(priority: Task.currentPriority) { [self] in await self.watch(generation) }
            state.watcher = (task, deadline)
            return id
        }
    }

    /// The request `id` ended: its deadline no longer matters.
    func finish(_ id: UInt64) {
        state.withLock { _ = $0.pending.removeValue(forKey: id) }
    }

    /// Requests in flight (for tests).
    var pendingCount: Int { state.withLock { $0.pending.count } }

    /// Whether a watcher runs (for tests).
    var isWatching: Bool { state.withLock { $0.watcher != nil } }

    private func watch(_ generation: UInt64) async {
        while true {
            let (expired, until) = state.withLock { state -> ([@Sendable () -> Void], C.Instant?) in
                guard state.generation == generation else { return ([], nil) }
                let now = clock.now
                var expired: [@Sendable () -> Void] = []
                var earliest: C.Instant?
                for (id, entry) in state.pending {
                    if entry.deadline <= now {
                        expired.append(entry.expire)
                        state.pending[id] = nil
                    } else if earliest.map({ entry.deadline < $0 }) ?? true {
                        earliest = entry.deadline
                    }
                }
                if let earliest, let task = state.watcher?.task {
                    state.watcher = (task, earliest)
                } else {
                    state.watcher = nil
                }
                return (expired, earliest)
            }
            for expire in expired { expire() }
            guard let until else { return }
            // Cancelled: a watcher for an earlier deadline took over; the
            // next look sees the new generation and ends this one.
            try? await clock.sleep(until: until, tolerance: nil)
        }
    }
}
