import Foundation
import RuntimeSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An HTTP/1.1 server on `127.0.0.1` and a free port, in process, for tests
/// that need real HTTP over a real socket.
///
/// Every request goes to a handler that scripts the reply: a response, a
/// response after a delay (to trip timeouts), or a dropped connection. The
/// server records every request it received.
///
/// ```swift
/// let server = try LoopbackHTTPServer { request in
///     request.path == "/health" ? .respond(status: 200, body: "ok") : .respond(status: 404)
/// }
/// defer { server.shutdown() }
/// ```
public final class LoopbackHTTPServer: Sendable {
    /// A request as the server read it.
    public struct Request: Sendable {
        /// The method, such as `GET`.
        public let method: String
        /// The request target: path and query, as sent.
        public let target: String
        /// Header fields in order, names as sent.
        public let headers: [(name: String, value: String)]
        /// The body bytes.
        public let body: [UInt8]
        /// How many requests the server had received before this one (0-based).
        public let sequenceNumber: Int

        /// The path without the query.
        public var path: String { String(target.split(separator: "?", maxSplits: 1).first ?? "") }
        /// The raw query, without `?`.
        public var query: String? { target.contains("?") ? String(target.split(separator: "?", maxSplits: 1)[1]) : nil }
        /// The first value of a header, matched case-insensitively.
        public func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }
        /// The body as UTF-8 text.
        public var bodyText: String { String(decoding: body, as: UTF8.self) }
    }

    /// What the server does with a request.
    public indirect enum Reply: Sendable {
        /// Sends a response.
        case respond(status: Int, headers: [(String, String)] = [], body: [UInt8] = [])
        /// Waits, then replies.
        case delayed(Duration, Reply)
        /// Holds the request until the test opens `gate`, then replies: a
        /// request a test knows has arrived and answers when it chooses,
        /// with no timing guessed (``ReplyGate``).
        case gated(ReplyGate, Reply)
        /// Closes the connection without answering.
        case dropConnection
        /// Sends a body of `length` bytes made while it is sent: `body` is
        /// called with a writer (false once the client has gone) and must
        /// write exactly `length` bytes. For bodies too large to hold.
        case streamed(status: Int, headers: [(String, String)] = [], length: Int, body: @Sendable (_ write: ([UInt8]) -> Bool) -> Void)
        /// Sends a body of unannounced length (`Transfer-Encoding: chunked`,
        /// each write one chunk) made while it is sent: `body` writes until
        /// it chooses to stop or the writer returns false (the client has
        /// gone). For a body whose size the client learns only by reading.
        case chunked(status: Int, headers: [(String, String)] = [], body: @Sendable (_ write: ([UInt8]) -> Bool) -> Void)

        /// A response with a UTF-8 text body.
        public static func respond(status: Int, headers: [(String, String)] = [], body: String) -> Reply {
            .respond(status: status, headers: headers, body: Array(body.utf8))
        }

        /// A JSON response.
        public static func json(_ status: Int, _ json: String, headers: [(String, String)] = []) -> Reply {
            .respond(status: status, headers: [("Content-Type", "application/json")] + headers, body: Array(json.utf8))
        }
    }

    /// The port the server listens on.
    public let port: Int
    private let listener: Int32
    /// A second socket bound to the port that never listens, held until the
    /// server is released: once ``shutdown()`` closes the listener, a
    /// connection to the port is refused and no other server given a free
    /// port takes this one (tests running beside each other would otherwise
    /// answer for a server that was shut down to be unreachable).
    private let portHolder: Int32
    private let state: LockedState

    /// Starts listening; `handler` is called on a server thread for each request.
    ///
    /// With `keepAlive: false` every response carries `Connection: close` and
    /// the connection is closed after it, so a client never reuses a
    /// connection (URLSession silently resends a request once when a reused
    /// connection turns out closed, which would blur attempt counts).
    ///
    /// `port` 0 (the default) takes a free port; another value binds that
    /// one, so a test can bring a server back where a client expects it.
    public init(keepAlive: Bool = true, port requestedPort: Int = 0, handler: @escaping @Sendable (Request) -> Reply) throws {
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketFD >= 0 else { throw ServerError.socket(errno) }
        var yes: Int32 = 1
        setsockopt(socketFD, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        // Shared with the port holder (and a server brought back on this port); a
        // free port is never picked from one bound this way.
        setsockopt(socketFD, SOL_SOCKET, SO_REUSEPORT, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(requestedPort).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(socketFD, 512) == 0 else {
            close(socketFD)
            throw ServerError.socket(errno)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socketFD, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        listener = socketFD
        portHolder = Self.holdPort(address)
        state = LockedState(handler: handler, keepAlive: keepAlive)
        let thread = Thread { [state, listener] in Self.acceptLoop(listener: listener, state: state) }
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// `http://127.0.0.1:PORT`.
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Every request received so far, in arrival order.
    public var requests: [Request] { state.withLock { $0.requests } }

    /// Stops accepting and closes every open connection. The port stays
    /// taken while the server object lives: a connection to it is refused,
    /// as to a server that went away.
    public func shutdown() {
        // Idempotent, and done under the lock: a descriptor closed twice, or
        // shut down after its connection thread closed it, could belong to
        // another socket by then (descriptor numbers are reused at once).
        state.withLock { state in
            guard !state.isShutDown else { return }
            state.isShutDown = true
            // Wakes the accept thread, which closes the listener itself.
            shutdownSocket(listener)
            for connection in state.connections { shutdownSocket(connection) }
        }
    }

    deinit {
        shutdown()
        if portHolder >= 0 { close(portHolder) }
    }

    /// A socket bound to `address` (the listener's), never listening; -1 if
    /// the system refused it (the server then works as before, without the hold).
    private static func holdPort(_ address: sockaddr_in) -> Int32 {
        let holder = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard holder >= 0 else { return -1 }
        var yes: Int32 = 1
        setsockopt(holder, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        setsockopt(holder, SOL_SOCKET, SO_REUSEPORT, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = address
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(holder, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else {
            close(holder)
            return -1
        }
        return holder
    }

    /// A socket call failed (the `errno` value).
    public enum ServerError: Error {
        /// `socket`, `bind` or `listen` failed.
        case socket(Int32)
    }

    // MARK: - Connections

    private static func acceptLoop(listener: Int32, state: LockedState) {
        // Only this thread closes the listener, so its descriptor cannot be
        // reused by another socket while this loop may still call accept.
        defer { close(listener) }
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                if state.withLock({ $0.isShutDown }) { return }
                if errno == EINTR || errno == ECONNABORTED { continue }
                return
            }
            if state.withLock({ $0.isShutDown }) {
                close(connection)
                return
            }
            var yes: Int32 = 1
            setsockopt(connection, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
            state.withLock { _ = $0.connections.insert(connection) }
            let thread = Thread { serve(connection, state: state) }
            thread.stackSize = 1 << 19
            thread.start()
        }
    }

    private static func serve(_ connection: Int32, state: LockedState) {
        defer {
            state.withLock { state in
                state.connections.remove(connection)
                close(connection)
            }
        }
        var buffer: [UInt8] = []
        while let request = readRequest(connection, buffer: &buffer, state: state) {
            var reply = state.handler(request)
            while true {
                if case .delayed(let duration, let next) = reply {
                    Thread.sleep(forTimeInterval: duration.totalSeconds)
                    reply = next
                } else if case .gated(let gate, let next) = reply {
                    gate.hold()
                    reply = next
                } else {
                    break
                }
            }
            switch reply {
            case .respond(let status, let headers, let body):
                guard writeAll(connection, head(status, headers, length: body.count, keepAlive: state.keepAlive) + body) else { return }
            case .streamed(let status, let headers, let length, let body):
                guard writeAll(connection, head(status, headers, length: length, keepAlive: state.keepAlive)) else { return }
                var open = true
                body { bytes in
                    open = open && writeAll(connection, bytes)
                    return open
                }
                guard open else { return }
            case .chunked(let status, let headers, let body):
                guard writeAll(connection, head(status, headers + [("Transfer-Encoding", "chunked")], length: nil, keepAlive: state.keepAlive)) else {
                    return
                }
                var open = true
                body { bytes in
                    guard !bytes.isEmpty else { return open }
                    open = open && writeAll(connection, Array((String(bytes.count, radix: 16) + "\r\n").utf8) + bytes + [13, 10])
                    return open
                }
                guard open, writeAll(connection, Array("0\r\n\r\n".utf8)) else { return }
            default:
                return
            }
            if !state.keepAlive || request.header("Connection")?.lowercased() == "close" { return }
        }
    }

    private static func head(_ status: Int, _ headers: [(String, String)], length: Int?, keepAlive: Bool) -> [UInt8] {
        var head = "HTTP/1.1 \(status) \(reason(status))\r\n" + (length.map { "Content-Length: \($0)\r\n" } ?? "")
        if !keepAlive { head += "Connection: close\r\n" }
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        return Array((head + "\r\n").utf8)
    }

    private static func readRequest(_ connection: Int32, buffer: inout [UInt8], state: LockedState) -> Request? {
        let separator: [UInt8] = [13, 10, 13, 10]
        var headerEnd: Int?
        while headerEnd == nil {
            if let range = find(separator, in: buffer) {
                headerEnd = range
                break
            }
            guard readMore(connection, into: &buffer) else { return nil }
        }
        guard let end = headerEnd else { return nil }
        let headText = String(decoding: buffer[..<end], as: UTF8.self)
        var lines = headText.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ")
        guard requestLine.count >= 2 else { return nil }
        let headers = lines.compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        let contentLength = headers.first { $0.name.lowercased() == "content-length" }.flatMap { Int($0.value) } ?? 0
        let bodyStart = end + 4
        while buffer.count < bodyStart + contentLength {
            guard readMore(connection, into: &buffer) else { return nil }
        }
        let body = Array(buffer[bodyStart..<bodyStart + contentLength])
        buffer.removeSubrange(0..<bodyStart + contentLength)
        return state.withLock { state in
            let request = Request(
                method: String(requestLine[0]), target: String(requestLine[1]), headers: headers, body: body,
                sequenceNumber: state.requests.count)
            state.requests.append(request)
            return request
        }
    }

    private static func readMore(_ connection: Int32, into buffer: inout [UInt8]) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let count = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return false }
        buffer.append(contentsOf: chunk[..<count])
        return true
    }

    private static func writeAll(_ connection: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for index in 0...(haystack.count - needle.count) where haystack[index] == needle[0] {
            if Array(haystack[index..<index + needle.count]) == needle { return index }
        }
        return nil
    }

    private static func reason(_ status: Int) -> String {
        switch status {
        case 200: return "OK"
        case 201: return "Created"
        case 204: return "No Content"
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 404: return "Not Found"
        case 408: return "Request Timeout"
        case 429: return "Too Many Requests"
        case 500: return "Internal Server Error"
        case 502: return "Bad Gateway"
        case 503: return "Service Unavailable"
        case 504: return "Gateway Timeout"
        default: return "Status"
        }
    }
}

/// Stops reads and writes on a socket, waking any thread blocked on it.
private func shutdownSocket(_ socket: Int32) {
    #if canImport(Glibc)
    _ = Glibc.shutdown(socket, Int32(SHUT_RDWR))
    #else
    _ = Darwin.shutdown(socket, SHUT_RDWR)
    #endif
}

/// What the server's threads share: the handler and keep-alive setting
/// (immutable) and the mutable state behind a lock.
private final class LockedState: Sendable {
    struct Value {
        var requests: [LoopbackHTTPServer.Request] = []
        var connections: Set<Int32> = []
        var isShutDown = false
    }

    let handler: @Sendable (LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Reply
    let keepAlive: Bool
    private let value = Locked(Value())

    init(handler: @escaping @Sendable (LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Reply, keepAlive: Bool) {
        self.handler = handler
        self.keepAlive = keepAlive
    }

    func withLock<T>(_ body: (inout Value) -> T) -> T {
        value.withLock(body)
    }
}
