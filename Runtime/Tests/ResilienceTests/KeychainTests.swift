import Foundation
import PlatformRules
import Resilience
import Testing

/// The SDKs' secrets in the Keychain, by the Keychain's rules (a double
/// keeps them on Linux; on iOS the same `KeychainSecretItem` runs over
/// Security's calls): this device only, readable after the first unlock,
/// an error (never "absent") when it cannot be read, and gone at a new
/// install.
@Suite struct KeychainTests {
    /// A token store on the simulated Keychain, under a service of its own.
    func store() -> (any TokenStore, String) {
        let service = "app.test.refresh-token." + UUID().uuidString
        return (SecretItemTokenStore<SimulatedKeychainItem>(service: service), service)
    }

    @Test func aTokenIsKeptOnThisDeviceOnlyAndReadableAfterTheFirstUnlock() async throws {
        let (tokens, service) = store()
        #expect(try await tokens.loadRefreshToken() == nil, "errSecItemNotFound reads as no token")
        try await tokens.save(refreshToken: "rt-1")
        try await tokens.save(refreshToken: "rt-2")        // an update, not a duplicate add
        #expect(try await tokens.loadRefreshToken() == "rt-2")
        #expect(SimulatedKeychain.accessibility(service: service, account: "refresh-token") == .afterFirstUnlockThisDeviceOnly)
        #expect(SimulatedKeychain.restoredOnAnotherDevice(service: service).isEmpty, "no backup carries it to another device")
        // Locked after the first unlock (a background refresh): readable.
        let whileLocked = try await SimulatedKeychain.$device.withValue(.locked) { try await tokens.loadRefreshToken() }
        #expect(whileLocked == "rt-2")
        try await tokens.clear()
        try await tokens.clear()                              // deleting what is gone is done
        #expect(try await tokens.loadRefreshToken() == nil)
    }

    @Test func aWriteGivesAnItemKeptWithAnotherClassTheItemsOwn() throws {
        let service = "app.test.reclassed." + UUID().uuidString
        // What an earlier version kept, readable after the first unlock.
        try SimulatedKeychainItem(service: service, account: "a", accessibility: .afterFirstUnlockThisDeviceOnly).write(Data("old".utf8))
        let strict = SimulatedKeychainItem(service: service, account: "a", accessibility: .whenUnlockedThisDeviceOnly)
        try strict.write(Data("new".utf8))
        #expect(SimulatedKeychain.accessibility(service: service, account: "a") == .whenUnlockedThisDeviceOnly, "the update set the class too")
        SimulatedKeychain.$device.withValue(.locked) {
            #expect(throws: SimulatedKeychainItem.Failure(status: KeychainStatus.interactionNotAllowed)) { _ = try strict.read() }
        }
    }

    @Test func aSecretThatCannotBeReadNowIsAnErrorNeverAbsent() async throws {
        let (tokens, _) = store()
        try await tokens.save(refreshToken: "rt-1")
        // Before the first unlock since boot: errSecInteractionNotAllowed, which must not read as "signed out".
        await SimulatedKeychain.$device.withValue(.beforeFirstUnlock) {
            await #expect(throws: SimulatedKeychainItem.Failure(status: KeychainStatus.interactionNotAllowed)) {
                _ = try await tokens.loadRefreshToken()
            }
        }
        // An item readable only while unlocked, on a locked device.
        let strict = SimulatedKeychainItem(service: "app.test.strict." + UUID().uuidString, account: "a", accessibility: .whenUnlockedThisDeviceOnly)
        try strict.write(Data("secret".utf8))
        SimulatedKeychain.$device.withValue(.locked) {
            #expect(throws: SimulatedKeychainItem.Failure(status: KeychainStatus.interactionNotAllowed)) { _ = try strict.read() }
        }
        #expect(try strict.read() == Data("secret".utf8))
    }

    @Test func aNewInstallDeletesTheTokenAnEarlierInstallLeftInTheKeychain() async throws {
        let (tokens, _) = store()
        try await tokens.save(refreshToken: "rt-of-the-previous-owner")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("install-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let marker = InstallationMarker(folder: folder)
        let fresh = FreshInstallTokenStore.wrapping(tokens, marker: marker, earlierFiles: [])
        #expect(try await fresh.loadRefreshToken() == nil)
        #expect(try await tokens.loadRefreshToken() == nil, "deleted from the Keychain itself")
        try await fresh.save(refreshToken: "rt-of-this-install")
        // The next launch of this install keeps it.
        let next = FreshInstallTokenStore.wrapping(tokens, marker: marker, earlierFiles: [])
        #expect(try await next.loadRefreshToken() == "rt-of-this-install")
    }
}
