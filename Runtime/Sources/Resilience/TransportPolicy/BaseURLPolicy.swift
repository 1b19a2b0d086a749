import Foundation
import HTTPTypes
import OpenAPIRuntime

/// A base URL that would send credentials in clear text.
public struct InsecureBaseURLError: Error, Sendable, CustomStringConvertible {
    /// The rejected URL.
    public let url: URL

    /// What is wrong and how to fix it.
    public var description: String {
        "refusing to send requests to \(url.absoluteString): plain http:// is allowed only for loopback hosts "
            + "(localhost, 127.0.0.0/8, ::1); use https://"
    }
}

/// Requests go over HTTPS, except to this machine: `http://` is accepted
/// only for loopback hosts (local development servers and tests).
public enum BaseURLPolicy {
    /// Throws ``InsecureBaseURLError`` unless `url` is `https`, or `http` to a loopback host.
    public static func validate(_ url: URL) throws(InsecureBaseURLError) {
        switch url.scheme?.lowercased() {
        case "https": return
        case "http" where isLoopback(url.host): return
        default: throw InsecureBaseURLError(url: url)
        }
    }

    /// Whether `host` names this machine.
    public static func isLoopback(_ host: String?) -> Bool {
        guard var host = host?.lowercased() else { return false }
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host == "localhost" || host.hasSuffix(".localhost") || host == "::1" { return true }
        let octets = host.split(separator: ".")
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }
}

/// Applies ``BaseURLPolicy`` to every request before it leaves.
public struct SecureTransportMiddleware: ClientMiddleware {
    /// Creates the middleware.
    public init() {}

    /// Throws ``InsecureBaseURLError`` for a plain-http, non-loopback base URL.
    public func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        try BaseURLPolicy.validate(baseURL)
        return try await next(request, body, baseURL)
    }
}
