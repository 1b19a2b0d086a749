import ClientRuntimeTesting
import Foundation
@testable import Resilience
import SDKCore
import Testing

/// Every SDK of the family says, once per process, when it reaches a host
/// that is not this machine without a pin for it: the connection then rests
/// on every certificate authority the device trusts.
@Suite struct UnpinnedWarningTests {
    static let pins = ["sha256/4sEBer2Lpb8nKWkQmA0+1KulJEtftPQA9TsEAJRvL/A=", "sha256/MKSwfbFgC0cuPG2r5af1fKfFM1Jlrjw9NidOkoEcY0E="]

    @Test func aHostWithoutPinsIsWarnedAboutOncePerSDK() throws {
        let log = LogCapture()
        let sdk = "SDK-\(UUID().uuidString.prefix(8))"
        let connection = ConnectionConfiguration(baseURL: URL(string: "https://api.example.com")!, logger: log.logger(label: "sdk"), connectivity: nil)
        #expect(connection.warnIfUnpinned(sdk: sdk, advice: "its guide asks for pins"))
        #expect(!connection.warnIfUnpinned(sdk: sdk, advice: "its guide asks for pins"), "once per process")
        let warnings = log.all.filter { $0.contains("without certificate pins") }
        #expect(warnings.count == 1 && warnings[0].hasPrefix("warning"), "\(log.all)")
        #expect(warnings[0].contains("\(sdk) connects to api.example.com") && warnings[0].contains("its guide asks for pins"))
    }

    @Test func aPinnedHostOrThisMachineIsNot() throws {
        let log = LogCapture()
        var connection = ConnectionConfiguration(baseURL: URL(string: "https://api.example.com")!, logger: log.logger(label: "sdk"), connectivity: nil)
        connection.pinning = try CertificatePinning(pins: ["api.example.com": Self.pins])
        #expect(!connection.isUnpinned)
        #expect(!connection.warnIfUnpinned(sdk: "SDK-\(UUID().uuidString.prefix(8))", advice: ""))
        // Pins for another host only: this one is still unpinned.
        connection.pinning = try CertificatePinning(pins: ["cdn.example.com": Self.pins])
        #expect(connection.isUnpinned)
        // A local server during development.
        connection.pinning = .none
        for local in ["http://127.0.0.1:8080", "http://localhost:8080", "http://[::1]:8080"] {
            connection.baseURL = URL(string: local)!
            #expect(!connection.isUnpinned, "\(local)")
        }
        #expect(log.all.isEmpty)
    }
}
