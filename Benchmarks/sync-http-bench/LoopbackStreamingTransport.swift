import Foundation
import HTTPTypes
import OpenAPIRuntime

#if canImport(Glibc)
import Glibc
#endif

/// An HTTP/1.1 transport over a plain socket to a loopback server, whose
/// response body is read from the socket as the client asks for it: what
/// `URLSessionTransport` does on Apple platforms (there it streams), and
/// not on Linux (there it buffers the whole body before returning). The
/// benchmark measures the client's streaming decode through it, so the
/// figures are those of a phone, not of Linux's buffering.
///
/// Loopback and `Content-Length` bodies only; one connection per request.
struct LoopbackStreamingTransport: ClientTransport {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        guard let port = baseURL.port else { throw Failure(description: "no port in \(baseURL)") }
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        let connection = SocketConnection(descriptor: descriptor)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw Failure(description: "connect: errno \(errno)") }

        var requestBody: [UInt8] = []
        if let body { requestBody = Array(try await ArraySlice(collecting: body, upTo: 1 << 24)) }
        var head = "\(request.method.rawValue) \(baseURL.path)\(request.path ?? "/") HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for field in request.headerFields { head += "\(field.name): \(field.value)\r\n" }
        if !requestBody.isEmpty { head += "Content-Length: \(requestBody.count)\r\n" }
        try connection.write(Array((head + "\r\n").utf8) + requestBody)

        let (response, length, leftover) = try connection.readHead()
        let reader = SocketBody(connection: connection, remaining: length, leftover: leftover)
        return (response, HTTPBody(reader, length: .known(Int64(length)), iterationBehavior: .single))
    }
}

/// A connected socket, closed when the last reference goes.
///
/// `@unchecked Sendable` is safe because the transport hands the
/// connection to one body, which is iterated once (`iterationBehavior:
/// .single`): only one task reads it at a time, and `descriptor` never changes.
final class SocketConnection: @unchecked Sendable {
    let descriptor: Int32

    init(descriptor: Int32) { self.descriptor = descriptor }

    deinit { close(descriptor) }

    func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { throw LoopbackStreamingTransport.Failure(description: "send: errno \(errno)") }
            offset += written
        }
    }

    func read(max count: Int) throws -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        let received = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, count, 0) }
        guard received >= 0 else { throw LoopbackStreamingTransport.Failure(description: "recv: errno \(errno)") }
        buffer.removeLast(count - received)
        return buffer
    }

    /// Reads the status line and headers; returns the body length and the
    /// body bytes read with them.
    func readHead() throws -> (HTTPResponse, Int, [UInt8]) {
        var bytes: [UInt8] = []
        let separator: [UInt8] = [13, 10, 13, 10]
        var end: Int?
        while end == nil {
            let chunk = try read(max: 16 << 10)
            guard !chunk.isEmpty else { throw LoopbackStreamingTransport.Failure(description: "the server closed before the response head") }
            let from = max(0, bytes.count - 3)
            bytes += chunk
            if bytes.count >= 4 {
                end = (from...(bytes.count - 4)).first { Array(bytes[$0..<$0 + 4]) == separator }
            }
        }
        let text = String(decoding: bytes[..<end!], as: UTF8.self)
        var lines = text.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let code = Int(statusLine[1]) else {
            throw LoopbackStreamingTransport.Failure(description: "bad status line")
        }
        var response = HTTPResponse(status: .init(code: code))
        var length = 0
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = String(line[..<colon]).trimmingCharacters(in: .whitespaces)
            let value = String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
            if name.lowercased() == "content-length" { length = Int(value) ?? 0 }
            if let fieldName = HTTPField.Name(name) { response.headerFields.append(HTTPField(name: fieldName, value: value)) }
        }
        return (response, length, Array(bytes[(end! + 4)...]))
    }
}

/// A response body read from the socket chunk by chunk, as it is iterated.
struct SocketBody: AsyncSequence, Sendable {
    typealias Element = ArraySlice<UInt8>

    let connection: SocketConnection
    let remaining: Int
    let leftover: [UInt8]

    func makeAsyncIterator() -> Iterator { Iterator(connection: connection, remaining: remaining, leftover: leftover) }

    struct Iterator: AsyncIteratorProtocol {
        let connection: SocketConnection
        var remaining: Int
        var leftover: [UInt8]

        mutating func next() async throws -> ArraySlice<UInt8>? {
            if !leftover.isEmpty {
                let chunk = ArraySlice(leftover.prefix(remaining))
                remaining -= chunk.count
                leftover = []
                return chunk
            }
            guard remaining > 0 else { return nil }
            let chunk = try connection.read(max: Swift.min(remaining, 64 << 10))
            guard !chunk.isEmpty else { throw LoopbackStreamingTransport.Failure(description: "the body ended \(remaining) bytes early") }
            remaining -= chunk.count
            return ArraySlice(chunk)
        }
    }
}
