#if canImport(CoreLocation) && !os(watchOS)
import CoreLocation
import Foundation

// ios-check: with ../Location/LocationData.swift
// ios-check: with ../Location/LocationManaging.swift

/// Core Location behind ``LocationManaging``: a `CLLocationManager` made on
/// the main actor (its delegate calls arrive on the main run loop), read for
/// its permission with `authorizationStatus`, asked for one reading with
/// `requestLocation()` at a hundred meters' accuracy (an analytics session
/// needs no more, and a coarse fix comes sooner and costs less power).
/// Never asks for permission: the app does, when it has a reason to.
///
/// An Apple adapter: this file imports only Core Location and Foundation,
/// so `make ios-check` type-checks it for iOS on its own.
@MainActor
public final class CoreLocationManager: NSObject, LocationManaging, CLLocationManagerDelegate {
    private let manager = CLLocationManager()
    private var completion: (@MainActor (Result<LocationData, any Error>) -> Void)?

    /// A manager whose answers arrive on the main actor.
    public override init() {
        super.init()
        manager.delegate = self
        manager.desiredAccuracy = kCLLocationAccuracyHundredMeters
    }

    /// The app's permission, from `authorizationStatus` (no prompt).
    public var authorization: LocationAuthorization {
        switch manager.authorizationStatus {
        case .authorizedAlways: return .authorizedAlways
        case .authorizedWhenInUse: return .authorizedWhenInUse
        case .denied: return .denied
        case .restricted: return .restricted
        case .notDetermined: return .notDetermined
        @unknown default: return .denied
        }
    }

    /// `requestLocation()`: one reading, answered once.
    public func requestOneReading(_ completion: @escaping @MainActor (Result<LocationData, any Error>) -> Void) {
        self.completion = completion
        manager.requestLocation()
    }

    /// `stopUpdatingLocation()`, and no answer after it.
    public func stop() {
        completion = nil
        manager.stopUpdatingLocation()
    }

    /// The reading, from the most recent location delivered.
    public nonisolated func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
        guard let last = locations.last else { return }
        let reading = LocationData(latitude: last.coordinate.latitude, longitude: last.coordinate.longitude, accuracy: last.horizontalAccuracy)
        MainActor.assumeIsolated { finish(.success(reading)) }
    }

    /// The failure of the request (denied meanwhile, no fix).
    public nonisolated func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error) {
        MainActor.assumeIsolated { finish(.failure(error)) }
    }

    private func finish(_ result: Result<LocationData, any Error>) {
        let completion = self.completion
        self.completion = nil
        completion?(result)
    }
}
#endif
