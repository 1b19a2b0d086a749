import BackendDoubles
import Foundation
import Safepocket
import Testing

@Suite struct PKCETests {
    @Test func theChallengeMatchesRFC7636AppendixB() throws {
        let pkce = try #require(PKCE(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"))
        #expect(pkce.challenge == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
        #expect(pkce.method == "S256")
        #expect(!pkce.description.contains(pkce.verifier), "the verifier stays out of descriptions")
    }

    @Test func newVerifiersFollowTheRFCAndDoNotRepeat() throws {
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        var seen = Set<String>()
        for _ in 0..<1_000 {
            let pkce = PKCE()
            #expect(pkce.verifier.count == 64 && pkce.verifier.allSatisfy(allowed.contains))
            #expect(pkce.challenge == SafepocketBackend.challenge(for: pkce.verifier))
            seen.insert(pkce.verifier)
        }
        #expect(seen.count == 1_000)
        #expect(PKCE(length: 43).verifier.count == 43 && PKCE(length: 128).verifier.count == 128)
        #expect(PKCE(verifier: String(repeating: "a", count: 42)) == nil, "too short")
        #expect(PKCE(verifier: String(repeating: "a", count: 42) + "+") == nil, "'+' is not unreserved")
    }

    @Test func theAuthorizationURLCarriesEverythingTheServerChecks() throws {
        let pkce = PKCE()
        let url = SafepocketHarness.authorization.authorizationURL(state: "s-1", pkce: pkce)
        let items = Dictionary(uniqueKeysWithValues: (URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []).map { ($0.name, $0.value ?? "") })
        #expect(url.absoluteString.hasPrefix("https://auth.safepocket.example/oauth2/authorize?"))
        #expect(items == [
            "response_type": "code", "client_id": "ios-client", "redirect_uri": "safepocket://auth/callback", "scope": "openid email profile",
            "state": "s-1", "code_challenge": pkce.challenge, "code_challenge_method": "S256",
        ])
        #expect(url.absoluteString.contains("scope=openid%20email%20profile"))
        #expect(!url.absoluteString.contains(pkce.verifier), "the verifier never leaves the app before the exchange")
    }
}
