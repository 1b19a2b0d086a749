import ClientRuntimeTesting
import Foundation
import Resilience
import Testing

/// The pinning decision on real X.509 chains made by openssl
/// (`scripts/make_pinning_fixtures.sh`), with `openssl verify` at a fixed
/// time playing the platform's trust evaluation.
@Suite struct CertificatePinningTests {
    /// The app's pins: the served key and the backup key.
    func servedAndBackup() throws -> CertificatePinning {
        try PinningFixtures.pinning("served", "backup")
    }

    @Test func theSwiftKeyHashOfEveryCertificateIsOpensslsPin() async throws {
        let names = ["root": "root", "intermediate": "intermediate", "leaf": "served", "leaf-rotated": "backup", "leaf-other": "other"]
        for (certificate, pinName) in names {
            let swift = try PublicKeyPin(certificate: PinningFixtures.der(certificate)).description
            #expect(swift == (try await PinningFixtures.opensslPin(of: certificate)), "\(certificate): the documented openssl pipeline")
            #expect(swift == (try PinningFixtures.pin(pinName)), "\(certificate): pins.txt")
        }
        // The expired and self-signed leaves carry the served key: the same pin.
        for certificate in ["leaf-expired", "leaf-self-signed"] {
            #expect(try PublicKeyPin(certificate: PinningFixtures.der(certificate)).description == PinningFixtures.pin("served"))
        }
    }

    @Test func aChainWhoseLeafHasAPinnedKeyIsAccepted() async throws {
        let presented = try await PinningFixtures.presented("leaf")
        #expect(presented.platformTrusted, "openssl trusts the valid chain")
        let verdict = try servedAndBackup().evaluate(presented, in: .production)
        #expect(verdict == .matched(try PublicKeyPin(PinningFixtures.pin("served")), certificateIndex: 0))
    }

    @Test func aChainWhoseIntermediateOrRootHasAPinnedKeyIsAccepted() async throws {
        let presented = try await PinningFixtures.presented("leaf-other")
        let intermediate = try PinningFixtures.pinning("intermediate", "backup")
        let intermediatePin = try PublicKeyPin(PinningFixtures.pin("intermediate"))
        #expect(intermediate.evaluate(presented, in: .production) == .matched(intermediatePin, certificateIndex: 1))
        let root = try PinningFixtures.pinning("backup", "root")
        #expect(root.evaluate(presented, in: .production) == .matched(try PublicKeyPin(PinningFixtures.pin("root")), certificateIndex: 2))
    }

