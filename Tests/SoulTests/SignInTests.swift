import BackendDoubles
import Foundation
import Resilience
import Soul
import Testing

@Suite struct SignInTests {
    @Test func stagingSignInSurfacesThePreviewCodeAndStartsTheSession() async throws {
        let harness = try SoulHarness()
        defer { harness.cleanUp() }
        let soul = try harness.makeSoul()
        let request = try await soul.signIn.requestCode(phone: "+14155550123")
        #expect(request.previewCode == "123456")
        #expect(request.phone.description == "+*******0123")
        let user = try await soul.signIn.verify(code: "123456")
        #expect(user.id == 1)
        #expect(try await soul.listMoods().value.isEmpty)
        let mood = try #require(try await soul.addMood(score: 7, note: "Slept well").sent)
        #expect(mood.score == 7)
        #expect(try await soul.listMoods().value.map(\.id) == [mood.id])
        // The refresh token is in the 0600 store; the access token is in memory only.
        let stored = try String(contentsOf: harness.tokenFile, encoding: .utf8)
        let issued = harness.backend.issuedTokens
        #expect(stored.contains(issued[1]) && !stored.contains(issued[0]))
        let mode = try FileManager.default.attributesOfItem(atPath: harness.tokenFile.path)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)
    }

    @Test func productionNeverShowsAPreviewCode() async throws {
        var settings = SoulBackend.Settings()
        settings.isStaging = true  // a misconfigured server that still previews
        let harness = try SoulHarness(settings: settings)
        defer { harness.cleanUp() }
        let soul = try harness.makeSoul(isStaging: false)
        let request = try await soul.signIn.requestCode(phone: "+14155550123")
        #expect(request.previewCode == nil, "the preview code is a staging-only aid")
        try await soul.signIn.verify(code: try #require(harness.backend.code(sentTo: "+14155550123")))
        #expect(await soul.hasStoredSession())
    }

    @Test(arguments: [
        ("", E164PhoneNumber.Problem.empty),
        ("14155550123", .missingPlus),
        ("+1 415 555 0123", .invalidCharacter(position: 3)),
        ("+1-4155550123", .invalidCharacter(position: 3)),
        ("+04155550123", .countryCodeStartsWithZero),
        ("+1", .tooShort(digits: 1)),
        ("+1234567890123456", .tooLong(digits: 16)),
        ("+١٤١٥٥٥٥٠١٢٣", .invalidCharacter(position: 2)),
    ])
    func invalidNumbersAreRefusedBeforeSending(phone: String, problem: E164PhoneNumber.Problem) async throws {
        let harness = try SoulHarness()
        defer { harness.cleanUp() }
        let soul = try harness.makeSoul()
        let error = await soulError { try await soul.signIn.requestCode(phone: phone) }
        #expect(error == .invalidPhoneNumber(problem))
        #expect(harness.backend.server.requests.isEmpty, "nothing sent, nothing corrected")
        let description = error.map(String.init(describing:)) ?? ""
        if phone.count > 6 { #expect(!description.contains(phone.suffix(6)), "the number is not echoed") }
    }

    @Test func aResendIsRefusedUntilTheCooldownEnds() async throws {
        let harness = try SoulHarness()
        defer { harness.cleanUp() }
        let soul = try harness.makeSoul()
        _ = try await soul.signIn.requestCode(phone: "+14155550123")
        #expect(await soul.signIn.secondsUntilResend(phone: "+14155550123") == 30)
        harness.clock.advance(by: 10.5)
        #expect(await soul.signIn.secondsUntilResend(phone: "+14155550123") == 20)
        let early = await soulError { try await soul.signIn.requestCode(phone: "+14155550123") }
        #expect(early == .resendTooSoon(remaining: .milliseconds(19_500)))
        #expect(harness.backend.counters.codeRequests["+14155550123"] == 1, "the refused resend was not sent")
        #expect(await soul.signIn.secondsUntilResend(phone: "+61412345678") == 0, "another number has no cooldown")
        harness.clock.advance(by: 20)
        _ = try await soul.signIn.requestCode(phone: "+14155550123")
        #expect(harness.backend.counters.codeRequests["+14155550123"] == 2)
    }

    @Test func a429StartsACooldownOfItsRetryAfterOrTheDefault() async throws {
        var settings = SoulBackend.Settings()
        settings.codeRequestsPerNumber = 0
        settings.rateLimitRetryAfter = 90
        let harness = try SoulHarness(settings: settings)
        defer { harness.cleanUp() }
        let soul = try harness.makeSoul()
        let limited = await soulError { try await soul.signIn.requestCode(phone: "+14155550123") }
        #expect(limited == .rateLimited(retryAfter: .seconds(90)))
        #expect(limited?.userMessage == "Too many attempts. Please try again in 90 seconds.")
        #expect(await soul.signIn.secondsUntilResend(phone: "+14155550123") == 90)
        #expect(harness.backend.counters.codeRequests["+14155550123"] == 1, "a 429 on an OTP post is not retried")

        harness.backend.update { $0.rateLimitRetryAfter = nil }
        let other = await soulError { try await soul.signIn.requestCode(phone: "+61412345678") }
        #expect(other == .rateLimited(retryAfter: .seconds(60)), "no Retry-After: the local default")
        #expect(await soul.signIn.secondsUntilResend(phone: "+61412345678") == 60)
    }

    @Test func otpPostsAreSentOnceWhateverFails() async throws {
        let harness = try SoulHarness(keepAlive: false)
        defer { harness.cleanUp() }
        harness.backend.fault.withLock { $0 = { request in request.path.hasPrefix("/api/auth/") ? .respond(status: 503) : nil } }
        let soul = try harness.makeSoul()
        #expect(await soulError { try await soul.signIn.requestCode(phone: "+14155550123") } == .server(status: 503, detail: nil))
        harness.backend.fault.withLock { $0 = nil }
        harness.clock.advance(by: 31)
        _ = try await soul.signIn.requestCode(phone: "+14155550123")
        harness.backend.fault.withLock { $0 = { _ in .dropConnection } }
        #expect(await soulError { try await soul.signIn.verify(code: "123456") } == .offline)
        let paths = harness.backend.server.requests.map(\.path)
        #expect(paths == ["/api/auth/otp/request", "/api/auth/otp/request", "/api/auth/verify-otp"], "one attempt each")
    }

    @Test func wrongCodesAreInputErrors() async throws {
        let harness = try SoulHarness()
        defer { harness.cleanUp() }
        let soul = try harness.makeSoul()
        #expect(await soulError { try await soul.signIn.verify(code: "123456") } == .noCodeRequested)
        _ = try await soul.signIn.requestCode(phone: "+14155550123")
        #expect(await soulError { try await soul.signIn.verify(code: "12 456") } == .invalidCodeFormat)
        let wrong = await soulError { try await soul.signIn.verify(code: "654321") }
        #expect(wrong == .invalidCode(detail: "Invalid OTP"))
        #expect(wrong?.userMessage == "That code isn't right. Check the SMS and enter the 6 digits again.")
        try await soul.signIn.verify(code: "123456")
    }

    @Test(arguments: [
        // (step, 400 body, expected kind): the operation decides first, the body refines.
        ("request", #"{"detail":"Invalid phone number"}"#, "phoneNumberRejected"),
        ("request", #"{"detail":"Number not supported in this region"}"#, "phoneNumberRejected"),
        ("verify", #"{"detail":"Invalid OTP"}"#, "invalidCode"),
        ("verify", #"{"detail":"phone and otp required"}"#, "invalidCode"),
        ("verify", #"{"detail":"Invalid phone number"}"#, "phoneNumberRejected"),
        ("verify", #"{"detail":"OTP expired, request a new one"}"#, "codeExpired"),
        ("verify", #"{"detail":"Invalid OTP","code":"otp_expired"}"#, "codeExpired"),
        ("verify", #"{"detail":"Something about the phone","code":"invalid_otp"}"#, "invalidCode"),
        ("verify", #"{"detail":"Code expired"}"#, "codeExpired"),
    ])
    func aSignIn400IsTypedByStepAndBody(step: String, body: String, expected: String) async throws {
        let harness = try SoulHarness()
        defer { harness.cleanUp() }
        let soul = try harness.makeSoul()
        if step == "verify" { _ = try await soul.signIn.requestCode(phone: "+14155550123") }
        let path = step == "verify" ? "/api/auth/verify-otp" : "/api/auth/otp/request"
        harness.backend.fault.withLock { $0 = { request in request.path == path ? .json(400, body) : nil } }
        let error = step == "verify"
            ? await soulError { try await soul.signIn.verify(code: "123456") }
            : await soulError { try await soul.signIn.requestCode(phone: "+14155550123") }
        #expect(error?.kind == expected, "\(step) \(body): \(String(describing: error))")
        #expect(error?.userMessage.isEmpty == false && error?.userMessage.contains("OTP") == false, "a message of the SDK's own, not the server's text")
    }

    @Test func theServersTextIsKeptForLogsMasked() async throws {
        let harness = try SoulHarness()
        defer { harness.cleanUp() }
        let soul = try harness.makeSoul()
        harness.backend.fault.withLock {
            $0 = { request in request.path == "/api/auth/otp/request" ? .json(400, #"{"detail":"Invalid phone number +14155550123"}"#) : nil }
        }
        let error = await soulError { try await soul.signIn.requestCode(phone: "+14155550123") }
        guard case .phoneNumberRejected(let detail)? = error else {
            Issue.record("expected phoneNumberRejected: \(String(describing: error))")
            return
        }
        #expect(detail.hasPrefix("Invalid phone number") && !detail.contains("4155550123"), "masked: \(detail)")
    }
}
