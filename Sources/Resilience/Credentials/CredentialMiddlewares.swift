import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Which operations need which credential. Until generated clients expose
/// their security requirements, apps list the operation ids; a predicate
/// covers everything else.
public struct OperationSelector: Sendable {
    private let matches: @Sendable (String) -> Bool

    /// Operations for which `predicate` is true.
    public init(_ predicate: @escaping @Sendable (String) -> Bool) {
        matches = predicate
    }

    /// Every operation.
    public static let all = OperationSelector { _ in true }

    /// Only the listed operations.
    public static func only(_ operationIDs: Set<String>) -> OperationSelector {
        OperationSelector { operationIDs.contains($0) }
    }

    /// Every operation but the listed ones (public endpoints such as OTP request).
    public static func allExcept(_ operationIDs: Set<String>) -> OperationSelector {
        OperationSelector { !operationIDs.contains($0) }
    }

    /// Whether the operation is selected.
    public func contains(_ operationID: String) -> Bool { matches(operationID) }
}

/// Adds an API key header (SecureNode's and MobileTracker's `X-API-Key`) to
/// the selected operations, read from `key` on every attempt so that a
/// rotated key applies at once.
public struct APIKeyMiddleware: ClientMiddleware {
    /// The header, `X-API-Key` by default.
    public var headerName: HTTPField.Name
    /// The operations that need the key.
    public var operations: OperationSelector
    private let key: @Sendable () async throws -> String?

    /// Creates the middleware; `key` returns nil when no key is configured,
    /// and the request then goes without one.
    public init(
        headerName: HTTPField.Name = HTTPField.Name("X-API-Key")!, operations: OperationSelector = .all,
        key: @escaping @Sendable () async throws -> String?
    ) {
        self.headerName = headerName
        self.operations = operations
        self.key = key
    }

    /// Sets the header when the operation needs it.
    public func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        if operations.contains(operationID), let value = try await key() {
            request.headerFields[headerName] = value
        }
        return try await next(request, body, baseURL)
    }
}

/// Adds `Authorization: Bearer <access token>` to the selected operations,
/// with the session's current token on every attempt (so a retry after a
/// refresh carries the new token).
public struct BearerTokenMiddleware: ClientMiddleware {
    /// The session whose access token is sent.
    public let session: TokenSession
    /// The operations that need the token.
    public var operations: OperationSelector

    /// Creates the middleware.
    public init(session: TokenSession, operations: OperationSelector = .all) {
        self.session = session
        self.operations = operations
    }

    /// Sets the header when the operation needs it and a token exists.
    public func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        if operations.contains(operationID), let token = session.accessToken {
            request.headerFields[.authorization] = "Bearer \(token)"
        }
        return try await next(request, body, baseURL)
    }
}
