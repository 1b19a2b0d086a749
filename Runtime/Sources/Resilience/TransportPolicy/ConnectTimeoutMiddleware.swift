import Foundation
import HTTPTypes
import OpenAPIRuntime
import RuntimeSupport

/// The server could not be connected to within the connect timeout: no
/// byte of the request was sent, so a write may be queued and sent later.
public struct ConnectTimeoutError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The host that did not accept the connection in time.
    public let host: String
    /// Its port.
    public let port: Int
    /// The timeout that passed.
    public let timeout: Duration

    /// A readable summary.
    public var description: String { "could not connect to \(host):\(port) within \(timeout)" }
}

/// A real connect timeout for the transport that has none, swift-corelibs
/// URLSession on Linux (whose `timeoutIntervalForRequest` is an idle
/// timeout covering the connection and every wait for bytes alike): before
/// a request is handed to the transport, a TCP connection to the server is
/// opened within `timeout` and closed again. When it cannot be, the request fails with
/// ``ConnectTimeoutError`` (or `URLError(.cannotConnectToHost)` /
/// `.cannotFindHost` when refused or unresolved) without having been sent.
///
/// A server reached within `reuseWindow` is not dialled again (the
/// transport keeps its connection alive), so a burst of calls costs one
/// extra connection, not one each. Nothing is dialled when a proxy is
/// configured (the transport, not this device, connects to the server) or
/// the URL has no host.
///
/// Place it below ``RetryMiddleware`` (each attempt gets its own bound),
/// next to the transport; a ``TimeoutMiddleware`` above it bounds the
/// whole attempt, connection included.
///
/// On Apple platforms it dials nothing and sends each request as it is
/// (``dialsBeforeSending`` is false): a BSD socket there would not bring up
/// the cellular radio or an on-demand VPN the way URLSession does, so the
/// platform's own bound applies, URLSession's request timeout (see
/// ``TransportTimeouts``), and the SDK stacks leave this middleware out.
public struct ConnectTimeoutMiddleware: ClientMiddleware {
    /// Whether this platform dials before sending: true only where the
    /// transport has no connect timeout of its own (swift-corelibs
    /// URLSession, on Linux); false on Apple platforms.
    public static var dialsBeforeSending: Bool {
        #if canImport(FoundationNetworking)
        return true
        #else
        return false
        #endif
    }

    /// The longest wait for a connection.
    public let timeout: Duration
    private let recent: ReachedServers

    /// A middleware bounding connections by `timeout`, trusting a server
    /// reached within `reuseWindow` without dialling it again.
    public init(timeout: Duration, reuseWindow: Duration = .seconds(30)) {
        self.timeout = timeout
        recent = ReachedServers(window: reuseWindow.totalSeconds)
    }

    /// Connects first, then sends.
    public func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard Self.dialsBeforeSending, let host = baseURL.host, !host.isEmpty else { return try await next(request, body, baseURL) }
        let port = baseURL.port ?? (baseURL.scheme?.lowercased() == "https" ? 443 : 80)
        // The proxy settings are read only when a dial is due, not on every request.
        if !recent.contains(host: host, port: port) {
            switch ProxySettings.isProxyConfigured(for: baseURL) ? .connected : await TCPDial.connect(host: host, port: port, timeout: timeout) {
            case .connected:
                recent.insert(host: host, port: port)
            case .timedOut:
                throw ConnectTimeoutError(host: host, port: port, timeout: timeout)
            case .unresolved:
                throw URLError(.cannotFindHost)
            case .refused:
                throw URLError(.cannotConnectToHost)
            case .cancelled:
                throw CancellationError()
            }
        }
        do {
            return try await next(request, body, baseURL)
        } catch {
            // The kept connection may be what failed: dial again next time.
            recent.remove(host: host, port: port)
            throw error
        }
    }
}

/// Servers reached lately, by `host:port`, with when.
struct ReachedServers: Sendable {
    let window: Double
    /// When each server was last reached, on the monotonic clock (a wall-clock change neither extends nor ends the window).
    private let reached = Locked<[String: ContinuousClock.Instant]>([:])

    init(window: Double) {
        self.window = window
    }

    func contains(host: String, port: Int) -> Bool {
        guard let at = reached.withLock({ $0["\(host):\(port)"] }) else { return false }
        return (ContinuousClock.now - at).totalSeconds < window
    }

    func insert(host: String, port: Int) { reached.withLock { $0["\(host):\(port)"] = ContinuousClock.now } }
    func remove(host: String, port: Int) { reached.withLock { $0["\(host):\(port)"] = nil } }
}
