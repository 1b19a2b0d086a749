import ClientRuntime
import Foundation
import HTTPTypes
import Logging
import OpenAPIRuntime
import RuntimeSupport

/// Logs each request and response through swift-log with secrets masked by
/// a ``Redactor``: credentials in headers, tokens and OTP codes in query
/// strings and bodies, phone numbers everywhere but their last 4 digits.
/// For a generated client's operation, what its spec says is secret is
/// masked too (``Redactor/masking(credentialsOf:)``): the header and query
/// names its API-key schemes use, the fields it marks `x-secret`, and the
/// path segments of the path parameters it marks (``Redactor/path(_:template:secretParameters:)``).
///
/// Requests and responses are logged at `.debug` (method, URL, status,
/// duration, headers); bodies at `.trace`, when their length is known and at
/// most ``maximumLoggedBodyBytes``, as their shape: members, types and
/// lengths, with values only for the fields the spec marks `x-loggable`
/// (``Redactor/body(_:contentType:)``). Failures are logged at `.warning`.
/// Place it just above the transport, so that each attempt is logged.
public struct RedactingLogMiddleware: ClientMiddleware {
    /// Where the lines go.
    public var logger: Logger
    /// What is masked.
    public var redactor: Redactor
    /// The largest body logged. Default 16 KiB.
    public var maximumLoggedBodyBytes: Int

    /// Creates the middleware.
    public init(logger: Logger, redactor: Redactor = Redactor(), maximumLoggedBodyBytes: Int = 16 * 1024) {
        self.logger = logger
        self.redactor = redactor
        self.maximumLoggedBodyBytes = maximumLoggedBodyBytes
    }

    /// Logs the request, passes it on, logs the response or the failure.
    public func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let operation = OperationDescriptor.current.flatMap { $0.id == operationID ? $0 : nil }
        let redactor = redactor.masking(credentialsOf: operation)
        // Formatted only when a line is written (log messages are autoclosures).
        let target = { [redactor] () -> String in
            let (path, rawQuery) = Self.split(request.path ?? "")
            let loggedPath = operation.map { redactor.path(path, template: $0.pathTemplate, secretParameters: $0.secretPathParameters) } ?? path
            return baseURL.absoluteString + loggedPath + (rawQuery.map { "?" + redactor.query($0) } ?? "")
        }
        var metadata: Logger.Metadata = ["operation": .string(operationID)]
        logger.debug("\(request.method.rawValue) \(target()) \(Self.headers(request.headerFields, redactor))", metadata: metadata)
        let (requestBody, loggedRequest) = try await buffered(body, contentType: request.headerFields[.contentType], redactor: redactor)
        if let loggedRequest { logger.trace("request body: \(loggedRequest)", metadata: metadata) }
        let start = ContinuousClock.now
        do {
            let (response, responseBody) = try await next(request, requestBody, baseURL)
            let elapsed = ContinuousClock.now - start
            if logger.logLevel <= .debug { metadata["status"] = "\(response.status.code)" }
            logger.debug(
                "\(response.status.code) \(request.method.rawValue) \(target()) in \(milliseconds(elapsed)) ms \(Self.headers(response.headerFields, redactor))",
                metadata: metadata)
            let (body, loggedResponse) = try await buffered(responseBody, contentType: response.headerFields[.contentType], redactor: redactor)
            if let loggedResponse { logger.trace("response body: \(loggedResponse)", metadata: metadata) }
            return (response, body)
        } catch {
            logger.warning(
                "\(request.method.rawValue) \(target()) failed after \(milliseconds(ContinuousClock.now - start)) ms: \(Self.summary(of: error))",
                metadata: metadata)
            throw error
        }
    }

    /// What failed, without the error's own description: the runtime's
    /// `ClientError` describes the operation's inputs (OTP codes, refresh
    /// tokens) and the URL, so only the kind of failure is logged.
    static func summary(of error: any Error) -> String {
        let cause = (error as? ClientError)?.underlyingError ?? error
        switch cause {
        case let urlError as URLError: return "URLError \(urlError.code.rawValue)"
        case let error as RequestTimeoutError: return error.description
        case let error as ConnectTimeoutError: return error.description
        case let error as TokenRefreshError: return error.description
        default: return String(describing: type(of: cause))
        }
    }

    private static func headers(_ fields: HTTPFields, _ redactor: Redactor) -> String {
        "[" + fields.map { "\($0.name.rawName): \(redactor.header(name: $0.name.rawName, value: $0.value))" }.joined(separator: ", ") + "]"
    }

    /// Reads a body of known, small length so it can be logged, and returns a
    /// replacement that still yields the same bytes.
    private func buffered(_ body: HTTPBody?, contentType: String?, redactor: Redactor) async throws -> (HTTPBody?, String?) {
        guard logger.logLevel <= .trace, let body, case .known(let length) = body.length, length <= maximumLoggedBodyBytes else {
            return (body, nil)
        }
        let bytes = try await [UInt8](collecting: body, upTo: maximumLoggedBodyBytes)
        return (HTTPBody(bytes), redactor.body(bytes, contentType: contentType))
    }

    private static func split(_ path: String) -> (String, String?) {
        guard let mark = path.firstIndex(of: "?") else { return (path, nil) }
        return (String(path[..<mark]), String(path[path.index(after: mark)...]))
    }

    private func milliseconds(_ duration: Duration) -> String {
        String(duration.roundedMilliseconds)
    }
}
