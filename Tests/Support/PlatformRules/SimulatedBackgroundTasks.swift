import Foundation
import RuntimeSupport
import SecureNodeEngine
import Testing
import Waiting

/// `BGTaskScheduler` as iOS enforces it, for the tests: each rule an app
/// breaks is recorded as a test issue at `sourceLocation`, where iOS would
/// end the app (`NSInternalInconsistencyException`) or refuse:
///
/// - a launch handler registered after the app finished launching
///   (``finishLaunching()``): "All launch handlers must be registered
///   before application finishes launching";
/// - the same identifier registered twice: "Launch handler for task with
///   identifier ... has already been registered";
/// - an identifier missing from the Info.plist's
///   `BGTaskSchedulerPermittedIdentifiers`: `register` returns false (and a
///   request for it is refused with `notPermitted`);
/// - a request submitted for an identifier with no registered handler: "No
///   launch handler registered for task with identifier ...";
/// - a launch completed twice (`setTaskCompleted`), or never.
///
/// ``launch(_:expiring:)`` runs a registered handler as the system does,
/// with a launch the test may expire.
public final class SimulatedBackgroundTasks: Sendable {
    /// The identifiers the Info.plist permits.
    public let permitted: Set<String>
    private let sourceLocation: SourceLocation
    private let state = Locked(State())

    private struct State {
        var launchFinished = false
        var handlers: [String: @Sendable (any BackgroundTaskLaunch) -> Void] = [:]
        var requests: [(identifier: String, earliest: Date)] = []
        var violations: [String] = []
    }

    /// iOS with `permitted` listed under `BGTaskSchedulerPermittedIdentifiers`.
    public init(permitted: Set<String>, sourceLocation: SourceLocation = #_sourceLocation) {
        self.permitted = permitted
        self.sourceLocation = sourceLocation
    }

    /// The scheduler an SDK is given in place of `BGTaskScheduler`: one
    /// value, as `BackgroundRefreshScheduler.system` is one for the process.
    public var scheduler: BackgroundRefreshScheduler {
        made.withLock { made in
            if let made { return made }
            let scheduler = BackgroundRefreshScheduler(register: { self.register($0, $1) }, submit: { try self.submit($0, $1) })
            made = scheduler
            return scheduler
        }
    }

    private let made = Locked<BackgroundRefreshScheduler?>(nil)

    /// The app returned from `application(_:didFinishLaunchingWithOptions:)`.
    public func finishLaunching() {
        state.withLock { $0.launchFinished = true }
    }

    /// The identifiers with a registered handler.
    public var registered: Set<String> { Set(state.withLock { $0.handlers.keys }) }
    /// The requests submitted, in order.
    public var requests: [(identifier: String, earliest: Date)] { state.withLock { $0.requests } }
    /// Every rule broken so far (each also recorded as a test issue).
    public var violations: [String] { state.withLock { $0.violations } }

    private func register(_ identifier: String, _ handler: @escaping @Sendable (any BackgroundTaskLaunch) -> Void) -> Bool {
        let outcome = state.withLock { state -> (Bool, String?) in
            if state.launchFinished {
                return (false, "registered \(identifier) after the app finished launching: All launch handlers must be registered before application finishes launching")
            }
            if state.handlers[identifier] != nil {
                return (false, "Launch handler for task with identifier \(identifier) has already been registered")
            }
            guard permitted.contains(identifier) else { return (false, nil) }
            state.handlers[identifier] = handler
            return (true, nil)
        }
        if let violation = outcome.1 { record(violation) }
        return outcome.0
    }

    private func submit(_ identifier: String, _ earliest: Date) throws {
        guard permitted.contains(identifier) else { throw Refusal.notPermitted(identifier) }
        let registered = state.withLock { state -> Bool in
            guard state.handlers[identifier] != nil else { return false }
            state.requests.append((identifier, earliest))
            return true
        }
        if !registered { record("No launch handler registered for task with identifier \(identifier)") }
    }

    /// Launches `identifier`'s handler as the system does and waits until
    /// the launch completes; with `expiring`, the system ends the launch
    /// early (its expiration handler runs) once the work has started. The
    /// launch's success, or nil when nothing is registered.
    public func launch(_ identifier: String, expiring: Bool = false) async -> Bool? {
        guard let handler = state.withLock({ $0.handlers[identifier] }) else { return nil }
        let launch = SimulatedLaunch(identifier: identifier) { [self] violation in record(violation) }
        handler(launch)
        if expiring { launch.expire() }
        let success = await launch.completion()
        if success == nil { record("the launch of \(identifier) was never completed (setTaskCompleted)") }
        return success
    }

    private func record(_ violation: String) {
        state.withLock { $0.violations.append(violation) }
        Issue.record(Comment(rawValue: "iOS would end the app: \(violation)"), sourceLocation: sourceLocation)
    }

    /// What `BGTaskScheduler.submit` throws here.
    public enum Refusal: Error, Equatable {
        /// The identifier is not in `BGTaskSchedulerPermittedIdentifiers`.
        case notPermitted(String)
    }
}

/// One launch: completed once, expired at most once.
final class SimulatedLaunch: BackgroundTaskLaunch, Sendable {
    let identifier: String
    private let violation: @Sendable (String) -> Void
    private struct State {
        var expiration: (@Sendable () -> Void)?
        var completed: Bool?
        var waiter: CheckedContinuation<Bool?, Never>?
    }

    private let state = Locked(State())

    init(identifier: String, violation: @escaping @Sendable (String) -> Void) {
        self.identifier = identifier
        self.violation = violation
    }

    func setExpirationHandler(_ handler: @escaping @Sendable () -> Void) {
        state.withLock { state in state.expiration = handler }
    }

    func setTaskCompleted(success: Bool) {
        let waiter = state.withLock { state -> CheckedContinuation<Bool?, Never>?? in
            guard state.completed == nil else { return .none }
            state.completed = success
            defer { state.waiter = nil }
            return .some(state.waiter)
        }
        guard let waiter else {
            violation("the launch of \(identifier) was completed twice (setTaskCompleted)")
            return
        }
        waiter?.resume(returning: success)
    }

    /// The system ends the launch: its expiration handler runs.
    func expire() {
        state.withLock { $0.expiration }?()
    }

    /// Waits for the completion (a hang guard of five minutes: a launch
    /// never completed is reported, not waited for forever).
    func completion() async -> Bool? {
        let timer = Task { [weak self] in
            try? await Task.sleep(for: hangGuard)
            self?.giveUp()
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { continuation in
            let completed = state.withLock { state -> Bool?? in
                if let completed = state.completed { return .some(completed) }
                state.waiter = continuation
                return .none
            }
            if let completed { continuation.resume(returning: completed) }
        }
    }

    private func giveUp() {
        state.withLock { state -> CheckedContinuation<Bool?, Never>? in
            defer { state.waiter = nil }
            return state.waiter
        }?.resume(returning: nil)
    }
}
