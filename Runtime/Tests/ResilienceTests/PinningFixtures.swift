import Foundation
import ProcessTestSupport
import Resilience

/// The X.509 chains `scripts/make_pinning_fixtures.sh` wrote with openssl
/// (`Runtime/Tests/Fixtures/Pinning/`), and openssl itself as the stand-in
/// of the platform's trust evaluation on Linux.
enum PinningFixtures {
    /// The host every leaf is issued to.
    static let host = "api.safepocket.test"
    /// When chains are verified: 2100-01-01, inside the valid certificates'
    /// hundred years and after the one-day certificate expired, so the
    /// verdicts never change.
    static let verificationTime = "4102444800"

    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/Pinning", isDirectory: true)

    static func file(_ name: String) -> URL { folder.appendingPathComponent(name + ".pem") }

    /// The certificate `name` (`leaf`, `intermediate`, ...) as DER.
    static func der(_ name: String) throws -> Data {
        let pem = try String(contentsOf: file(name), encoding: .utf8)
        let body = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        guard let der = Data(base64Encoded: body) else { throw FixtureError.notPEM(name) }
        return der
    }

    /// The chain as the platform hands it over after evaluating it: the
    /// leaf `leaf`, the intermediate, the root.
    static func chain(_ leaf: String) throws -> [Data] {
        [try der(leaf), try der("intermediate"), try der("root")]
    }

    /// `pins.txt`: the pin of each key, as openssl computed it when the fixtures were made.
    static func pins() throws -> [String: String] {
        let text = try String(contentsOf: folder.appendingPathComponent("pins.txt"), encoding: .utf8)
        var pins: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ")
            if parts.count == 2 { pins[String(parts[0])] = String(parts[1]) }
        }
        return pins
    }

    /// One pin of `pins.txt` (`served`, `backup`, `intermediate`, `root`, `other`).
    static func pin(_ name: String) throws -> String {
        guard let pin = try pins()[name] else { throw FixtureError.noPin(name) }
        return pin
    }

    /// Pins for ``host``: the pins of `names` in `pins.txt`.
    static func pinning(_ names: String...) throws -> CertificatePinning {
        try CertificatePinning([PinnedHost(host, pins: names.map { try pin($0) })])
    }

    /// The platform's verdict, played by `openssl verify` at the fixed
    /// time against the fixtures' root: true when the chain of `leaf` is
    /// trusted.
    static func platformTrusts(_ leaf: String) async throws -> Bool {
        let run = try await openssl([
            "verify", "-attime", verificationTime, "-CAfile", file("root").path, "-untrusted", file("intermediate").path, file(leaf).path,
        ])
        return run.status == 0
    }

    /// What a platform adapter hands the decision for a connection to `host` that presented `leaf`'s chain.
    static func presented(_ leaf: String, host: String = host) async throws -> PresentedServerTrust {
        PresentedServerTrust(host: host, certificates: try chain(leaf), platformTrusted: try await platformTrusts(leaf))
    }

    /// The pin of `certificate`'s key, computed by the openssl pipeline the
    /// documentation gives: public key -> DER -> SHA-256 -> base64.
    static func opensslPin(of certificate: String) async throws -> String {
        let pipeline = "openssl x509 -in '\(file(certificate).path)' -pubkey -noout | openssl pkey -pubin -outform der "
            + "| openssl dgst -sha256 -binary | base64"
        let run = try await ChildProcess.run(URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", pipeline])
        guard run.status == 0 else { throw FixtureError.openssl(run.stderr) }
        return "sha256/" + run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func openssl(_ arguments: [String]) async throws -> CompletedRun {
        let run = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/env"), arguments: ["openssl"] + arguments)
        // env's status when the command is missing: say so, rather than read it as a refused chain.
        if run.status == 127 { throw FixtureError.openssl("the openssl command line is not installed (make deps installs it)") }
        return run
    }

    enum FixtureError: Error {
        case notPEM(String)
        case noPin(String)
        case openssl(String)
    }
}
