import Foundation

/// Who a credential belongs to, for partitioning a ``ResponseCache``: the
/// SDKs name the subject at sign-in from what the server says (a user id,
/// a JWT's `sub`).
package enum CredentialSubject {
    /// The `sub` claim of a JWT (read, not verified: it only names a cache
    /// partition; the server checks the token). Nil when `token` is not a
    /// JWT or has no `sub`.
    package static func jwtSubject(_ token: String) -> String? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        var base64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64),
              let claims = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        else { return nil }
        if let subject = claims["sub"] as? String, !subject.isEmpty { return subject }
        if let subject = claims["sub"] as? Int { return String(subject) }
        return nil
    }

    /// A subject for a sign-in whose tokens name nobody: unique to this
    /// sign-in, so the cache starts empty and no other sign-in reads it.
    package static func uniqueToThisSignIn() -> String {
        "sign-in:" + UUID().uuidString.lowercased()
    }
}
