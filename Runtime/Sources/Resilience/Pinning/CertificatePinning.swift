import Foundation

/// Public-key pinning for a client's hosts (RFC 7469 pins), and the
/// decision for one TLS connection, in plain Swift: which pins apply to the
/// host, whether any certificate of the chain has one of the keys, in which
/// environment, with the platform's own trust verdict as an input.
///
/// ```swift
/// let pinning = try CertificatePinning([
///     PinnedHost("api.safepocket.app", pins: ["sha256/4sEB...L/A=", "sha256/MKSw...Y0E="]),
/// ])
/// let verdict = pinning.evaluate(presented, in: .production)   // .matched, .rejected(...), ...
/// ```
///
/// Rules, in order:
///
/// 1. Development: no pin is checked. The host named for self-signed
///    certificates is accepted whatever the platform said; every other
///    host is left to the platform.
/// 2. Production, a host without pins: left to the platform.
/// 3. Production, a pinned host: the platform's evaluation must have passed
///    (pins never replace it: a chain that is expired, self-signed or for
///    another host is refused even when a pin matches), and then one
///    certificate of the chain, whichever, must have a pinned key.
///
/// Apps rarely call ``evaluate(_:in:)`` themselves: a ``ServerTrustEvaluator``
/// answers the platform's challenges with it and records each refusal for
/// ``CertificatePinningTransport``.
public struct CertificatePinning: Sendable, Hashable {
    /// What the decision says about one connection.
    public enum Verdict: Sendable, Hashable {
        /// No pins apply (an unpinned host, or development): the platform's
        /// own evaluation decides.
        case notPinned
        /// The platform trusted the chain and the certificate at
        /// `certificateIndex` (0 is the leaf) has the pinned key `pin`.
        case matched(PublicKeyPin, certificateIndex: Int)
        /// Development, the host configured for self-signed certificates:
        /// accepted without the platform's approval.
        case acceptedForDevelopment
        /// Refused: nothing may be sent on this connection.
        case rejected(CertificatePinningError)
    }

    /// The pinned hosts.
    public let hosts: [PinnedHost]

    /// Pins for `hosts`. Throws ``PinningConfigurationError/duplicateHost(_:)``
    /// when a host appears twice. Each ``PinnedHost`` already refused fewer
    /// than two pins. No hosts at all pins nothing (a development set-up).
    public init(_ hosts: [PinnedHost]) throws(PinningConfigurationError) {
        var seen = Set<String>()
        for entry in hosts where !seen.insert(entry.host).inserted { throw .duplicateHost(entry.host) }
        self.hosts = hosts
    }

    /// Pins from a dictionary of host to pin texts (`sha256/<base64>`), the
    /// rules of ``PinnedHost/init(_:pins:includingSubdomains:)`` for each.
    public init(pins: [String: [String]]) throws(PinningConfigurationError) {
        var hosts: [PinnedHost] = []
        for host in pins.keys.sorted() { hosts.append(try PinnedHost(host, pins: pins[host] ?? [])) }
        try self.init(hosts)
    }

    /// Nothing pinned.
    public static let none = CertificatePinning(unchecked: [])

    private init(unchecked hosts: [PinnedHost]) { self.hosts = hosts }

    /// The pins that apply to `host`: an exact entry first, else the
    /// closest one that includes subdomains; nil when none.
    public func pinnedHost(for host: String) -> PinnedHost? {
        guard let name = PinnedHost.normalised(host) else { return nil }
        if let exact = hosts.first(where: { $0.host == name }) { return exact }
        return hosts.filter { $0.applies(to: name) }.max { $0.host.count < $1.host.count }
    }

    /// Whether a connection to `host` needs a decision in `environment`
    /// (a pinned host in production, the self-signed host in development).
    public func evaluates(host: String, in environment: PinningEnvironment) -> Bool {
        switch environment {
        case .production: return pinnedHost(for: host) != nil
        case .development(let selfSigned): return selfSigned.map { Self.sameHost(host, $0) } ?? false
        }
    }

    /// The decision for a connection that presented `trust` (the rules above).
    public func evaluate(_ trust: PresentedServerTrust, in environment: PinningEnvironment) -> Verdict {
        switch environment {
        case .development(let selfSigned):
            if let selfSigned, Self.sameHost(trust.host, selfSigned) { return .acceptedForDevelopment }
            return .notPinned
        case .production:
            guard let pinned = pinnedHost(for: trust.host) else { return .notPinned }
            // A certificate the platform handed over but that cannot be read has no key to match.
            let keys = trust.certificates.map { try? PublicKeyPin(certificate: $0) }
            let presented = keys.compactMap { $0 }
            guard trust.platformTrusted else {
                return .rejected(CertificatePinningError(host: trust.host, reason: .untrustedChain, presented: presented, expected: pinned.pins))
            }
            for (index, key) in keys.enumerated() {
                if let key, pinned.pins.contains(key) { return .matched(key, certificateIndex: index) }
            }
            return .rejected(CertificatePinningError(host: trust.host, reason: .noPinnedKey, presented: presented, expected: pinned.pins))
        }
    }

    /// Whether two host names are the same (without case or a trailing dot).
    static func sameHost(_ one: String, _ other: String) -> Bool {
        guard let one = PinnedHost.normalised(one), let other = PinnedHost.normalised(other) else { return false }
        return one == other
    }
}
