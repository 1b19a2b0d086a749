/// A host and the public keys it may present: at least two distinct pins,
/// the served key's and a backup (a spare key kept off the server, or the
/// next CA's), so the key can be rotated without locking installed apps out.
///
/// ```swift
/// let api = try PinnedHost("api.safepocket.app", pins: [
///     "sha256/4sEBer2Lpb8nKWkQmA0+1KulJEtftPQA9TsEAJRvL/A=",   // the served key
///     "sha256/MKSwfbFgC0cuPG2r5af1fKfFM1Jlrjw9NidOkoEcY0E=",   // the backup key
/// ])
/// ```
///
/// A connection to the host is accepted when any certificate of its chain
/// (the leaf, an intermediate or the root) has one of the keys.
public struct PinnedHost: Sendable, Hashable {
    /// The host name, lower-cased, without a trailing dot.
    public let host: String
    /// The keys, in the order given, without repeats.
    public let pins: [PublicKeyPin]
    /// Whether the pins apply to every subdomain of ``host`` too.
    public let includesSubdomains: Bool

    /// Pins `host` to `pins` (`sha256/<base64>` each). Throws
    /// ``PinningConfigurationError/tooFewPins(host:count:)`` for fewer than
    /// two distinct pins, ``PinningConfigurationError/invalidPin(_:reason:)``
    /// for text that is not a pin, ``PinningConfigurationError/invalidHost(_:)``
    /// for a URL or an empty host.
    public init(_ host: String, pins: [String], includingSubdomains: Bool = false) throws(PinningConfigurationError) {
        var parsed: [PublicKeyPin] = []
        for text in pins {
            let pin = try PublicKeyPin(text)
            if !parsed.contains(pin) { parsed.append(pin) }
        }
        try self.init(host, keys: parsed, includingSubdomains: includingSubdomains)
    }

    /// Pins `host` to keys already parsed; the same rules as ``init(_:pins:includingSubdomains:)``.
    public init(_ host: String, keys: [PublicKeyPin], includingSubdomains: Bool = false) throws(PinningConfigurationError) {
        guard let name = Self.normalised(host) else { throw .invalidHost(host) }
        var distinct: [PublicKeyPin] = []
        for key in keys where !distinct.contains(key) { distinct.append(key) }
        guard distinct.count >= 2 else { throw .tooFewPins(host: name, count: distinct.count) }
        self.host = name
        self.pins = distinct
        self.includesSubdomains = includingSubdomains
    }

    /// Whether these pins apply to `name` (compared without case or a trailing dot).
    public func applies(to name: String) -> Bool {
        guard let name = Self.normalised(name) else { return false }
        return name == host || (includesSubdomains && name.hasSuffix("." + host))
    }

    /// `name` lower-cased without a trailing dot, or nil when it is not a
    /// bare host (empty, or with a scheme, port, path or spaces). IPv6
    /// literals keep their colons, without brackets.
    static func normalised(_ name: String) -> String? {
        var host = name.lowercased()
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host.hasSuffix(".") { host.removeLast() }
        let isIPv6 = host.filter { $0 == ":" }.count >= 2
        guard !host.isEmpty, !host.contains("/"), !host.contains(" "), !host.contains("@"), isIPv6 || !host.contains(":") else { return nil }
        return host
    }
}
