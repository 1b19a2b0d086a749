/// What the tracker says about the device when it creates a session
/// (`POST /v2/tracking-session`), as the reference's `DeviceInfo`.
public struct DeviceInfo: Codable, Hashable, Sendable {
    /// The install's device id: a random UUID kept in the tracker's
    /// storage (never a hardware identifier), new after `reset`.
    public let deviceId: String
    /// The operating system's name (`iOS`).
    public let osName: String
    /// The kind of device (`Mobile`).
    public let deviceType: String

    /// Device information.
    public init(deviceId: String, osName: String, deviceType: String) {
        self.deviceId = deviceId
        self.osName = osName
        self.deviceType = deviceType
    }
}
