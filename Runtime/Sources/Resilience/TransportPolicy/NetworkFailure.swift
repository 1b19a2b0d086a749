import Foundation
import OpenAPIRuntime

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What kind of network failure an error is, for SDKs that turn failures
/// into messages a person can act on ("you are offline", "the server took
/// too long").
public enum NetworkFailure: Sendable, Hashable {
    /// The device could not reach the network: no connectivity, or the
    /// connection was lost before an answer.
    case offline
    /// The device is online but the server did not take the connection: its
    /// host name was not found, or it refused the connection (a wrong port
    /// or base URL, a server that is down). Not the device's network: telling
    /// the user "you are offline" would send them to the wrong fix.
    case unreachable
    /// The server did not answer in time.
    case timeout
    /// The call was cancelled.
    case cancelled

    /// The kind of `error`, or nil when it is not a network failure (an
    /// HTTP status, a decoding error, a TLS failure, which is a security
    /// failure: `TLSFailure`). `ClientError` wrappers are looked through.
    public init?(_ error: any Error) {
        let cause = (error as? ClientError)?.underlyingError ?? error
        if TLSFailure.matches(cause) { return nil }
        if cause is CancellationError {
            self = .cancelled
            return
        }
        if cause is RequestTimeoutError || cause is ConnectTimeoutError {
            self = .timeout
            return
        }
        guard let urlError = cause as? URLError else { return nil }
        switch urlError.code {
        case .timedOut: self = .timeout
        case .cancelled: self = .cancelled
        case .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed: self = .unreachable
        // Everything else URLSession reports (no connectivity, the
        // connection lost) is a failure of the network; a TLS failure was
        // counted out above.
        default: self = .offline
        }
    }

    /// The URLSession failures that happen before a byte of the request is
    /// sent (a TLS failure too, but it is a security failure, not this).
    private static let beforeSending: Set<URLError.Code> = [
        .notConnectedToInternet, .cannotFindHost, .cannotConnectToHost, .dnsLookupFailed, .internationalRoamingOff, .dataNotAllowed,
        .callIsActive, .appTransportSecurityRequiresSecureConnection,
    ]

    /// Whether `error` shows the request never left the device: no
    /// connectivity, the host not found, the connection refused, or the
    /// device known to be offline. A timeout or a connection lost after
    /// connecting is not: the server may have received the request. A TLS
    /// failure is not either: it is never a reason to queue a write.
    public static func requestNeverLeft(_ error: any Error) -> Bool {
        let cause = (error as? ClientError)?.underlyingError ?? error
        if cause is DeviceOfflineError { return true }
        // The connection was never made: not a byte of the request went out.
        if cause is ConnectTimeoutError { return true }
        guard let urlError = cause as? URLError else { return false }
        return beforeSending.contains(urlError.code)
    }

    /// Whether `error` leaves it open whether the server received the
    /// request: no answer came, but the request may have gone out (a
    /// timeout, ``RequestTimeoutError``, a connection lost after
    /// connecting). Cancellation is not counted: the app chose it.
    public static func outcomeUnknown(_ error: any Error) -> Bool {
        let cause = (error as? ClientError)?.underlyingError ?? error
        if cause is RequestTimeoutError { return true }
        guard let kind = NetworkFailure(cause), kind != .cancelled else { return false }
        return !requestNeverLeft(cause)
    }
}
