/// A pin set refused when it is configured, before any connection: each
/// case says what to change.
public enum PinningConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A host with fewer than two distinct pins. One pin leaves no way to
    /// rotate the key without locking out every installed app.
    case tooFewPins(host: String, count: Int)
    /// A pin that is not `sha256/` and the base64 of 32 bytes.
    case invalidPin(String, reason: String)
    /// A host that is not a bare host name (a scheme, a port, a path, or empty).
    case invalidHost(String)
    /// The same host given twice.
    case duplicateHost(String)
    /// Pins were configured with a transport of the app's own that does not
    /// declare it enforces them (``PinEnforcingTransport``): the pins would
    /// be checked by nobody.
    case transportDoesNotEnforcePins(transport: String)

    /// What is wrong and what to do.
    public var description: String {
        switch self {
        case .tooFewPins(let host, let count):
            return "pinning \(host) needs at least 2 pins, got \(count): add a backup pin, the sha256/ of a spare key pair kept off the "
                + "server (or of the next CA's key), so the app still connects after the served key is rotated"
        case .invalidPin(let text, let reason):
            return "\"\(text)\" is not a public-key pin: \(reason)"
        case .invalidHost(let host):
            return "\"\(host)\" is not a host name: give the host alone (api.example.com), without scheme, port or path"
        case .duplicateHost(let host):
            return "\(host) is pinned twice: give all its pins in one PinnedHost"
        case .transportDoesNotEnforcePins(let transport):
            return "pins are configured but the transport \(transport) does not enforce them: leave the transport unset (the SDK's own "
                + "checks the pins), or make it a PinEnforcingTransport that checks them on every connection"
        }
    }
}
