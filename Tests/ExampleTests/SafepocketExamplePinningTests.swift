import BackendDoubles
import Foundation
import Testing

/// `safepocket-example --pin ...`: pins from the command line, refused when
/// fewer than two, failing closed with the SDK's typed error, and off with
/// `--development`.
@Suite struct SafepocketExamplePinningTests {
    static let pins = ["--pin", "sha256/4sEBer2Lpb8nKWkQmA0+1KulJEtftPQA9TsEAJRvL/A=", "--pin", "sha256/MKSwfbFgC0cuPG2r5af1fKfFM1Jlrjw9NidOkoEcY0E="]

    @Test func pinsThatFailPrintTheTypedErrorAndSendNothing() async throws {
        let backend = try SafepocketBackend()
        let state = try makeStateFolder()
        defer { try? FileManager.default.removeItem(at: state) }
        let common = ["--base-url", backend.baseURL.absoluteString, "--state", state.path]
        let host = try #require(backend.baseURL.host)

        // Signed in without pins, as in the sign-in test.
        try await ExampleRun.signInSafepocket(common, through: backend)
        let seen = backend.server.requests.count

        // Pinned in production, the host served over plain http: nothing can be verified, nothing is sent.
        let pinned = try await ExampleRun.run("safepocket-example", common + Self.pins + ["accounts"])
        #expect(pinned.status == 1 && pinned.stdout.isEmpty)
        let expected = "error: connectionNotVerified: the secure connection could not be verified "
            + "(\(host): it is pinned but the request would go over plain http)\n"
        #expect(pinned.stderr == expected)
        #expect(backend.server.requests.count == seen, "not the refresh token, not the request")

        // One pin is refused before any connection, saying what to add.
        let one = try await ExampleRun.run("safepocket-example", common + Self.pins.prefix(2) + ["accounts"])
        #expect(one.status == 1)
        #expect(one.stderr.hasPrefix("error: invalidPins: pinning \(host) needs at least 2 pins, got 1: add a backup pin"), "\(one.stderr)")
        #expect(one.stderr.split(separator: "\n").count == 1)

        // The development switch turns the pins off.
        let development = try await ExampleRun.run("safepocket-example", common + Self.pins + ["--development", "accounts"])
        #expect(development.status == 0, "\(development.stderr)")
        #expect(development.objects.first?["source"] as? String == "network")
    }
}
