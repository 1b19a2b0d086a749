import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A listener whose accept queue is full: the kernel drops new connection
/// attempts, so a client's connect waits until it gives up (a server that
/// accepts late, or a network that loses the handshake).
package final class UnacceptingListener {
    /// The port it listens on (127.0.0.1).
    package let port: Int
    private var descriptors: [Int32] = []

    /// Listens on a free port and fills its accept queue.
    package init() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listener, 0) == 0 else { throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        descriptors.append(listener)
        // Fill the queue: these connections complete and are never accepted.
        for _ in 0..<3 {
            let filler = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            _ = fcntl(filler, F_SETFL, fcntl(filler, F_GETFL) | O_NONBLOCK)
            _ = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(filler, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            descriptors.append(filler)
        }
        try Self.waitUntilOneConnected(descriptors.dropFirst())
    }

    /// Returns once a filler's handshake completed: with a backlog of 0 the
    /// queue holds one connection, so from then on the kernel drops every
    /// new attempt. (The handshakes run in the kernel, but on a loaded
    /// machine not within any fixed time: a client that connected before the
    /// queue was full would wait for an answer, not for its connection.)
    private static func waitUntilOneConnected(_ fillers: ArraySlice<Int32>) throws {
        var polled = fillers.map { pollfd(fd: $0, events: Int16(POLLOUT), revents: 0) }
        // Bounded so a kernel that never completes one fails the test, not hangs it.
        let ready = poll(&polled, nfds_t(polled.count), 30_000)
        guard ready > 0, polled.contains(where: { $0.revents & Int16(POLLOUT) != 0 && $0.revents & Int16(POLLERR | POLLHUP) == 0 }) else {
            throw POSIXError(.ETIMEDOUT)
        }
    }

    /// `http://127.0.0.1:<port>`.
    package var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    deinit { for descriptor in descriptors { close(descriptor) } }
}
