import BackendDoubles
import Foundation
import Testing

@Suite struct SoulExampleTests {
    @Test func signInMoodsAndSignOutAcrossRuns() throws {
        let backend = try SoulBackend()
        let state = try makeStateFolder()
        defer { try? FileManager.default.removeItem(at: state) }
        let common = ["--base-url", backend.baseURL.absoluteString, "--state", state.path]

        let login = try ExampleRun.run("soul-example", common + ["--staging", "login", "+14155550123", "123456"])
        #expect(login.status == 0, "\(login.stderr)")
        #expect(login.objects.count == 2)
        #expect(login.objects.first?["event"] as? String == "code_sent" && login.objects.first?["phone"] as? String == "+*******0123")
        #expect(login.objects.first?["preview_code"] as? String == "123456", "staging shows the preview code")
        #expect(login.objects.last?["event"] as? String == "signed_in" && login.objects.last?["user_id"] as? Int == 1)
        #expect(!login.stdout.joined().contains("4155550123"), "the number is masked")

        let added = try ExampleRun.run("soul-example", common + ["add-mood", "7", "Slept well"])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.objects.first?["score"] as? Int == 7 && added.objects.first?["note"] as? String == "Slept well")
        let moods = try ExampleRun.run("soul-example", common + ["moods"])
        #expect(moods.status == 0 && moods.objects.count == 1)
        #expect(backend.counters.refreshCalls == 2, "each later run restores the session with one refresh")

        let logout = try ExampleRun.run("soul-example", common + ["logout"])
        #expect(logout.status == 0 && logout.objects.first?["event"] as? String == "signed_out")
        let after = try ExampleRun.run("soul-example", common + ["moods"])
        #expect(after.status == 1 && after.stdout.isEmpty)
        #expect(after.stderr == "error: notSignedIn: not signed in\n")
    }

    @Test func failuresAreOneTypedLineOnStderr() throws {
        let backend = try SoulBackend()
        let state = try makeStateFolder()
        defer { try? FileManager.default.removeItem(at: state) }
        let common = ["--base-url", backend.baseURL.absoluteString, "--state", state.path]
        let badPhone = try ExampleRun.run("soul-example", common + ["login", "+1 415 555 0123", "123456"])
        #expect(badPhone.status == 1 && badPhone.stdout.isEmpty)
        #expect(badPhone.stderr.hasPrefix("error: invalidPhoneNumber: ") && badPhone.stderr.split(separator: "\n").count == 1)
        #expect(backend.server.requests.isEmpty)

        let wrongCode = try ExampleRun.run("soul-example", common + ["login", "+14155550123", "000000"])
        #expect(wrongCode.status == 1)
        #expect(wrongCode.stderr == "error: invalidInput: rejected by the server: Invalid OTP\n")
        #expect(wrongCode.objects.first?["preview_code"] == nil, "no preview code outside staging")

        backend.server.shutdown()
        let offline = try ExampleRun.run("soul-example", common + ["moods"])
        #expect(offline.status == 1 && offline.stderr == "error: notSignedIn: not signed in\n")
        let offlineLogin = try ExampleRun.run("soul-example", common + ["login", "+14155550123", "123456"])
        #expect(offlineLogin.status == 1)
        #expect(offlineLogin.stderr == "error: offline: the server could not be reached (offline?)\n", "one line, no log noise")
        let verbose = try ExampleRun.run("soul-example", common + ["--verbose", "login", "+14155550123", "123456"])
        #expect(verbose.stderr.contains("POST http://127.0.0.1") && !verbose.stderr.contains("+14155550123"), "--verbose logs, masked")

        let insecure = try ExampleRun.run("soul-example", ["--base-url", "http://api.soulapp.app", "--state", state.path, "moods"])
        #expect(insecure.status == 1 && insecure.stderr.hasPrefix("error: insecureBaseURL"))
    }
}