    @Test func aTrustedChainWithoutAPinnedKeyIsRefusedNamingWhatItPresented() async throws {
        let presented = try await PinningFixtures.presented("leaf-other")
        #expect(presented.platformTrusted, "the system trusts it: only the pins refuse it")
        guard case .rejected(let refusal) = try servedAndBackup().evaluate(presented, in: .production) else {
            Issue.record("a chain without a pinned key was accepted")
            return
        }
        #expect(refusal.reason == .noPinnedKey && refusal.host == PinningFixtures.host)
        let presentedPins = try ["other", "intermediate", "root"].map { try PinningFixtures.pin($0) }
        #expect(refusal.presented.map(\.description) == presentedPins, "leaf first")
        #expect(refusal.expected.map(\.description) == [try PinningFixtures.pin("served"), try PinningFixtures.pin("backup")])
        #expect(refusal.description.hasPrefix("the secure connection to api.safepocket.test could not be verified: its chain has no pinned public key"))
        for pin in presentedPins { #expect(refusal.description.contains(pin)) }
    }

    @Test func theBackupPinKeepsTheAppConnectedAfterTheKeyIsRotated() async throws {
        let pinning = try servedAndBackup()
        let before = try await PinningFixtures.presented("leaf")
        let after = try await PinningFixtures.presented("leaf-rotated")
        #expect(after.platformTrusted)
        #expect(pinning.evaluate(before, in: .production) == .matched(try PublicKeyPin(PinningFixtures.pin("served")), certificateIndex: 0))
        #expect(pinning.evaluate(after, in: .production) == .matched(try PublicKeyPin(PinningFixtures.pin("backup")), certificateIndex: 0))
        // Without the backup the same rotation locks the app out.
        let withoutBackup = try PinningFixtures.pinning("served", "other")
        guard case .rejected(let refusal) = withoutBackup.evaluate(after, in: .production) else {
            Issue.record("the rotated key matched pins that do not name it")
            return
        }
        #expect(refusal.reason == .noPinnedKey)
    }

    @Test(arguments: ["leaf-expired", "leaf-self-signed"])
    func aChainTheSystemRefusesIsRefusedInProductionEvenWhenAPinMatches(leaf: String) async throws {
        let presented = PresentedServerTrust(
            host: PinningFixtures.host, certificates: leaf == "leaf-self-signed" ? [try PinningFixtures.der(leaf)] : try PinningFixtures.chain(leaf),
            platformTrusted: try await PinningFixtures.platformTrusts(leaf))
        #expect(!presented.platformTrusted, "openssl verify refuses \(leaf) at the fixed time")
        let served = try PublicKeyPin(PinningFixtures.pin("served"))
        #expect(try PublicKeyPin(certificate: presented.certificates[0]) == served, "the leaf has the pinned key")
        guard case .rejected(let refusal) = try servedAndBackup().evaluate(presented, in: .production) else {
            Issue.record("\(leaf) was accepted because a pin matched")
            return
        }
        #expect(refusal.reason == .untrustedChain && refusal.presented.first == served)
        #expect(refusal.summary == "the system does not trust its certificate chain")
        // In development the pins are off, but the system's refusal stands: the platform decides.
        #expect(try servedAndBackup().evaluate(presented, in: .development) == .notPinned)
        // A development build accepts it only when the app named its key for this host.
        let named = try servedAndBackup().acceptingForDevelopment(host: PinningFixtures.host, pins: [served.description])
        #expect(named.evaluate(presented, in: .development) == .acceptedForDevelopment(served))
        #expect(named.evaluate(presented, in: .production) == .acceptedForDevelopment(served))
        let elsewhere = try servedAndBackup().acceptingForDevelopment(host: "localhost", pins: [served.description])
        #expect(elsewhere.evaluate(presented, in: .development) == .notPinned, "named for another host")
    }

    @Test func fewerThanTwoPinsAreRefusedWhenConfiguredSayingWhatToAdd() throws {
        let served = try PinningFixtures.pin("served")
        for pins in [[served], [served, served], []] {
            #expect(throws: PinningConfigurationError.tooFewPins(host: PinningFixtures.host, count: Set(pins).count)) {
                try PinnedHost(PinningFixtures.host, pins: pins)
            }
        }
        do {
            _ = try PinnedHost("API.Safepocket.test.", pins: [served])
            Issue.record("one pin was accepted")
        } catch {
            #expect(
                String(describing: error)
                    == "pinning api.safepocket.test needs at least 2 pins, got 1: add a backup pin, the sha256/ of a spare key pair kept off the "
                    + "server (or of the next CA's key), so the app still connects after the served key is rotated")
        }
    }

    @Test func pinsAndHostsThatCannotBeReadAreRefusedWithTheReason() throws {
        let served = try PinningFixtures.pin("served")
        let cases: [(String, String)] = [
            ("sha256/not base64!", "not base64"),
            ("sha256/" + Data(repeating: 1, count: 20).base64EncodedString(), "decodes to 20 bytes, a SHA-256 has 32"),
            ("sha1/" + Data(repeating: 1, count: 32).base64EncodedString(), "only sha256 pins exist"),
        ]
        for (text, reason) in cases {
            do {
                _ = try PinnedHost(PinningFixtures.host, pins: [served, text])
                Issue.record("\(text) was accepted")
            } catch {
                let message = String(describing: error)
                #expect(message.hasPrefix("\"\(text)\" is not a public-key pin: ") && message.contains(reason), "\(message)")
            }
        }
        #expect(throws: PinningConfigurationError.invalidHost("https://api.safepocket.test")) {
            try PinnedHost("https://api.safepocket.test", pins: [served, try PinningFixtures.pin("backup")])
        }
        let entry = try PinnedHost(PinningFixtures.host, pins: [served, try PinningFixtures.pin("backup")])
        #expect(throws: PinningConfigurationError.duplicateHost(PinningFixtures.host)) { try CertificatePinning([entry, entry]) }
        // The prefix may be left out; either way the pin reads back as sha256/.
        #expect(try PublicKeyPin(String(served.dropFirst("sha256/".count))).description == served)
    }

    @Test func pinsApplyToTheirHostAndOnlyAskedForToItsSubdomains() throws {
        let pins = [try PinningFixtures.pin("served"), try PinningFixtures.pin("backup")]
        let pinning = try CertificatePinning([
            PinnedHost("safepocket.test", pins: pins, includingSubdomains: true), PinnedHost("exact.test", pins: pins),
        ])
        #expect(pinning.pinnedHost(for: "API.safepocket.test.")?.host == "safepocket.test")
        #expect(pinning.pinnedHost(for: "safepocket.test")?.host == "safepocket.test")
        #expect(pinning.pinnedHost(for: "evilsafepocket.test") == nil)
        #expect(pinning.pinnedHost(for: "exact.test") != nil && pinning.pinnedHost(for: "www.exact.test") == nil)
        #expect(pinning.evaluates(host: "exact.test", in: .production) && !pinning.evaluates(host: "other.test", in: .production))
        #expect(!pinning.evaluates(host: "exact.test", in: .development), "development checks no pins")
    }

    @Test func aDevelopmentConfigurationNeedsNoPins() async throws {
        let pinning = try CertificatePinning([])
        let selfSigned = PresentedServerTrust(
            host: "localhost", certificates: [try PinningFixtures.der("leaf-self-signed")],
            platformTrusted: try await PinningFixtures.platformTrusts("leaf-self-signed"))
        #expect(!selfSigned.platformTrusted)
        // Nothing named: the system's refusal stands, in development too.
        #expect(pinning.evaluate(selfSigned, in: .development) == .notPinned)
        #expect(!ServerTrustEvaluator(pinning: pinning, environment: .development).handles(host: "localhost"))
        // Production without pins leaves every host to the system too.
        #expect(CertificatePinning.none.evaluate(selfSigned, in: .production) == .notPinned)
    }

    /// What a development build accepts: a certificate the system refuses,
    /// only when the app named its key, only from the host named, each
    /// acceptance logged; a release build has no way to name one.
    @Test func aDevelopmentBuildAcceptsOnlyTheCertificateItNamesFromItsHost() async throws {
        let selfSignedDER = try PinningFixtures.der("leaf-self-signed")
        let platformTrusted = try await PinningFixtures.platformTrusts("leaf-self-signed")
        #expect(!platformTrusted)
        let served = try PinningFixtures.pin("served")
        let log = LogCapture()
        let named = try CertificatePinning.none.acceptingForDevelopment(host: "LocalHost.", pins: [served])
        #expect(named.developmentCertificates.map(\.host) == ["localhost"])
        #expect(named.developmentCertificates.first?.pins == [try PublicKeyPin(served)])
        let evaluator = ServerTrustEvaluator(pinning: named, environment: .development, logger: log.logger(label: "pinning"))
        let local = PresentedServerTrust(host: "localhost", certificates: [selfSignedDER], platformTrusted: platformTrusted)
        #expect(evaluator.handles(host: "LOCALHOST") && evaluator.decide(local) == .useServerTrust)
        let warnings = log.all.filter { $0.contains("accepted a certificate the system refuses from localhost") }
        #expect(warnings.count == 1, "\(log.all)")
        #expect(warnings.first?.contains(served) == true && warnings.first?.contains("DEBUG build only") == true)

        // Another host presenting the same certificate: left to the system, which refuses it.
        let elsewhere = PresentedServerTrust(host: "staging.safepocket.test", certificates: [selfSignedDER], platformTrusted: false)
        #expect(!evaluator.handles(host: elsewhere.host) && evaluator.decide(elsewhere) == .performDefaultHandling)
        // The named host presenting a key it was not named for: refused by the system, not accepted here.
        let other = PresentedServerTrust(host: "localhost", certificates: [try PinningFixtures.der("leaf-other")], platformTrusted: false)
        #expect(evaluator.decide(other) == .performDefaultHandling)
        // A certificate the system trusts needs no exception: the usual rules.
        let trusted = PresentedServerTrust(host: "localhost", certificates: try PinningFixtures.chain("leaf"), platformTrusted: true)
        #expect(named.evaluate(trusted, in: .development) == .notPinned)

        // Naming one needs a key and a bare host.
        #expect(throws: PinningConfigurationError.tooFewPins(host: "localhost", count: 0)) { try CertificatePinning.none.acceptingForDevelopment(host: "localhost", pins: []) }
        #expect(throws: PinningConfigurationError.invalidHost("https://localhost")) {
            try CertificatePinning.none.acceptingForDevelopment(host: "https://localhost", pins: [served])
        }
    }

    @Test func bytesThatAreNotACertificateSayWhereTheyBreak() throws {
        let leaf = try PinningFixtures.der("leaf")
        let cases: [(Data, String)] = [
            (Data(), "expected Certificate, found the end at byte 0"),
            (Data([0x02, 0x01, 0x00]), "expected Certificate (tag 0x30), found tag 0x02 at byte 0"),
            (leaf.prefix(200), "Certificate claims"),
            (leaf + Data([0x00]), "bytes after the Certificate SEQUENCE"),
            (Data([0x30, 0x80, 0x00, 0x00]), "Certificate has an invalid length at byte 1"),
            // DER's one encoding: a long form for a length under 128, or with a leading zero byte, is refused.
            (Data([0x30, 0x81, 0x05]) + Data(count: 5), "Certificate's length is not in DER's minimal form at byte 1"),
            (Data([0x30, 0x82, 0x00, 0x90]) + Data(count: 0x90), "Certificate's length is not in DER's minimal form at byte 1"),
            // Four length bytes (gigabytes, past a 32-bit Int) are refused before any arithmetic.
            (Data([0x30, 0x84, 0x7F, 0xFF, 0xFF, 0xFF]), "Certificate has an invalid length at byte 1"),
            (Data([0x30, 0x84, 0xFF, 0xFF, 0xFF, 0xF0]), "Certificate has an invalid length at byte 1"),
        ]
        for (bytes, expected) in cases {
            do {
                _ = try PublicKeyPin(certificate: bytes)
                Issue.record("\(bytes.count) bytes read as a certificate")
            } catch {
                let message = String(describing: error)
                #expect(message.hasPrefix("not an X.509 certificate in DER: ") && message.contains(expected), "\(message)")
            }
        }
        // An unreadable certificate in a chain has no key; the others still match.
        let presented = PresentedServerTrust(
            host: PinningFixtures.host, certificates: [Data([0x30, 0x00]), try PinningFixtures.der("intermediate")], platformTrusted: true)
        let pinning = try PinningFixtures.pinning("intermediate", "backup")
        #expect(pinning.evaluate(presented, in: .production) == .matched(try PublicKeyPin(PinningFixtures.pin("intermediate")), certificateIndex: 1))
    }
}
