import ClientRuntime
import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Signs in with the OAuth 2.0 device authorization grant (RFC 8628; OpenAPI
/// 3.2's `deviceAuthorization` flow): the sign-in of an app on a device
/// without a comfortable keyboard (a TV, a car's screen), where the user
/// approves on their phone.
///
/// ```swift
/// let flow = try DeviceAuthorizationFlow(
///     endpoints: Client.SecuritySchemes.deviceDeviceFlow, clientID: "tv-app", transport: URLSessionTransport())
/// let authorization = try await flow.start()
/// show("Go to \(authorization.verificationURI) and enter \(authorization.userCode)")
/// try await session.signIn(try await flow.waitForApproval(authorization))
/// ```
///
/// `start()` asks for a code; `waitForApproval(_:)` polls the token endpoint
/// every `interval` (five seconds more after each `slow_down`, as the RFC
/// says) until the user approves, refuses (``Failure/accessDenied``) or
/// the code expires (``Failure/expired``), and gives the tokens for a
/// ``TokenSession``. Cancelling the task that waits stops the polling. The
/// endpoints must be `https` (plain `http` only on the loopback address, for
/// tests); the device code and the tokens never appear in an error or a
/// description.
public struct DeviceAuthorizationFlow: Sendable {
    /// What the app shows the user, and what the polling needs.
    public struct Authorization: Sendable, CustomStringConvertible {
        /// The code the user types on the other device.
        public let userCode: String
        /// Where the user goes to type it.
        public let verificationURI: URL
        /// Where the user goes with the code already filled in (a QR code's
        /// content), when the server gives one.
        public let verificationURIComplete: URL?
        /// How long the code is good for.
        public let expiresIn: Duration
        /// The wait between two polls the server asked for (5 s when it says nothing).
        public let interval: Duration
        /// The device code the polls send: the server's secret, never shown.
        let deviceCode: String

        /// The user code and where to enter it; never the device code.
        public var description: String { "enter \(userCode) at \(verificationURI) within \(expiresIn)" }
    }

    /// Why the sign-in did not happen.
    public enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// An endpoint is not an `https` URL (plain `http` is allowed on the loopback address only).
        case insecureEndpoint(String)
        /// The user refused (`access_denied`).
        case accessDenied
        /// The code expired before the user approved (`expired_token`, or its `expires_in` passed).
        case expired
        /// The server refused the request with an OAuth error other than the
        /// ones the polling handles (`invalid_client`, `invalid_scope`), or a
        /// status without one.
        case refused(status: Int, error: String?)
        /// The server's answer lacks what RFC 8628 requires (the member named).
        case malformedResponse(String)

        /// What happened and what to do; never a code or a token.
        public var description: String {
            switch self {
            case .insecureEndpoint(let url): "the device flow endpoint \(url) is not https; use the server's https address"
            case .accessDenied: "the user refused the sign-in on the other device"
            case .expired: "the code expired before the user approved; start again for a new code"
            case .refused(let status, let error): "the authorization server refused the request (status \(status)\(error.map { ", \($0)" } ?? ""))"
            case .malformedResponse(let member): "the authorization server's answer has no valid '\(member)' (RFC 8628)"
            }
        }
    }

    private let deviceAuthorizationURL: URL
    private let tokenURL: URL
    private let clientID: String
    private let scopes: [String]
    private let transport: any ClientTransport
    private let clock: any Clock<Duration>

    /// A flow against `endpoints` (relative ones resolved against
    /// `serverURL`) for the app registered as `clientID`, asking for `scopes`
    /// (nil: the ones the spec lists; empty: none), its polls waiting on `clock`.
    public init(
        endpoints: OAuthDeviceFlowEndpoints, serverURL: URL? = nil, clientID: String, scopes: [String]? = nil, transport: any ClientTransport,
        clock: any Clock<Duration> = ContinuousClock()
    ) throws {
        deviceAuthorizationURL = try Self.secure(endpoints.deviceAuthorizationURL(relativeTo: serverURL), written: endpoints.deviceAuthorization)
        tokenURL = try Self.secure(endpoints.tokenURL(relativeTo: serverURL), written: endpoints.token)
        self.clientID = clientID
        self.scopes = scopes ?? endpoints.scopes
        self.transport = transport
        self.clock = clock
    }

    /// Asks the authorization server for a device code and the user code to show.
    public func start() async throws -> Authorization {
        var form = [("client_id", clientID)]
        if !scopes.isEmpty { form.append(("scope", scopes.joined(separator: " "))) }
        let (status, body) = try await post(form, to: deviceAuthorizationURL, operationID: "deviceAuthorization")
        guard status == 200 else { throw Self.refusal(status: status, body: body) }
        let answer = try Self.object(body)
        guard let deviceCode = answer["device_code"] as? String, !deviceCode.isEmpty else { throw Failure.malformedResponse("device_code") }
        guard let userCode = answer["user_code"] as? String, !userCode.isEmpty else { throw Failure.malformedResponse("user_code") }
        guard let verification = (answer["verification_uri"] as? String).flatMap(URL.init(string:)) else { throw Failure.malformedResponse("verification_uri") }
        guard let expiresIn = (answer["expires_in"] as? NSNumber)?.intValue, expiresIn > 0 else { throw Failure.malformedResponse("expires_in") }
        let interval = (answer["interval"] as? NSNumber)?.intValue ?? 5
        return Authorization(
            userCode: userCode, verificationURI: verification,
            verificationURIComplete: (answer["verification_uri_complete"] as? String).flatMap(URL.init(string:)),
            expiresIn: .seconds(expiresIn), interval: .seconds(max(1, interval)), deviceCode: deviceCode)
    }

    /// Polls the token endpoint until the user approves, and returns the tokens.
    public func waitForApproval(_ authorization: Authorization) async throws -> TokenPair {
        var interval = authorization.interval
        var waited = Duration.zero
        let form = [
            ("grant_type", "urn:ietf:params:oauth:grant-type:device_code"), ("device_code", authorization.deviceCode), ("client_id", clientID),
        ]
        while true {
            // The last poll is at the moment the code expires, never after.
            let wait = min(interval, authorization.expiresIn - waited)
            guard wait > .zero else { throw Failure.expired }
            try await clock.sleep(for: wait)
            waited += wait
            let status: Int, body: Data
            do {
                (status, body) = try await post(form, to: tokenURL, operationID: "deviceAccessToken")
            } catch {
                // A cancelled task's request fails with the transport's own
                // error (URLSession's `cancelled`): the app hears cancellation.
                if Task.isCancelled { throw CancellationError() }
                throw error
            }
            if status == 200 {
                let answer = try Self.object(body)
                guard let access = answer["access_token"] as? String, !access.isEmpty else { throw Failure.malformedResponse("access_token") }
                return TokenPair(accessToken: access, refreshToken: answer["refresh_token"] as? String)
            }
            switch (try? Self.object(body))?["error"] as? String {
            case "authorization_pending": continue
            case "slow_down": interval += .seconds(5)
            case "access_denied": throw Failure.accessDenied
            case "expired_token": throw Failure.expired
            default: throw Self.refusal(status: status, body: body)
            }
        }
    }

    /// POSTs `form` as `application/x-www-form-urlencoded`; the status and body.
    private func post(_ form: [(String, String)], to url: URL, operationID: String) async throws -> (Int, Data) {
        let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        let text = form.map { name, value in
            "\(name)=\(value.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")"
        }.joined(separator: "&")
        var components = URLComponents(url: url, resolvingAgainstBaseURL: true)
        let path = (components?.percentEncodedPath ?? "") + (components?.percentEncodedQuery.map { "?" + $0 } ?? "")
        components?.path = ""
        components?.query = nil
        let base = components?.url ?? url
        var request = HTTPRequest(method: .post, scheme: nil, authority: nil, path: path.isEmpty ? "/" : path)
        request.headerFields[.contentType] = "application/x-www-form-urlencoded"
        request.headerFields[.accept] = "application/json"
        let (response, body) = try await transport.send(request, body: HTTPBody(text), baseURL: base, operationID: operationID)
        var data = Data()
        if let body { data = try await Data(collecting: body, upTo: 1 << 20) }
        return (response.status.code, data)
    }

    private static func object(_ data: Data) throws -> [String: Any] {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { throw Failure.malformedResponse("body") }
        return object
    }

    /// The server's OAuth `error` code (a registered token, never its
    /// description, which can echo what was sent).
    private static func refusal(status: Int, body: Data) -> Failure {
        let code = (try? object(body))?["error"] as? String
        let safe = code.flatMap { $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") } && $0.count <= 64 ? $0 : nil }
        return .refused(status: status, error: safe)
    }

    private static func secure(_ url: URL?, written: String) throws -> URL {
        guard let url, let scheme = url.scheme?.lowercased() else { throw Failure.insecureEndpoint(written) }
        let loopback = ["127.0.0.1", "::1", "localhost"].contains(url.host?.lowercased() ?? "")
        guard scheme == "https" || scheme == "http" && loopback else { throw Failure.insecureEndpoint(written) }
        return url
    }
}
