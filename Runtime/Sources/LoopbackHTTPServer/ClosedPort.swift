import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An address on `127.0.0.1` where nobody listens, and nobody can start
/// listening while this value lives: a connection to it is refused at once.
///
/// A port taken from a server that was shut down is not that: while tests
/// run in parallel another test's server can take the freed port and
/// answer. This one holds its port bound (without `SO_REUSEADDR`, and never
/// listening), so the system gives it to no one else.
///
/// ```swift
/// let nobody = try ClosedPort()
/// let client = Client(serverURL: nobody.baseURL, transport: URLSessionTransport())
/// ```
public final class ClosedPort: Sendable {
    /// The port held.
    public let port: Int
    private let socketFD: Int32

    /// Binds a free port on 127.0.0.1 without listening on it.
    public init() throws {
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketFD >= 0 else { throw LoopbackHTTPServer.ServerError.socket(errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else {
            let code = errno
            close(socketFD)
            throw LoopbackHTTPServer.ServerError.socket(code)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socketFD, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        self.socketFD = socketFD
    }

    /// `http://127.0.0.1:PORT`.
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    deinit { close(socketFD) }
}
