/// The ``LocationSource`` of a device: one reading from a
/// ``LocationManaging`` made on the main actor, only when the app already
/// holds permission, and at most `timeout` waited for.
///
/// - Never prompts: with no permission (never asked, denied, restricted) it
///   returns nil without asking for a reading.
/// - One reading, then the request is stopped: no continuous updates, no
///   background location.
/// - The manager is kept until its answer (or the timeout), as Core
///   Location requires; a late answer after the timeout is ignored.
public final class DeviceLocationReader: LocationSource {
    private let makeManager: @MainActor @Sendable () -> any LocationManaging
    private let timeout: Duration

    /// A reader making its manager with `makeManager` (on the main actor),
    /// waiting `timeout` at most for a reading (default 15 s: a first fix
    /// can take several seconds).
    public init(timeout: Duration = .seconds(15), makeManager: @escaping @MainActor @Sendable () -> any LocationManaging) {
        self.makeManager = makeManager
        self.timeout = timeout
    }

    /// One reading when permission is held; nil otherwise or on failure.
    public func readingIfAuthorized() async -> LocationData? {
        await read()
    }

    @MainActor
    private func read() async -> LocationData? {
        let manager = makeManager()
        guard manager.authorization.allowsReading else { return nil }
        let timeout = self.timeout
        return await withCheckedContinuation { (continuation: CheckedContinuation<LocationData?, Never>) in
            let answer = OneAnswer(continuation)
            let deadline = Task { @MainActor in
                try? await Task.sleep(for: timeout)
                guard !Task.isCancelled else { return }
                manager.stop()
                answer.give(nil)
            }
            manager.requestOneReading { result in
                deadline.cancel()
                manager.stop()
                answer.give(try? result.get())
            }
        }
    }
}

/// A continuation resumed by whichever of the reading and the deadline comes
/// first; both run on the main actor, so no lock is needed.
@MainActor
private final class OneAnswer {
    private var continuation: CheckedContinuation<LocationData?, Never>?

    init(_ continuation: CheckedContinuation<LocationData?, Never>) {
        self.continuation = continuation
    }

    func give(_ reading: LocationData?) {
        continuation?.resume(returning: reading)
        continuation = nil
    }
}
