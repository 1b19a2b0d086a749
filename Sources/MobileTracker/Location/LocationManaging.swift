/// The app's location permission, as the system reports it.
public enum LocationAuthorization: Sendable, Hashable {
    /// The user was never asked.
    case notDetermined
    /// Not allowed on this device (parental controls, a profile).
    case restricted
    /// The user said no, or turned location off.
    case denied
    /// Allowed while the app is in use.
    case authorizedWhenInUse
    /// Allowed at any time.
    case authorizedAlways

    /// Whether a reading may be asked for without prompting.
    public var allowsReading: Bool { self == .authorizedWhenInUse || self == .authorizedAlways }
}

/// A location manager as ``DeviceLocationReader`` drives it: Core
/// Location's `CLLocationManager` on Apple platforms (`CoreLocationManager`
/// there), a test double elsewhere. On the main actor, because Core Location
/// answers on the run loop of the thread that created the manager, and only
/// the main thread's is sure to run.
///
/// It has no way to ask for permission: the tracker must never prompt.
@MainActor
public protocol LocationManaging: AnyObject {
    /// The app's permission now.
    var authorization: LocationAuthorization { get }
    /// Asks for one reading (`requestLocation()`); `completion` runs once,
    /// on the main actor, with the reading or the failure.
    func requestOneReading(_ completion: @escaping @MainActor (Result<LocationData, any Error>) -> Void)
    /// Stops a request still running (`stopUpdatingLocation()`).
    func stop()
}
