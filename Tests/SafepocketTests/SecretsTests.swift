import BackendDoubles
import Foundation
import Resilience
import Safepocket
import SafepocketAPI
import Testing

@Suite struct SafepocketSecretsTests {
    /// Sign-in, a forged redirect, a refresh, envelope errors and an expiry,
    /// logged at trace level: no token, code or verifier in any log line or
    /// error text.
    @Test func plantedSecretsNeverReachLogsOrErrors() async throws {
        let harness = try SafepocketHarness()
        let safepocket = try harness.makeSafepocket()
        var errors: [SafepocketError] = []
        func record(_ error: SafepocketError?) { if let error { errors.append(error) } }

        let url = try await safepocket.startSignIn()
        let redirect = try #require(harness.backend.authorize(url))
        record(await safepocketError { try await safepocket.completeSignIn(code: "stolen-code", state: "forged") })
        try await safepocket.completeSignIn(redirect: redirect)
        harness.backend.expireAccessTokens()
        _ = try await safepocket.accounts()
        let tokens = harness.backend.issuedTokens
        harness.backend.fault.withLock { $0 = { request in
            request.path == "/transactions" ? .json(400, #"{"error":{"code":"INVALID_REQUEST","message":"bad token \#(tokens[2])"},"traceId":"t"}"#) : nil
        } }
        record(await safepocketError { try await safepocket.transactions(month: "2024-06") })
        harness.backend.fault.withLock { $0 = nil }
        try FileTokenStore(url: harness.tokenFile).clear()
        harness.backend.expireAccessTokens()
        record(await safepocketError { try await safepocket.accounts() })

        let secrets = harness.backend.secrets + ["stolen-code"]
        #expect(secrets.count >= 7, "tokens, the code and the verifier were planted")
        #expect(harness.log.all.count > 10, "the scenario was logged")
        #expect(harness.log.leaks(of: secrets).isEmpty, "\(harness.log.leaks(of: secrets))")
        #expect(errors.count == 3)
        let texts = errors.flatMap { [$0.description, String(reflecting: $0)] }
        for secret in secrets { #expect(!texts.contains { $0.contains(secret) }, "an error text holds \(secret.prefix(3))...") }
        try? FileManager.default.removeItem(at: harness.folder)
    }

    /// At trace, the finance API's bodies are logged as their shape: no
    /// account name, institution, balance, merchant, amount or category
    /// (as a value, or as a key of the totals by category). The
    /// `traceId` the spec marks loggable is there, to quote to support.
    @Test func theFinanceAPIAtTraceLogsShapesNotBalancesOrMerchants() async throws {
        let harness = try SafepocketHarness()
        defer { harness.cleanUp() }
        let safepocket = try await harness.signedIn()
        let accounts = try await safepocket.accounts().value
        let transactions = try await safepocket.transactions(month: "2024-06").value
        #expect(!accounts.accounts.isEmpty && !transactions.transactions.isEmpty, "there is something to leak")
        var values = accounts.accounts.flatMap { [$0.name, $0.institution, "\($0.balance)"] }
        // A category is a value, and also a key of the list's `categoryTotals` (a map): neither shows.
        values += transactions.transactions.flatMap { [$0.merchantName, "\($0.amount)", $0.category] }
        let log = harness.log.all
        #expect(log.contains { $0.contains("response body: {") }, "the bodies were logged: \(log)")
        for value in Set(values) where value.count >= 3 {
            #expect(!log.contains { $0.contains(value) }, "\(value) is in the log: \(log.filter { $0.contains(value) })")
        }
        let traceID = try #require(accounts.traceID)
        #expect(log.contains { $0.contains(#""traceId": "\#(traceID)""#) }, "the trace id is logged: \(log)")
    }
}
