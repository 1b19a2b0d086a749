import BackendDoubles
import Foundation
import Resilience
import SDKCore
import Soul
import Testing

@Suite struct SoulSecretsTests {
    /// Sign-in, a wrong code, a rate limit, a refresh, an expiry and offline,
    /// logged at trace level: no phone number, code or token in any log line
    /// or error text.
    @Test func plantedSecretsNeverReachLogsOrErrors() async throws {
        var settings = SoulBackend.Settings()
        settings.isStaging = false
        settings.smsCode = "480753"
        settings.codeRequestsPerNumber = 1
        let harness = try SoulHarness(settings: settings)
        let phone = "+14155550123"
        let soul = try harness.makeSoul(isStaging: false)
        var errors: [SoulError] = []
        func record(_ error: SoulError?) { if let error { errors.append(error) } }

        _ = try await soul.signIn.requestCode(phone: phone)
        record(await soulError { try await soul.signIn.verify(code: "999999") })
        try await soul.signIn.verify(code: "480753")
        _ = try await soul.addMood(score: 8, note: "call me on \(phone)")
        harness.backend.expireAccessTokens()
        _ = try await soul.listMoods()
        harness.clock.advance(by: 60)
        record(await soulError { try await soul.signIn.requestCode(phone: phone) })  // 429
        record(await soulError { try await soul.signIn.requestCode(phone: "+1 415 555 0123") })
        harness.backend.fault.withLock { $0 = { request in
            request.path == "/api/moods" ? .json(400, #"{"detail":"Invalid phone number +14155550123"}"#) : nil
        } }
        record(await soulError { try await soul.listMoods() })
        harness.backend.fault.withLock { $0 = nil }
        try FileTokenStore(url: harness.tokenFile).clear()
        harness.backend.expireAccessTokens()
        record(await soulError { try await soul.listMoods() })
        harness.backend.server.shutdown()
        record(await soulError { try await soul.checkHealth() })

        let secrets = harness.backend.secrets + [phone, "4155550123", "480753", "999999"]
        #expect(secrets.count >= 7, "tokens, codes and the number were planted")
        #expect(harness.log.all.count > 20, "the scenario was logged")
        #expect(harness.log.all.contains { $0.contains(#"response body: {"detail": string(33)}"#) }, "an error body is logged as its shape: \(harness.log.all.filter { $0.contains("body") })")
        #expect(harness.log.leaks(of: secrets).isEmpty, "\(harness.log.leaks(of: secrets))")
        #expect(errors.count == 6)
        let texts = errors.flatMap { [$0.description, $0.userMessage, String(reflecting: $0)] }
        for secret in secrets { #expect(!texts.contains { $0.contains(secret) }, "an error text holds \(secret.prefix(3))...") }
        // The check itself finds a secret when one is there.
        harness.log.logger().info("leaked \(phone)")
        #expect(harness.log.leaks(of: [phone]).count == 1)
        try? FileManager.default.removeItem(at: harness.folder)
    }

    @Test func aHostWithoutPinsIsWarnedAbout() throws {
        let harness = try SoulHarness()
        defer { harness.cleanUp() }
        _ = try harness.makeSoul(baseURL: URL(string: "https://api.soulapp.app")!)
        #expect(ConnectionConfiguration.hasWarnedUnpinned(sdk: "Soul"))
    }
}
