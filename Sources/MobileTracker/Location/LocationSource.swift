/// Where the tracker reads the device's location after it creates a
/// session (the reference: "Update Session Location ... Called: After
/// session creation if location permissions are granted").
///
/// A source never asks the user for permission: the app asks, when it has a
/// reason to, and the tracker only uses what it was granted.
public protocol LocationSource: Sendable {
    /// One reading when the app already holds location permission; nil
    /// when it does not, or when no reading came.
    func readingIfAuthorized() async -> LocationData?
}
