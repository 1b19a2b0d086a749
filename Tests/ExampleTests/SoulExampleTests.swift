import BackendDoubles
import Foundation
import Testing

@Suite struct SoulExampleTests {
    @Test func signInMoodsAndSignOutAcrossRuns() async throws {
        let backend = try SoulBackend()
        let state = try makeStateFolder()
        defer { try? FileManager.default.removeItem(at: state) }
        let common = ["--base-url", backend.baseURL.absoluteString, "--state", state.path]

        let login = try await ExampleRun.run("soul-example", common + ["--staging", "login", "+14155550123", "123456"])
        #expect(login.status == 0, "\(login.stderr)")
        #expect(login.objects.count == 2)
        #expect(login.objects.first?["event"] as? String == "code_sent" && login.objects.first?["phone"] as? String == "+*******0123")
        #expect(login.objects.first?["preview_code"] as? String == "123456", "staging shows the preview code")
        #expect(login.objects.last?["event"] as? String == "signed_in" && login.objects.last?["user_id"] as? Int == 1)
        #expect(!login.stdout.joined().contains("4155550123"), "the number is masked")

        let added = try await ExampleRun.run("soul-example", common + ["add-mood", "7", "Slept well"])
        #expect(added.status == 0, "\(added.stderr)")
        let mood = added.objects.first?["mood"] as? [String: Any]
        #expect(added.objects.first?["queued"] as? Bool == false && mood?["score"] as? Int == 7 && mood?["note"] as? String == "Slept well")
        let moods = try await ExampleRun.run("soul-example", common + ["moods"])
        #expect(moods.status == 0 && (moods.objects.first?["moods"] as? [Any])?.count == 1)
        #expect(moods.objects.first?["source"] as? String == "network")
        #expect(backend.counters.refreshCalls == 2, "each later run restores the session with one refresh")

        let logout = try await ExampleRun.run("soul-example", common + ["logout"])
        #expect(logout.status == 0 && logout.objects.first?["event"] as? String == "signed_out")
        let after = try await ExampleRun.run("soul-example", common + ["moods"])
        #expect(after.status == 1 && after.stdout.isEmpty)
        #expect(after.stderr == "error: notSignedIn: not signed in\n")
    }

    /// A silent wait for the hour would overrun the test's ten-minute limit.
    @Test(.timeLimit(.minutes(10))) func aRateLimitPrintsItsCountdownAtOnce() async throws {
        var settings = SoulBackend.Settings()
        settings.codeRequestsPerNumber = 0
        settings.rateLimitRetryAfter = 3600
        let backend = try SoulBackend(settings: settings)
        let state = try makeStateFolder()
        defer { try? FileManager.default.removeItem(at: state) }
        let limited = try await ExampleRun.run("soul-example", ["--base-url", backend.baseURL.absoluteString, "--state", state.path, "login", "+14155550123", "123456"])
        #expect(limited.status == 1)
        #expect(limited.objects.first?["event"] as? String == "rate_limited" && limited.objects.first?["retry_after_seconds"] as? Int == 3600)
        #expect(limited.stderr.hasPrefix("error: rateLimited: "))
    }

