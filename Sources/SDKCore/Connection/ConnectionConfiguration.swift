import Foundation
import Logging
import OpenAPIRuntime
import Resilience
import RuntimeSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How an SDK of the family reaches its server: the same type, with the
/// same defaults and the same rules, as `connection` in Soul's,
/// Safepocket's, MobileTracker's and SecureNode's configurations, where
/// each of its settings has one spelling (`configuration.connection.pinning`).
///
/// ```swift
/// var connection = ConnectionConfiguration(
///     baseURL: URL(string: "https://api.example.com")!, logger: Logger(label: "com.example.app"))
/// connection.pinning = try CertificatePinning(pins: ["api.example.com": [servedKeyPin, backupKeyPin]])
/// connection.timeouts = TransportTimeouts(connect: .seconds(5), read: .seconds(10))
/// ```
///
/// What each SDK builds from it, in one place (the SDKs' one stack builder):
/// the transport (`SDKTransport`: pins checked, redirects kept to the
/// origin, nothing cached or kept between users), https only, each
/// attempt within `TransportTimeouts.attemptDeadline`, the connection
/// within `TransportTimeouts.connect` where the transport has no connect
/// timeout of its own, redacted logs to ``logger``, and the device's
/// connectivity learnt from each attempt.
public struct ConnectionConfiguration: Sendable {
    /// The server's base URL: https, or http to a loopback host only (a
    /// local test server; `BaseURLPolicy`).
    public var baseURL: URL
    /// A transport to use instead of the SDK's own URLSession one. With
    /// pins it must enforce them itself (a `PinEnforcingTransport` that
    /// says so), or the SDK refuses the configuration. Nil, the default:
    /// the SDK's own.
    public var transport: (any ClientTransport)?
    /// Public-key pins of the server's hosts (`CertificatePinning`: at
    /// least two per host, the served key and a backup), checked after the
    /// system's own trust evaluation on every connection. Default: nothing
    /// pinned (the system's trust evaluation alone).
    public var pinning: CertificatePinning
    /// The bounds of each request (`TransportTimeouts`). Default: connect
    /// 5 s, read 10 s, each attempt within 15 s.
    public var timeouts: TransportTimeouts
    /// Where the SDK's redacted logs go.
    public var logger: Logger
    /// The device's connectivity. Default: the system's
    /// (`Connectivity.systemDefault()`). Nil: no signal (backoff only).
    public var connectivity: Connectivity?
    /// Whether each connection is dialled first, within
    /// `TransportTimeouts.connect` (`ConnectTimeoutMiddleware`). Nil,
    /// the default: only for the SDK's own transport on a platform whose
    /// URLSession has no connect timeout (Linux). A transport of the app's
    /// own bounds its connections itself, and may send to another host
    /// than ``baseURL``'s (a proxying or test transport), so it is not
    /// dialled for unless this says true.
    public var dialsBeforeSending: Bool?
    /// Where the SDK's intervals go (a request, a sync, a delivery, a
    /// flush); nil, the default: the platform's (``Signposts/sdkDefault(subsystem:)``,
    /// under the logger's label). Tests give a simulated signposter.
    package var signposts: Signposts?
    /// The SDK's one clock (``SDKClock``): the system's, or in tests a
    /// `ManualClock`'s, which the test moves instead of waiting.
    package var clock: SDKClock = .system

    /// The SDK's intervals: ``signposts``, or the platform's under the
    /// logger's label.
    package var intervals: Signposts { signposts ?? .sdkDefault(subsystem: logger.label) }

    /// A connection to `baseURL`, logging to `logger` (an SDK's own
    /// configuration initialisers pass the SDK's, which writes to the
    /// unified log on Apple platforms); every other setting has a default.
    public init(
        baseURL: URL, transport: (any ClientTransport)? = nil, pinning: CertificatePinning = .none, timeouts: TransportTimeouts = TransportTimeouts(),
        logger: Logger, connectivity: Connectivity? = .systemDefault(), dialsBeforeSending: Bool? = nil
    ) {
        self.baseURL = baseURL
        self.transport = transport
        self.pinning = pinning
        self.timeouts = timeouts
        self.logger = logger
        self.connectivity = connectivity
        self.dialsBeforeSending = dialsBeforeSending
    }

    /// Whether the SDK would reach ``baseURL`` trusting every CA the device
    /// trusts: a host that is not this machine (`BaseURLPolicy`) with no
    /// pin for it.
    package var isUnpinned: Bool {
        guard let host = baseURL.host, !BaseURLPolicy.isLoopback(host) else { return false }
        return pinning.pinnedHost(for: host) == nil
    }

    /// The SDKs that have said so in this process.
    private static let warnedUnpinned = Locked<Set<String>>([])

    /// Logs a warning, once per process for `sdk`, when ``isUnpinned``: the
    /// connection to the host is verified by the system's trust alone.
    /// `advice` says what the SDK's guide asks. Returns whether it logged.
    @discardableResult
    package func warnIfUnpinned(sdk: String, advice: String) -> Bool {
        guard isUnpinned, let host = baseURL.host else { return false }
        guard Self.warnedUnpinned.withLock({ $0.insert(sdk).inserted }) else { return false }
        logger.warning("\(Self.unpinnedWarningText(sdk: sdk, host: host, advice: advice))", metadata: ["host": .string(host)])
        return true
    }

    /// Whether `sdk` has logged its warning about missing pins in this process.
    package static func hasWarnedUnpinned(sdk: String) -> Bool {
        warnedUnpinned.withLock { $0.contains(sdk) }
    }

    /// The warning about missing pins.
    package static func unpinnedWarningText(sdk: String, host: String, advice: String) -> String {
        "\(sdk) connects to \(host) without certificate pins, trusting every certificate authority the device trusts: "
            + "pin its public keys (the configuration's pinning, two or more: the served key and a backup); \(advice)"
    }

    /// Whether requests dial their connection first: ``dialsBeforeSending``,
    /// or by default the SDK's own transport where the platform's URLSession
    /// cannot bound connecting (``ConnectTimeoutMiddleware/dialsBeforeSending``).
    package var dialsFirst: Bool {
        dialsBeforeSending ?? (ConnectTimeoutMiddleware.dialsBeforeSending && transport == nil)
    }

    /// The base URL, checked: throws ``InsecureBaseURLError`` for plain
    /// http to a host that is not loopback.
    package func validatedBaseURL() throws(InsecureBaseURLError) -> URL {
        try BaseURLPolicy.validate(baseURL)
        return baseURL
    }

    /// The transport every request of the SDK goes through (``SDKTransport``):
    /// the configured one, which must enforce the pins when there are any, or
    /// the SDK's own URLSession with ``timeouts`` (`sessionConfiguration`
    /// when the SDK needs another, SecureNode's sync bound say), sent
    /// through by what `overSession` makes.
    package func makeTransport(
        environment: PinningEnvironment = .production, sessionConfiguration: URLSessionConfiguration? = nil,
        overSession: (URLSession) -> any ClientTransport
    ) throws(PinningConfigurationError) -> CertificatePinningTransport {
        try SDKTransport.make(
            configured: transport, pinning: pinning, environment: environment, logger: logger,
            sessionConfiguration: sessionConfiguration ?? timeouts.urlSessionConfiguration(), overSession: overSession)
    }
}
