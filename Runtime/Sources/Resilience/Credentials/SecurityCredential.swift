import ClientRuntime
import Foundation

/// A credential the app holds for one security scheme of a spec; which case
/// fits which scheme follows the scheme's type:
///
/// | Scheme in the spec                               | Credential                 | Sent as                                      |
/// |--------------------------------------------------|----------------------------|----------------------------------------------|
/// | `apiKey` (`in: header`, `query` or `cookie`)     | ``apiKey(_:)``             | the named header, query item or cookie       |
/// | `http`, `scheme: bearer`; `oauth2`; `openIdConnect` | ``bearerToken(_:)``     | `Authorization: Bearer <token>`              |
/// | `http`, `scheme: basic`                          | ``basic(username:password:)`` | `Authorization: Basic <base64(user:pass)>` |
/// | `http`, any other `scheme` (`digest`, `hoba`...) | ``authorization(_:)``      | `Authorization: <scheme as the spec spells it> <value>` |
///
/// ``authorization(_:)`` also fits `bearer` and `basic` schemes, for a value
/// the app has already encoded.
public enum SecurityCredential: Sendable, Hashable {
    /// An API key, sent where the `apiKey` scheme says.
    case apiKey(String)
    /// A bearer token (an `http` `bearer` scheme, OAuth 2, OpenID Connect).
    case bearerToken(String)
    /// A user name and password for an `http` `basic` scheme.
    case basic(username: String, password: String)
    /// The credentials part of `Authorization: <scheme> <credentials>`, as
    /// the app has it, for any `http` scheme.
    case authorization(String)

    /// What this case is called in messages (never the value).
    var caseName: String {
        switch self {
        case .apiKey: return ".apiKey"
        case .bearerToken: return ".bearerToken"
        case .basic: return ".basic"
        case .authorization: return ".authorization"
        }
    }
}

/// Where ``SecurityMiddleware`` reads the credential of one scheme, on every
/// attempt (so a rotated key or a refreshed token applies at once).
public struct CredentialSource: Sendable {
    let read: @Sendable () async throws -> SecurityCredential?

    /// A credential that does not change.
    public static func fixed(_ credential: SecurityCredential) -> CredentialSource {
        CredentialSource { credential }
    }

    /// A credential read when a request needs it; nil when the app has none
    /// (signed out, no key configured), and the scheme then counts as absent.
    public static func provider(_ read: @escaping @Sendable () async throws -> SecurityCredential?) -> CredentialSource {
        CredentialSource(read: read)
    }

    /// The session's current access token as a bearer token (OAuth 2,
    /// OpenID Connect, or an `http` `bearer` scheme whose tokens a
    /// ``TokenSession`` refreshes); absent while signed out.
    public static func session(_ session: TokenSession) -> CredentialSource {
        CredentialSource { session.accessToken.map(SecurityCredential.bearerToken) }
    }
}

/// An operation could not be given the credentials its spec requires.
public enum SecurityCredentialError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No security requirement of the operation could be met with the
    /// credentials configured: `alternatives` lists the scheme names of each
    /// requirement (all schemes of one requirement are needed together).
    case missingCredential(operationID: String, alternatives: [[String]])
    /// The credential configured for `scheme` is of a kind the scheme
    /// cannot carry (a ``SecurityCredential/basic(username:password:)`` for
    /// an `apiKey` scheme).
    case unsuitableCredential(operationID: String, scheme: String, schemeType: String, given: String, expected: String)

    /// What went wrong and how to fix it; no credential value is printed.
    public var description: String {
        switch self {
        case .missingCredential(let operationID, let alternatives):
            let options = alternatives.map { $0.joined(separator: " + ") }.joined(separator: " or ")
            return "\(operationID): no credential for its security requirement (\(options)); "
                + "give SecurityMiddleware a CredentialSource for one of these scheme names (as spelled in the spec's components/securitySchemes)"
        case .unsuitableCredential(let operationID, let scheme, let schemeType, let given, let expected):
            return "\(operationID): the credential for security scheme '\(scheme)' (\(schemeType)) is \(given); this scheme takes \(expected)"
        }
    }
}