    @Test func failuresAreOneTypedLineOnStderr() async throws {
        let backend = try SoulBackend()
        let state = try makeStateFolder()
        defer { try? FileManager.default.removeItem(at: state) }
        let common = ["--base-url", backend.baseURL.absoluteString, "--state", state.path]
        let badPhone = try await ExampleRun.run("soul-example", common + ["login", "+1 415 555 0123", "123456"])
        #expect(badPhone.status == 1 && badPhone.stdout.isEmpty)
        #expect(badPhone.stderr.hasPrefix("error: invalidPhoneNumber: ") && badPhone.stderr.split(separator: "\n").count == 1)
        #expect(backend.server.requests.isEmpty)

        let wrongCode = try await ExampleRun.run("soul-example", common + ["login", "+14155550123", "000000"])
        #expect(wrongCode.status == 1)
        #expect(wrongCode.stderr == "error: invalidCode: the server rejected the code: Invalid OTP\n")
        #expect(wrongCode.objects.first?["preview_code"] == nil, "no preview code outside staging")

        backend.server.shutdown()
        let offline = try await ExampleRun.run("soul-example", common + ["moods"])
        #expect(offline.status == 1 && offline.stderr == "error: notSignedIn: not signed in\n")
        let again = try await ExampleRun.run("soul-example", common + ["login", "+14155550123", "123456"])
        #expect(again.stderr.hasPrefix("error: resendTooSoon: "), "the cooldown of the code sent in the previous run still runs")
        // The server is down: its connection refused, which is not the device being offline.
        let unreachableLogin = try await ExampleRun.run("soul-example", common + ["login", "+14155550177", "123456"])
        #expect(unreachableLogin.status == 1)
        #expect(unreachableLogin.stderr == "error: unreachable: the server refused the connection or its host was not found (is the base URL right?)\n", "one line, no log noise")
        let verbose = try await ExampleRun.run("soul-example", common + ["--verbose", "login", "+14155550188", "123456"])
        #expect(verbose.stderr.contains("POST http://127.0.0.1") && !verbose.stderr.contains("+14155550188"), "--verbose logs, masked")
        #expect(!verbose.stderr.contains("request body:"), "--verbose is debug: no bodies")
        let traced = try await ExampleRun.run("soul-example", common + ["--log-level", "trace", "login", "+14155550188", "123456"])
        #expect(traced.stderr.contains(#"request body: {"phone": ***}"#), "at trace a body is logged as its shape: \(traced.stderr)")
        #expect(!traced.stderr.contains("+14155550188") && !traced.stderr.contains("0188"), "\(traced.stderr)")
        let quiet = try await ExampleRun.run("soul-example", common + ["--log-level", "error", "login", "+14155550188", "123456"])
        #expect(quiet.stderr == "error: unreachable: the server refused the connection or its host was not found (is the base URL right?)\n", "nothing below error: \(quiet.stderr)")
        let unknownLevel = try await ExampleRun.run("soul-example", common + ["--log-level", "loud", "moods"])
        #expect(unknownLevel.status != 0 && unknownLevel.stderr.contains("- trace"), "the level names are offered: \(unknownLevel.stderr)")

        let insecure = try await ExampleRun.run("soul-example", ["--base-url", "http://api.soulapp.app", "--state", state.path, "moods"])
        #expect(insecure.status == 1 && insecure.stderr.hasPrefix("error: insecureBaseURL"))
    }

    @Test func offlineMoodsComeFromTheCacheAndAMoodIsQueuedAndSentOnce() async throws {
        let backend = try SoulBackend()
        let state = try makeStateFolder()
        defer { try? FileManager.default.removeItem(at: state) }
        let common = ["--base-url", backend.baseURL.absoluteString, "--state", state.path]
        // The two-step sign-in, in two processes.
        let requested = try await ExampleRun.run("soul-example", common + ["--staging", "request-code", "+14155550123"])
        #expect(requested.status == 0 && requested.objects.first?["event"] as? String == "code_sent", "\(requested.stderr)")
        let verified = try await ExampleRun.run("soul-example", common + ["verify", "123456"])
        #expect(verified.status == 0 && verified.objects.first?["event"] as? String == "signed_in", "\(verified.stderr)")
        let online = try await ExampleRun.run("soul-example", common + ["moods"])
        #expect(online.objects.first?["source"] as? String == "network")

        // The server stops: the mood list is the cached one, the new mood is queued.
        let down = backend.server.port
        backend.server.shutdown()
        let cached = try await ExampleRun.run("soul-example", common + ["moods"])
        #expect(cached.status == 0 && cached.objects.count == 1, "\(cached.stderr)")
        #expect(cached.objects.first?["source"] as? String == "cache" && cached.objects.first?["age_seconds"] is Int)
        let queued = try await ExampleRun.run("soul-example", common + ["add-mood", "7", "on the train"])
        #expect(queued.status == 0 && queued.objects.first?["queued"] as? Bool == true, "\(queued.stderr)")
        let pending = try await ExampleRun.run("soul-example", common + ["pending"])
        #expect(pending.objects.count == 1 && pending.objects.first?["state"] as? String == "waiting")

        // Back on the same port: the next command sends the mood first, once.
        let back = try SoulBackend(behaviour: backend.behaviour, port: down)
        let after = try await ExampleRun.run("soul-example", ["--base-url", back.baseURL.absoluteString, "--state", state.path, "moods"])
        #expect(after.status == 0, "\(after.stderr)")
        #expect((after.objects.first?["moods"] as? [[String: Any]])?.map { $0["note"] as? String } == ["on the train"])
        #expect(back.counters.moodsCreated == 1)
        let none = try await ExampleRun.run("soul-example", ["--base-url", back.baseURL.absoluteString, "--state", state.path, "pending"])
        #expect(none.status == 0 && none.objects.isEmpty)
    }
}
