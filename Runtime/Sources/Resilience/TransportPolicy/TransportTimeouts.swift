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

    /// Creates timeouts; the defaults are SOUL's.
    public init(connect: Duration = .seconds(5), read: Duration = .seconds(10), transfer: Duration = .seconds(50)) {
        self.connect = connect
        self.read = read
        self.transfer = transfer
    }

    /// A copy of `base` (default: ephemeral) with these timeouts applied.
    public func urlSessionConfiguration(_ base: URLSessionConfiguration = .ephemeral) -> URLSessionConfiguration {
        // `URLSessionConfiguration` is a class: change a copy, not the caller's.
        let configuration = base.copy() as! URLSessionConfiguration
        configuration.timeoutIntervalForRequest = read.totalSeconds
        configuration.timeoutIntervalForResource = (connect + read + transfer).totalSeconds
        return configuration
    }

    /// The per-attempt deadline for ``TimeoutMiddleware``: connect plus read.
    public var attemptDeadline: Duration { connect + read }
}
