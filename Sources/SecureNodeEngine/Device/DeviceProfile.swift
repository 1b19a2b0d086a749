import Foundation
import SecureNodeAPI

/// What the server should know about this install.
public struct DeviceProfile: Codable, Sendable, Hashable {
    /// The stable per-install id.
    public var deviceID: String
    /// The platform (`ios`, `android`...).
    public var platform: DevicePlatform
    /// The OS version.
    public var osVersion: String?
    /// The SDK version.
    public var sdkVersion: String?
    /// The host app's version.
    public var appVersion: String?
    /// Platform capabilities (`call_directory`, `voip_push`...).
    public var capabilities: [String: Bool]

    /// Creates a profile.
    public init(deviceID: String, platform: DevicePlatform, osVersion: String? = nil, sdkVersion: String? = nil, appVersion: String? = nil, capabilities: [String: Bool] = [:]) {
        self.deviceID = deviceID
        self.platform = platform
        self.osVersion = osVersion
        self.sdkVersion = sdkVersion
        self.appVersion = appVersion
        self.capabilities = capabilities
    }
}
