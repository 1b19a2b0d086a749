import Foundation
import RuntimeSupport

/// Proof Key for Code Exchange (RFC 7636) with the S256 method: a secret
/// verifier the app keeps, and its SHA-256 challenge that goes in the
/// authorization URL. The server that redeems the code checks that the
/// verifier hashes to the challenge, so a code intercepted on its way back
/// to the app is useless without it.
public struct PKCE: Sendable, Hashable {
    /// The verifier: 43 to 128 characters of the unreserved set
    /// (`A-Z a-z 0-9 - . _ ~`). Secret: never logged.
    public let verifier: String
    /// `BASE64URL(SHA256(ASCII(verifier)))`, without padding.
    public let challenge: String
    /// Always `S256`.
    public let method = "S256"

    /// The characters RFC 7636 section 4.1 allows in a verifier.
    static let unreserved = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// A new verifier of `length` characters (43 to 128; default 64) drawn
    /// from the system's secure random source, and its challenge.
    public init(length: Int = 64) {
        precondition((43...128).contains(length), "RFC 7636: a code verifier has 43 to 128 characters")
        self.init(uncheckedVerifier: Self.randomString(length: length))
    }

    /// The pair for an existing verifier; nil when it breaks RFC 7636's
    /// rules (length, characters).
    public init?(verifier: String) {
        guard (43...128).contains(verifier.count), verifier.allSatisfy(Self.unreserved.contains) else { return nil }
        self.init(uncheckedVerifier: verifier)
    }

    private init(uncheckedVerifier verifier: String) {
        self.verifier = verifier
        challenge = Self.challenge(for: verifier)
    }

    /// The S256 challenge of `verifier`.
    public static func challenge(for verifier: String) -> String {
        base64URL(Data(SHA256.hash(Data(verifier.utf8))))
    }

    /// `length` characters of the unreserved set, uniformly drawn from the
    /// system's cryptographically secure generator.
    static func randomString(length: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return String((0..<length).map { _ in unreserved[Int.random(in: 0..<unreserved.count, using: &generator)] })
    }

    /// Base64 with the URL-safe alphabet and no padding (RFC 4648 section 5).
    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

}

extension PKCE: CustomStringConvertible, CustomDebugStringConvertible {
    /// `PKCE(S256, challenge: ...)`: the verifier is secret and stays out.
    public var description: String { "PKCE(S256, challenge: \(challenge))" }

    /// As ``description``: without the verifier.
    public var debugDescription: String { description }
}
