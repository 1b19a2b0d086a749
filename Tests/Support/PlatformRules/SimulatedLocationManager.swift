import Foundation
import MobileTracker
import Testing

/// `CLLocationManager` as iOS runs it, for the tests: the permission the
/// user gave (``authorization``, set by the test), the reading the device
/// would find (``reading``; nil: no fix comes), and each rule an app breaks
/// recorded as a test issue at `sourceLocation`:
///
/// - answers arrive on the run loop of the thread that made the manager
///   (only the main thread's is sure to run): ``LocationManaging`` is
///   `@MainActor`, so a manager made anywhere else does not compile;
/// - `requestLocation()` without permission fails with `kCLErrorDenied`
///   (and a tracker that asks without permission is recorded: it must look
///   at the permission first, never prompt);
/// - after `stopUpdatingLocation()`, a pending request is not answered;
/// - one answer per request, asynchronously, on a later turn of the main
///   run loop.
@MainActor
public final class SimulatedLocationManager: LocationManaging {
    /// The permission the user gave this app.
    public var authorization: LocationAuthorization
    /// The reading the device finds; nil: none comes (the request hangs).
    public var reading: LocationData?
    /// Readings asked for, with and without permission.
    public private(set) var requests = 0
    /// Times the request was stopped.
    public private(set) var stops = 0
    /// Every rule broken so far (each also recorded as a test issue).
    public private(set) var violations: [String] = []
    private var pending: (@MainActor (Result<LocationData, any Error>) -> Void)?
    private let sourceLocation: SourceLocation

    /// A manager with the user's `authorization` and the device's `reading`.
    public init(authorization: LocationAuthorization, reading: LocationData?, sourceLocation: SourceLocation = #_sourceLocation) {
        self.authorization = authorization
        self.reading = reading
        self.sourceLocation = sourceLocation
    }

    public func requestOneReading(_ completion: @escaping @MainActor (Result<LocationData, any Error>) -> Void) {
        requests += 1
        guard authorization.allowsReading else {
            record("requestLocation() without location permission: the tracker must check the permission, and never prompt")
            Task { @MainActor in completion(.failure(CocoaError(.userCancelled))) }
            return
        }
        pending = completion
        guard let reading else { return }
        Task { @MainActor [weak self] in
            guard let self, let answer = self.pending else { return }
            self.pending = nil
            answer(.success(reading))
        }
    }

    public func stop() {
        stops += 1
        pending = nil
    }

    private func record(_ violation: String) {
        violations.append(violation)
        Issue.record(Comment(rawValue: "CLLocationManager: \(violation)"), sourceLocation: sourceLocation)
    }
}
