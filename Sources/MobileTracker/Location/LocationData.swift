/// Where the device was, as the reference's `LocationData` and the body of
/// `PUT /v2/tracking-session/{sessionId}/location`.
public struct LocationData: Codable, Hashable, Sendable {
    /// Latitude in decimal degrees (-90 to 90).
    public let latitude: Double
    /// Longitude in decimal degrees (-180 to 180).
    public let longitude: Double
    /// Horizontal accuracy of the reading, in meters.
    public let accuracy: Double

    /// A reading.
    public init(latitude: Double, longitude: Double, accuracy: Double) {
        self.latitude = latitude
        self.longitude = longitude
        self.accuracy = accuracy
    }
}
