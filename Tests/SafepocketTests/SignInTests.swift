import BackendDoubles
import Foundation
import Resilience
import Safepocket
import SafepocketAPI
import Testing

@Suite struct SafepocketSignInTests {
    @Test func pkceSignInStartsTheSession() async throws {
        let harness = try SafepocketHarness()
        defer { harness.cleanUp() }
        let safepocket = try harness.makeSafepocket()
        let url = try await safepocket.startSignIn()
        #expect(FileManager.default.fileExists(atPath: harness.pendingFile.path), "verifier and state wait in a 0600 file")
        let mode = try FileManager.default.attributesOfItem(atPath: harness.pendingFile.path)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)
        let redirect = try #require(harness.backend.authorize(url))
        try await safepocket.completeSignIn(redirect: redirect)
        #expect(harness.backend.counters.codeExchanges == 1)
        #expect(!FileManager.default.fileExists(atPath: harness.pendingFile.path), "the verifier is gone once used")
        let accounts = try await safepocket.accounts()
        #expect(!accounts.value.accounts.isEmpty)
        let stored = try String(contentsOf: harness.tokenFile, encoding: .utf8)
        #expect(stored.contains(harness.backend.issuedTokens[1]) && !stored.contains(harness.backend.issuedTokens[0]),
                "refresh token stored, access token in memory only")
    }

    @Test func aRedirectWithAnotherStateIsRefusedAndNothingIsExchanged() async throws {
        let harness = try SafepocketHarness()
        defer { harness.cleanUp() }
        let safepocket = try harness.makeSafepocket()
        let redirect = try #require(harness.backend.authorize(try await safepocket.startSignIn()))
        var forged = try #require(URLComponents(url: redirect, resolvingAgainstBaseURL: false))
        forged.queryItems = forged.queryItems?.map { $0.name == "state" ? URLQueryItem(name: "state", value: "forged") : $0 }
        #expect(await safepocketError { try await safepocket.completeSignIn(redirect: forged.url!) } == .stateMismatch)
        #expect(harness.backend.counters.codeExchanges == 0)
        // The genuine redirect still completes.
        try await safepocket.completeSignIn(redirect: redirect)
        #expect(await safepocket.hasStoredSession())
    }

    @Test func redirectsWithoutASignInOrWithAnErrorAreTyped() async throws {
        let harness = try SafepocketHarness()
        defer { harness.cleanUp() }
        let safepocket = try harness.makeSafepocket()
        let callback = URL(string: "safepocket://auth/callback?code=abc&state=s")!
        #expect(await safepocketError { try await safepocket.completeSignIn(redirect: callback) } == .noSignInInProgress)
        _ = try await safepocket.startSignIn()
        let denied = URL(string: "safepocket://auth/callback?error=access_denied&state=s")!
        #expect(await safepocketError { try await safepocket.completeSignIn(redirect: denied) } == .authorizationFailed(error: "access_denied"))
        let noCode = URL(string: "safepocket://auth/callback?state=s")!
        #expect(await safepocketError { try await safepocket.completeSignIn(redirect: noCode) } == .missingAuthorizationCode)
    }

    @Test func aWrongVerifierIsRefusedByTheServer() async throws {
        let harness = try SafepocketHarness()
        defer { harness.cleanUp() }
        let first = try harness.makeSafepocket()
        let firstURL = try await first.startSignIn()
        // A second sign-in replaces the verifier; the first redirect's code was bound to the first challenge.
        let second = try harness.makeSafepocket()
        let secondURL = try await second.startSignIn()
        let staleRedirect = try #require(harness.backend.authorize(firstURL))
        let state = URLComponents(url: secondURL, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "state" }?.value ?? ""
        let code = URLComponents(url: staleRedirect, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "code" }?.value ?? ""
        let error = await safepocketError { try await second.completeSignIn(code: code, state: state) }
        guard case .api(let failure)? = error else {
            Issue.record("expected an API error, got \(String(describing: error))")
            return
        }
        #expect(failure.status == 400 && failure.code == .invalidRequest && failure.message == "PKCE verification failed")
        #expect(failure.traceID == "trace-400-invalid_request")
    }

    @Test func aSignInStartedBeforeARelaunchCompletesAfterIt() async throws {
        let harness = try SafepocketHarness()
        defer { harness.cleanUp() }
        let url = try await harness.makeSafepocket().startSignIn()
        let relaunched = try harness.makeSafepocket()
        try await relaunched.completeSignIn(redirect: try #require(harness.backend.authorize(url)))
        #expect(try await relaunched.transactions(month: "2024-06").value.transactions.isEmpty == false)
    }
}
