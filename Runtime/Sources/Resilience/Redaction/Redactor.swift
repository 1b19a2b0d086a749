import ClientRuntime
import Foundation
import RuntimeSupport

/// Masks secrets in what is logged: API keys, bearer and refresh tokens, OTP
/// codes, and all but the last 4 digits of phone numbers; in headers, query
/// strings, JSON and form bodies, and free text. A body is logged as its
/// shape (members, types, lengths), with values only at the places named
/// by ``loggablePaths`` (``body(_:contentType:)``).
///
/// Field names match after lower-casing and dropping `_` and `-`, so
/// `refresh_token`, `refreshToken` and `Refresh-Token` are one name.
public struct Redactor: Sendable {
    /// What replaces a secret.
    public static let mask = SecretTextMask.mask

    /// Header names (lower case) whose values are secret.
    public var secretHeaders: Set<String>
    /// Field and parameter names (normalised) whose values are secret.
    public var secretFields: Set<String>
    /// Field names (normalised) whose values are phone numbers.
    public var phoneFields: Set<String>
    /// The places in a body whose values its log shows (`traceId`,
    /// `error.code`, `transactions[].status`; names normalised as the
    /// other sets' are): none by default, the ones an operation's spec
    /// marks `x-loggable: true` (``masking(credentialsOf:)``), and any an
    /// app adds. A secret or a phone number there is still masked.
    public var loggablePaths: Set<String> {
        didSet { loggablePaths = Set(loggablePaths.map(Self.normalise)) }
    }
    /// The object keys a body's log shows (an operation's spec's declared
    /// property names, ``masking(credentialsOf:)``); any other key is
    /// shown as its length, since a map's keys are data. Nil, the default:
    /// every key shown (nothing is known of the body).
    public var memberNames: Set<String>?
    /// Secrets the app currently holds (a session's access and refresh
    /// tokens), masked wherever they appear in text, whatever their shape:
    /// an opaque token echoed in a server's error message is caught here
    /// when no pattern would catch it. Values under 8 characters are ignored.
    public var knownSecrets: @Sendable () -> [String]

    /// The defaults cover the four backends' credentials and personal data.
    public init(
        secretHeaders: Set<String> = ["authorization", "proxy-authorization", "x-api-key", "cookie", "set-cookie", "x-auth-token"],
        secretFields: Set<String> = [
            "accesstoken", "refreshtoken", "oldrefreshtoken", "idtoken", "token", "apikey", "password", "secret",
            "clientsecret", "code", "otp", "otpcode", "previewcode", "codeverifier", "publictoken", "authorization",
        ],
        phoneFields: Set<String> = ["phone", "phonenumber", "phonenumbere164", "e164", "msisdn", "mobile"],
        loggablePaths: Set<String> = [], memberNames: Set<String>? = nil,
        knownSecrets: @escaping @Sendable () -> [String] = { [] }
    ) {
        self.knownSecrets = knownSecrets
        self.loggablePaths = Set(loggablePaths.map(Self.normalise))
        self.memberNames = memberNames
        self.secretHeaders = secretHeaders
        self.secretFields = Set(secretFields.map(Self.normalise))
        self.phoneFields = Set(phoneFields.map(Self.normalise))
    }

    /// This redactor, also masking what `operation`'s spec says is secret:
    /// where its security schemes put their credentials (the header of an
    /// API key sent in a header, a spec's own `X-Items-Key` which no default
    /// list can know, and the query parameter of one sent in the query), and
    /// the parameters and body fields the spec marks secret
    /// (`OperationDescriptor.secretFields`). Cookies are masked whole
    /// already, and `Authorization` always. The places the spec marks safe
    /// to log (`OperationDescriptor.loggablePaths`) are added to
    /// ``loggablePaths``, and the keys it declares
    /// (`OperationDescriptor.memberNames`) to ``memberNames``.
    public func masking(credentialsOf operation: OperationDescriptor?) -> Redactor {
        guard let operation else { return self }
        var copy = self
        for field in operation.secretFields { copy.secretFields.insert(Self.normalise(field)) }
        for path in operation.loggablePaths { copy.loggablePaths.insert(Self.normalise(path)) }
        // The descriptor's set is shared, not copied, unless the app gave keys of its own (the common case, per request).
        if let declared = operation.memberNames { copy.memberNames = memberNames.map { $0.union(declared) } ?? declared }
        for scheme in operation.security.joined() {
            switch scheme.kind {
            case .apiKeyHeader(let name): copy.secretHeaders.insert(name.lowercased())
            case .apiKeyQuery(let name): copy.secretFields.insert(Self.normalise(name))
            case .apiKeyCookie, .http, .oauth2, .openIDConnect, .mutualTLS: break
            }
        }
        return copy
    }

    /// A header value fit for a log. `Authorization: Bearer abc` keeps its scheme: `Bearer ***`.
    public func header(name: String, value: String) -> String {
        let normalised = Self.normalise(name)
        let isSecret = secretHeaders.contains(name.lowercased()) || secretFields.contains(normalised) || normalised.hasSuffix("token")
        guard isSecret else {
            // A URL in a header (`Location: app://cb?code=...`) has its query redacted.
            if let mark = value.firstIndex(of: "?") {
                return text(String(value[..<mark])) + "?" + query(String(value[value.index(after: mark)...]))
            }
            return text(value)
        }
        if let space = value.firstIndex(of: " "), name.lowercased().hasSuffix("authorization") {
            return value[..<space] + " " + Self.mask
        }
        return Self.mask
    }

    /// A request path fit for a log: the segments that `template`'s
    /// `secretParameters` fill (`/sessions/{session_id}/location` with
    /// `session_id` secret) are masked. The template is matched from the
    /// end, so a prefix the path gained (a mount such as `/api`) does not
    /// shift it; a path that does not fit the template is kept as it is,
    /// through ``text(_:)``.
    public func path(_ path: String, template: String, secretParameters: Set<String>) -> String {
        guard !secretParameters.isEmpty else { return text(path) }
        var segments = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        let pattern = template.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard pattern.count <= segments.count else { return text(path) }
        let offset = segments.count - pattern.count
        for (index, part) in pattern.enumerated() where part.hasPrefix("{") && part.hasSuffix("}") {
            if secretParameters.contains(String(part.dropFirst().dropLast())) { segments[offset + index] = Self.mask }
        }
        return text(segments.joined(separator: "/"))
    }

    /// A query string (or form body) fit for a log.
    public func query(_ query: String) -> String {
        query.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else { return text(String(pair)) }
            let name = String(parts[0])
            let key = Self.normalise(name.removingPercentEncoding ?? name)
            let value = parts[1].removingPercentEncoding ?? String(parts[1])
            if secretFields.contains(key) { return name + "=" + Self.mask }
            if phoneFields.contains(key) { return name + "=" + Self.maskPhone(value) }
            return name + "=" + text(String(parts[1]))
        }.joined(separator: "&")
    }

    /// Free text with known secrets, phone numbers and bearer tokens masked.
    public func text(_ text: String) -> String {
        var result = text
        for secret in knownSecrets() where secret.count >= 8 && result.contains(secret) {
            result = result.replacingOccurrences(of: secret, with: Self.mask)
        }
        return SecretTextMask.masked(result)
    }

    /// `+15551234567` -> `+*******4567`: every digit but the last 4 masked
    /// (the project's one rule, the same in every SDK and sample).
    public static func maskPhone(_ value: String) -> String {
        PhoneMask.masked(value)
    }

    static func normalise(_ name: String) -> String {
        name.lowercased().filter { $0 != "_" && $0 != "-" }
    }
}
