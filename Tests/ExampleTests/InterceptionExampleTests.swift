import BackendDoubles
import Foundation
import ProcessTestSupport
import Testing

/// Each sample app, pointed at a TLS server whose certificate the system
/// does not trust (an interception on the network), exits with the
/// security error: not "offline", nothing served from its cache, nothing
/// queued.
@Suite struct InterceptionExampleTests {
    static let refused = "the secure connection could not be verified (127.0.0.1: the system does not trust its certificate, or the TLS handshake failed)"

    @Test func soulExample() async throws {
        let backend = try SoulBackend()
        let tls = try UntrustedTLSServer()
        defer { tls.stop() }
        let state = try makeStateFolder()
        defer { try? FileManager.default.removeItem(at: state) }
        let login = try await ExampleRun.run("soul-example", ["--base-url", backend.baseURL.absoluteString, "--state", state.path, "--staging", "login", "+14155550123", "123456"])
        #expect(login.status == 0, "\(login.stderr)")
        let intercepted = ["--base-url", tls.url.absoluteString, "--state", state.path]
        let moods = try await ExampleRun.run("soul-example", intercepted + ["moods"])
        #expect(moods.status == 1 && moods.stdout.isEmpty, "nothing served from the cache")
        #expect(moods.stderr == "error: connectionNotVerified: \(Self.refused)\n")
        let added = try await ExampleRun.run("soul-example", intercepted + ["add-mood", "6", "on a café's wifi"])
        #expect(added.status == 1 && added.stderr.hasPrefix("error: connectionNotVerified: "), "\(added.stderr)")
        let pending = try await ExampleRun.run("soul-example", intercepted + ["pending"])
        #expect(pending.status == 0 && pending.stdout.isEmpty, "not queued: \(pending.stdout)")
        #expect(backend.counters.moodsCreated == 0)
    }

    @Test func safepocketExample() async throws {
        let backend = try SafepocketBackend()
        let tls = try UntrustedTLSServer()
        defer { tls.stop() }
        let state = try makeStateFolder()
        defer { try? FileManager.default.removeItem(at: state) }
        try await ExampleRun.signInSafepocket(["--base-url", backend.baseURL.absoluteString, "--state", state.path], through: backend)
        let intercepted = ["--base-url", tls.url.absoluteString, "--state", state.path]
        let accounts = try await ExampleRun.run("safepocket-example", intercepted + ["accounts"])
        #expect(accounts.status == 1 && accounts.stdout.isEmpty, "nothing served from the cache")
        #expect(accounts.stderr == "error: connectionNotVerified: \(Self.refused)\n")
        let update = try await ExampleRun.run(
            "safepocket-example", intercepted + ["update-transaction", "0b6e2a1c-3d4f-4a5b-8c6d-7e8f9a0b1c2d", "--category", "Travel"])
        #expect(update.status == 1 && update.stderr.hasPrefix("error: connectionNotVerified: "), "\(update.stderr)")
        let pending = try await ExampleRun.run("safepocket-example", intercepted + ["pending"])
        #expect(pending.objects.filter { $0["id"] != nil }.isEmpty, "not queued: \(pending.stdout)")
        #expect(backend.counters.writesApplied == 0)
    }

    @Test func securenodeExample() async throws {
        let tls = try UntrustedTLSServer()
        defer { tls.stop() }
        let state = try makeStateFolder()
        defer { try? FileManager.default.removeItem(at: state) }
        let sync = try await ExampleRun.run("securenode-example", ["--base-url", tls.url.absoluteString, "--api-key", "sk_live_secret", "--state", state.path, "sync"])
        #expect(sync.status == 1 && sync.stdout.isEmpty)
        #expect(sync.stderr.hasPrefix("error: connectionNotVerified: the secure connection could not be verified (127.0.0.1: "), "\(sync.stderr)")
    }

    @Test func trackerExample() async throws {
        let tls = try UntrustedTLSServer()
        defer { tls.stop() }
        let state = try makeStateFolder()
        defer { try? FileManager.default.removeItem(at: state) }
        let tracked = try await ExampleRun.run(
            "tracker-example", ["--base-url", tls.url.absoluteString, "--api-key", "key", "--brand-id", "925", "--state", state.path, "track", "BUTTON_CLICK"])
        #expect(tracked.status == 1 && tracked.stdout.isEmpty, "nothing tracked: \(tracked.stdout)")
        #expect(tracked.stderr == "error: connectionNotVerified: \(Self.refused)\n")
    }
}
