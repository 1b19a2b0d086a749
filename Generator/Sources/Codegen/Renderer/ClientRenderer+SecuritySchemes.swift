import Foundation

/// `Client.SecuritySchemes`: the security schemes the operations use, by name.
extension ClientRenderer {
    /// `Client.SecuritySchemes`: one constant per scheme the operations use,
    /// named as in `components/securitySchemes`, so the keys an app gives
    /// `SecurityMiddleware` are checked by the compiler (a misspelt name would
    /// otherwise surface as `missingCredential` at call time).
    func renderSecuritySchemes(_ client: ClientRepresentation, into writer: inout SwiftWriter) {
        guard !client.securitySchemes.isEmpty else { return }
        writer.line("")
        writer.line("/// The spec's security schemes, by the names `components/securitySchemes`")
        writer.line("/// gives them: the keys of `SecurityMiddleware`'s credentials.")
        writer.block("\(access) enum SecuritySchemes") { writer in
            for scheme in client.securitySchemes {
                writer.line("/// \(SwiftComment.code(scheme.use.name)): \(Self.summary(scheme.use.kind)).")
                if scheme.isDeprecated { writer.line("@available(*, deprecated, message: \"the spec marks this security scheme deprecated\")") }
                writer.line("\(access) static let \(scheme.member) = \(SwiftLiteral.string(scheme.use.name))")
            }
            for flow in client.securitySchemes.compactMap(\.deviceFlow) {
                writer.line("")
                writer.documentation(
                    "The device authorization flow (RFC 8628) of \(SwiftComment.code(client.securitySchemes.first { $0.deviceFlow == flow }?.use.name ?? "")): "
                        + "where `DeviceAuthorizationFlow` (Resilience) asks for a code and polls for the token.")
                let scopes = flow.scopes.map(SwiftLiteral.string).joined(separator: ", ")
                writer.line(
                    "\(access) static let \(flow.member) = OAuthDeviceFlowEndpoints(deviceAuthorization: \(SwiftLiteral.string(flow.deviceAuthorizationURL)), "
                        + "token: \(SwiftLiteral.string(flow.tokenURL)), scopes: [\(scopes)])")
            }
            writer.line("")
            writer.line("/// Every scheme name.")
            // A deprecated scheme by its name, so that listing it draws no warning.
            let all = client.securitySchemes.map { $0.isDeprecated ? SwiftLiteral.string($0.use.name) : SwiftName.unescaped($0.member) }
            writer.line("\(access) static let all: [String] = [\(all.joined(separator: ", "))]")
        }
    }

    /// Where a scheme's credential goes, in words.
    static func summary(_ kind: SecurityKind) -> String {
        switch kind {
        case .apiKeyHeader(let name): return "an API key in the \(SwiftComment.code(name)) header"
        case .apiKeyQuery(let name): return "an API key in the \(SwiftComment.code(name)) query parameter"
        case .apiKeyCookie(let name): return "an API key in the \(SwiftComment.code(name)) cookie"
        case .http(let scheme): return "HTTP \(SwiftComment.code(scheme)) authentication"
        case .oauth2: return "OAuth 2 (a bearer token)"
        case .openIDConnect: return "OpenID Connect (a bearer token)"
        case .mutualTLS: return "mutual TLS (a client certificate)"
        }
    }
}
