import RuntimeSupport

/// Resets started by the synchronous `reset(all:)` (as the reference
/// declares it), kept in order: each runs after the one before it, and
/// every later call of the tracker waits for them before its own work, so
/// an event tracked after `reset` belongs to the new session.
final class OrderedResets: Sendable {
    private struct State {
        var last: Task<Void, Never>?
        var pending = 0
    }

    private let state = Locked(State())

    /// Starts `work` after the resets already started.
    func start(_ work: @escaping @Sendable () async -> Void) {
        state.withLock { state in
            let previous = state.last
            state.pending += 1
            state.last = Task { [weak self] in
                await previous?.value
                await work()
                self?.state.withLock { $0.pending -= 1 }
            }
        }
    }

    /// Whether a reset is still running or waiting.
    var isPending: Bool { state.withLock { $0.pending > 0 } }

    /// Returns once every reset started so far has finished.
    func settled() async {
        guard let last = state.withLock({ $0.pending > 0 ? $0.last : nil }) else { return }
        await last.value
    }
}
