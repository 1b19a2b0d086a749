import Foundation
import RuntimeSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Connect and read timeouts for a transport (SOUL's client rules: 5 s to
/// connect, 10 s to read).
///
/// URLSession has no separate connect timeout: its
/// `timeoutIntervalForRequest` is an idle timeout that covers connecting and
/// every wait for bytes. ``urlSessionConfiguration(_:)`` therefore sets it to
/// ``read``, and bounds the whole exchange with `timeoutIntervalForResource`
/// = ``connect`` + ``read`` + ``transfer``; put a ``TimeoutMiddleware`` with
/// ``connect`` + ``read`` below the retry layer for a hard per-attempt
/// deadline. Transports that do separate them (AsyncHTTPClient's
/// `Timeout(connect:read:)`) take the two values directly.
///
/// What bounds the connection, by platform:
/// - Apple platforms: URLSession's request timeout (``read``, 10 s: SOUL's
///   "5s connect-equivalent via timeoutIntervalForRequest=10"); URLSession
///   brings up the cellular radio or an on-demand VPN as it connects.
/// - Linux (swift-corelibs URLSession): ``connect`` itself, through
///   ``ConnectTimeoutMiddleware``, which dials the server first.
public struct TransportTimeouts: Sendable, Hashable {
    /// The longest wait to establish a connection. Default 5 s.
    public var connect: Duration
    /// The longest wait for the next bytes of a response. Default 10 s.
    public var read: Duration
    /// Extra time allowed for transferring a large body. Default 50 s.
    public var transfer: Duration
    /// The attempt's own bound when it is not connect + read.
    private var attemptBound: Duration?

    /// Creates timeouts; the defaults are SOUL's. `attemptDeadline`, when
    /// given, bounds each attempt instead of `connect` + `read`.
    public init(connect: Duration = .seconds(5), read: Duration = .seconds(10), transfer: Duration = .seconds(50), attemptDeadline: Duration? = nil) {
        self.connect = connect
        self.read = read
        self.transfer = transfer
        self.attemptBound = attemptDeadline
    }

    /// A copy of `base` (default: ephemeral) with these timeouts applied.
    public func urlSessionConfiguration(_ base: URLSessionConfiguration = .ephemeral) -> URLSessionConfiguration {
        // `URLSessionConfiguration` is a class: change a copy, not the caller's.
        let configuration = base.copy() as! URLSessionConfiguration
        configuration.timeoutIntervalForRequest = read.totalSeconds
        configuration.timeoutIntervalForResource = whole.totalSeconds
        return configuration
    }

    /// The per-attempt deadline for ``TimeoutMiddleware``, until the answer
    /// starts: connect plus read unless set (SecureNode's 20 s). The SDKs'
    /// stacks apply it to every attempt.
    public var attemptDeadline: Duration {
        get { attemptBound ?? connect + read }
        set { attemptBound = newValue }
    }

    /// The whole exchange, body included (URLSession's resource timeout):
    /// connect + read + transfer.
    public var whole: Duration { connect + read + transfer }
}
