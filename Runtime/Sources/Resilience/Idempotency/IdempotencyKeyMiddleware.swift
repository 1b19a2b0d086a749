import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Gives each logical write one `Idempotency-Key`, so that the server
/// applies it once however often it is sent.
///
/// Place it outermost: the key is set once per call, before the retry and
/// token-refresh layers repeat the request, so every attempt carries the same
/// key. A key the caller set (such as a generated client's `idempotencyKey:`
/// argument, or one stored with an outbox entry) is kept.
///
/// Defaults: POST, PUT, PATCH and DELETE get a key; keys are lower-case UUID
/// v4 strings.
public struct IdempotencyKeyMiddleware: ClientMiddleware {
    /// The header the key goes in.
    public var headerName: HTTPField.Name
    /// Methods that get a key.
    public var methods: Set<HTTPRequest.Method>
    /// If set, only these operations get a key (whatever their method).
    public var operations: Set<String>?
    /// Makes a new key.
    public var makeKey: @Sendable () -> String

    /// Creates the middleware.
    public init(
        headerName: HTTPField.Name = .idempotencyKey,
        methods: Set<HTTPRequest.Method> = [.post, .put, .patch, .delete],
        operations: Set<String>? = nil,
        makeKey: @escaping @Sendable () -> String = IdempotencyKeyMiddleware.randomUUIDv4
    ) {
        self.headerName = headerName
        self.methods = methods
        self.operations = operations
        self.makeKey = makeKey
    }

    /// Adds the key when the request is a write without one.
    public func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        let applies = operations.map { $0.contains(operationID) } ?? methods.contains(request.method)
        if applies, request.headerFields[headerName] == nil {
            request.headerFields[headerName] = makeKey()
        }
        return try await next(request, body, baseURL)
    }
}

extension IdempotencyKeyMiddleware {
    /// A random (version 4) UUID in lower case, from the system's secure
    /// random source: several times faster than `UUID().uuidString` on Linux.
    public static func randomUUIDv4() -> String {
        var generator = SystemRandomNumberGenerator()
        var high = generator.next() as UInt64
        var low = generator.next() as UInt64
        high = (high & 0xFFFF_FFFF_FFFF_0FFF) | 0x0000_0000_0000_4000  // version 4
        low = (low & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000  // RFC 4122 variant
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        var bytes = [UInt8](repeating: UInt8(ascii: "-"), count: 36)
        var position = 0
        for (index, nibbleIndex) in (0..<32).enumerated() {
            if index == 8 || index == 12 || index == 16 || index == 20 { position += 1 }
            let word = nibbleIndex < 16 ? high : low
            let shift = UInt64(60 - (nibbleIndex % 16) * 4)
            bytes[position] = digits[Int((word >> shift) & 0xF)]
            position += 1
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
