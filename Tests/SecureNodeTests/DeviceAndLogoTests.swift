import ClientRuntime
import ClientRuntimeTesting
import Foundation
import LoopbackHTTPServer
import Resilience
import RuntimeSupport
import SecureNodeEngine
import SecureNodeAPI
import Testing
import Waiting

/// Device registration, updates, heartbeats and the debug-upload gate; the
/// logo cache.
@Suite struct DeviceAndLogoTests {
    @Test func registersOnceUpdatesOnChangeAndBeatsEveryFiveMinutes() async throws {
        let fake = try FakeSecureNode()
        let folder = try makeFolder("device")
        defer { try? FileManager.default.removeItem(at: folder) }
        for route in ["register", "update"] {
            fake.route("POST /api/mobile/device/\(route)", .json(200, #"{"success":true,"device_id":"device-1"}"#))
        }
        fake.route("POST /api/mobile/device/presence", .json(200, #"{"success":true}"#))
        let stateFile = folder.appendingPathComponent("device.json")
        let clock = ManualClock(startingAt: Date(timeIntervalSince1970: 1_704_067_200))
        let profile = DeviceProfile(deviceID: "device-1", platform: .ios, osVersion: "17.4", sdkVersion: "1.0.0", capabilities: ["call_directory": true])
        let first = DeviceLifecycle(client: fake.client(), profile: profile, stateFile: stateFile, now: { clock.now })
        #expect(try await first.registerOrUpdate() == .registered)
        #expect(try await first.registerOrUpdate() == .unchanged)
        // A restart with the same profile: nothing to send.
        #expect(try await DeviceLifecycle(client: fake.client(), profile: profile, stateFile: stateFile).registerOrUpdate() == .unchanged)
        var changed = profile
        changed.sdkVersion = "1.1.0"
        changed.capabilities["voip_push"] = true
        let second = DeviceLifecycle(client: fake.client(), profile: changed, stateFile: stateFile, now: { clock.now })
        #expect(try await second.registerOrUpdate() == .updated)
        #expect(fake.requests("/api/mobile/device/register").count == 1)
        let update = try #require(fake.requests("/api/mobile/device/update").first)
        #expect(update.bodyText.contains(#""sdk_version":"1.1.0""#) && update.bodyText.contains(#""voip_push":true"#))

        #expect(try await second.heartbeat())
        clock.advance(by: 299)
        #expect(try await second.heartbeat() == false, "less than 5 minutes since the last one")
        clock.advance(by: 1)
        #expect(try await second.heartbeat())
        #expect(try await second.heartbeat(lastSyncedAt: clock.now, force: true), "after a sync, at once")
        let beats = fake.requests("/api/mobile/device/presence")
        #expect(beats.count == 3)
        #expect(beats.last?.bodyText.contains(#""last_synced_at""#) == true)
    }

    @Test func debugUploadOnlyWhenTheConfigEnablesIt() async throws {
        let fake = try FakeSecureNode()
        let folder = try makeFolder("debug")
        defer { try? FileManager.default.removeItem(at: folder) }
        fake.route("POST /api/mobile/debug/upload", .json(200, #"{"success":true,"upload_id":"up_1"}"#))
        let device = DeviceLifecycle(client: fake.client(), profile: DeviceProfile(deviceID: "device-1", platform: .android),
            stateFile: folder.appendingPathComponent("device.json"))
        let logs = [DebugLogEntry(timestamp: Date(), level: "info", message: "sync ok")]
        #expect(try await device.uploadDebugLogs(logs, config: nil) == false)
        #expect(try await device.uploadDebugLogs(logs, config: BrandingConfig(brandingEnabled: true)) == false)
        #expect(try await device.uploadDebugLogs(logs, config: BrandingConfig(additionalProperties: ["debug_upload_enabled": .bool(false)])) == false)
        #expect(fake.requests("/api/mobile/debug/upload").isEmpty)
        #expect(try await device.uploadDebugLogs(logs, config: BrandingConfig(additionalProperties: ["debug_upload_enabled": .bool(true)])))
        #expect(fake.requests("/api/mobile/debug/upload").count == 1)
    }

    @Test func aLogoIsAnImageOfBoundedSizeFromTheAssetsHostBeforeItIsKept() async throws {
        let folder = try makeFolder("logo-checks")
        defer { try? FileManager.default.removeItem(at: folder) }
        /// A JPEG's start: SOI, an APP0 segment, then a baseline frame header of `width` x `height`.
        func jpeg(width: Int, height: Int) -> Data {
            Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]
                + [0xFF, 0xC0, 0x00, 0x11, 8, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF), 3]
                + [UInt8](repeating: 0, count: 9))
        }
        /// A PNG header declaring `width` x `height` (what a decompression bomb declares in a few bytes).
        func png(width: Int, height: Int) -> Data {
            let size = [width, height].flatMap { value in (0..<4).reversed().map { UInt8((value >> ($0 * 8)) & 0xFF) } }
            return Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8) + size + [8, 6, 0, 0, 0, 0, 0, 0, 0])
        }
        let served: [String: Data] = [
            "/forged.png": Data("<html><script>alert(1)</script></html>".utf8),
            "/bomb.png": png(width: 30_000, height: 30_000),
            "/wide.jpg": jpeg(width: 4096, height: 64),
            "/empty.png": png(width: 0, height: 16),
            "/fine.jpg": jpeg(width: 512, height: 512),
            "/fine.png": png(width: 1024, height: 1024),
        ]
        let fetches = Locked<[String]>([])
        let cache = LogoCache(folder: folder) { url in
            fetches.withLock { $0.append(url.path) }
            return served[url.path] ?? Data()
        }
        let host = "https://assets.securenode.io"
        await #expect(throws: LogoCache.Failure.notAnImage(reason: "neither a PNG nor a JPEG header")) { try await cache.logo(for: host + "/forged.png") }
        await #expect(throws: LogoCache.Failure.tooManyPixels(width: 30_000, height: 30_000, limit: 1024)) { try await cache.logo(for: host + "/bomb.png") }
        await #expect(throws: LogoCache.Failure.tooManyPixels(width: 4096, height: 64, limit: 1024)) { try await cache.logo(for: host + "/wide.jpg") }
        await #expect(throws: LogoCache.Failure.notAnImage(reason: "a PNG of 0 x 16 pixels")) { try await cache.logo(for: host + "/empty.png") }
        for refused in ["/forged.png", "/bomb.png", "/wide.jpg", "/empty.png"] { #expect(cache.cachedLogo(for: host + refused) == nil) }
        #expect(try await cache.logo(for: host + "/fine.jpg") == served["/fine.jpg"])
        #expect(try await cache.logo(for: host + "/fine.png") == served["/fine.png"])
        #expect(cache.cachedLogo(for: host + "/fine.png") != nil)

        // The assets host is https on its own port: another port or scheme is another server.
        let before = fetches.read().count
        for url in ["https://assets.securenode.io:8443/fine.png", "http://assets.securenode.io/fine.png", "https://assets.securenode.io.evil.example/fine.png"] {
            await #expect(throws: LogoCache.Failure.notAnAssetURL(url)) { try await cache.logo(for: url) }
        }
        #expect(fetches.read().count == before, "nothing was fetched from them")
        #expect(try await cache.logo(for: "HTTPS://ASSETS.SECURENODE.IO:443/fine.png") == served["/fine.png"], "the same host and port, written otherwise")

        // A file an earlier version kept without checking is not handed out.
        let kept = "https://assets.securenode.io/kept-before.png"
        try Data("<html>".utf8).write(to: folder.appendingPathComponent(LogoCache.fileName(for: kept)))
        #expect(cache.cachedLogo(for: kept) == nil)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent(LogoCache.fileName(for: kept)).path), "and it is deleted")
    }

    @Test func logosAreCachedUnderSanitizedNamesAndNeverRefetched() async throws {
        let folder = try makeFolder("logos")
        defer { try? FileManager.default.removeItem(at: folder) }
        let fetches = Locked<[URL]>([])
        let cache = LogoCache(folder: folder) { url in
            fetches.withLock { $0.append(url) }
            return testLogo("png:\(url.path)")
        }
        let url = "https://assets.securenode.io/logos/acme-bank.png?v=2"
        let name = LogoCache.fileName(for: url)
        #expect(!name.contains("/") && !name.contains("+") && !name.contains("=") && name.hasSuffix(".png"))
        #expect(Data(base64Encoded: String(name.dropLast(4)).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            .padding(toLength: (name.count - 4 + 3) / 4 * 4, withPad: "=", startingAt: 0)) == Data(url.utf8), "the name is the URL's base64")
        let long = "https://assets.securenode.io/" + String(repeating: "x", count: 2000)
        #expect(LogoCache.fileName(for: long).utf8.count < 255)
        #expect(LogoCache.fileName(for: long) != LogoCache.fileName(for: long + "y"))

        #expect(cache.cachedLogo(for: url) == nil, "ring time never fetches")
        #expect(await cache.prefetch([url, url, "https://evil.example.com/x.png", "http://assets.securenode.io/plain.png"]) == 1)
        #expect(cache.cachedLogo(for: url) == testLogo("png:/logos/acme-bank.png"))
        _ = try await cache.logo(for: url)
        #expect(fetches.withLock { $0.count } == 1, "checked in the cache first")
        await #expect(throws: LogoCache.Failure.notAnAssetURL("https://evil.example.com/x.png")) {
            try await cache.logo(for: "https://evil.example.com/x.png")
        }
        try cache.clear()
        #expect(cache.cachedLogo(for: url) == nil)
    }

    @Test func theCacheIsBoundedInBytesAndEvictsTheLeastRecentlyUsed() async throws {
        let folder = try makeFolder("logo-bound")
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = LogoCache(folder: folder, maximumBytes: 1000, maximumLogoBytes: 400) { url in
            let size = url.lastPathComponent == "huge.png" ? 401 : 300
            return testLogo() + Data(repeating: 7, count: size - testLogo().count)
        }
        let urls = (0..<6).map { "https://assets.securenode.io/logos/\($0).png" }
        // Prefetch stops once the budget is reached and trims what went past it.
        let fetched = await cache.prefetch(urls)
        #expect(fetched == 4)
        #expect(cache.totalBytes() <= 1000)
        #expect(cache.totalBytes() == 900)
        let cached = urls.filter(cache.isCached)
        #expect(cached.count == 3)
        // Reading a logo marks it used: the next eviction takes another one.
        try await Task.sleep(for: .milliseconds(20))
        let kept = try #require(cached.first)
        #expect(cache.cachedLogo(for: kept) != nil)
        try await Task.sleep(for: .milliseconds(20))
        let newcomer = try #require(urls.first { !cache.isCached($0) })
        _ = try await cache.logo(for: newcomer)
        #expect(cache.totalBytes() == 900)
        #expect(cache.isCached(kept) && cache.isCached(newcomer))
        #expect(cached.dropFirst().filter(cache.isCached).count == 1, "one of the logos not read since went")
        // One logo past its own limit is not cached at all.
        await #expect(throws: LogoCache.Failure.tooLarge(bytes: 401, limit: 400)) {
            try await cache.logo(for: "https://assets.securenode.io/logos/huge.png")
        }
        #expect(!cache.isCached("https://assets.securenode.io/logos/huge.png"))
        // Logos no record names any more are deleted.
        #expect(cache.removeLogos(except: [kept]) == 2)
        #expect(cache.totalBytes() == 300 && cache.isCached(kept))
    }

    // MARK: Logos through the SDK

    /// An SDK over `fake` whose logo downloads fail `failures` times first, counting each.
    func logoSDK(fake: FakeSecureNode, folder: URL, failures: Int, fetches: Locked<Int>) throws -> SecureNodeEngine {
        try SecureNodeEngine(.init(
            apiURL: fake.server.baseURL, apiKey: "sk_live_secret", folder: folder,
            device: DeviceProfile(deviceID: "device-logo", platform: .ios, sdkVersion: "1.0.0"), transport: FakeSecureNode.transport(),
            sendsHeartbeats: false).with { $0.logoFetch = { url in
                let attempt = fetches.withLock { count -> Int in
                    count += 1
                    return count
                }
                guard attempt > failures else { throw URLError(.networkConnectionLost) }
                return testLogo("logo \(url.lastPathComponent)")
            }; $0.logoRetry = BackoffPolicy(baseDelay: .milliseconds(100), maximumDelay: .milliseconds(200)) })
    }

    static let logoRecord = FakeSecureNode.record("+61412345678", "Acme Bank")
        .replacingOccurrences(of: #""logo_url":null"#, with: #""logo_url":"https://assets.securenode.io/logos/acme.png""#)

    @Test func logosLiveInTheCachesFolderAndAFailedDownloadIsTriedAgainWithoutANewSync() async throws {
        let fake = try FakeSecureNode()
        fake.acceptDevice()
        fake.route("GET /api/mobile/branding/sync", .json(200, FakeSecureNode.sync([Self.logoRecord], syncedAt: "2024-01-02T08:15:00Z")))
        let folder = try makeFolder("logo-retry")
        defer { try? FileManager.default.removeItem(at: folder) }
        // A logo an earlier version kept beside the dataset moves to the cache folder.
        let old = folder.appendingPathComponent("SecureNodeBranding", isDirectory: true)
        try FileManager.default.createDirectory(at: old, withIntermediateDirectories: true)
        try Data("old".utf8).write(to: old.appendingPathComponent("kept.png"))
        let fetches = Locked(0)
        let sdk = try logoSDK(fake: fake, folder: folder, failures: 2, fetches: fetches)
        #expect(sdk.logos.folder.standardizedFileURL.path
            == folder.appendingPathComponent("Caches/SecureNodeBranding").standardizedFileURL.path, "the documented folder off Apple platforms")
        #expect(FileManager.default.fileExists(atPath: sdk.logos.folder.appendingPathComponent("kept.png").path))
        #expect(!FileManager.default.fileExists(atPath: old.path))

        _ = await sdk.sync()
        // The first download, after the sync, fails; its retries run on the backoff (100-200 ms),
        // so by now they may have begun: what holds is that one sync is all it takes.
        #expect(fetches.read() >= 1, "downloaded after the sync")
        let record = try #require(sdk.lookup(e164: "+61412345678", atRingTime: false))
        #expect(try await eventually { sdk.cachedLogo(for: record) != nil }, "tried again on the backoff, with no sync in between")
        #expect(fetches.read() == 3 && sdk.logos.pendingRetries == 0, "two failures, then the download that stuck")
        #expect(fake.requests("/api/mobile/branding/sync").count == 1, "no sync in between")
    }

    @Test func aRingTimeHitWithoutItsLogoFetchesItOnceTheCallEnds() async throws {
        let fake = try FakeSecureNode()
        fake.acceptDevice()
        fake.route("GET /api/mobile/branding/sync", .json(200, FakeSecureNode.sync([Self.logoRecord], syncedAt: "2024-01-02T08:15:00Z")))
        let folder = try makeFolder("logo-hit")
        defer { try? FileManager.default.removeItem(at: folder) }
        let fetches = Locked(0)
        let sdk = try logoSDK(fake: fake, folder: folder, failures: 0, fetches: fetches)
        _ = await sdk.sync()
        try sdk.clearImageCache()
        let before = fetches.read()
        sdk.calls.callStarted()
        let record = try #require(sdk.lookup(e164: "+61412345678"))
        #expect(sdk.cachedLogo(for: record) == nil)
        #expect(try await eventually { sdk.calls.heldBack == 1 }, "the hit's logo download waits")
        #expect(fetches.read() == before, "no download while the phone rings")
        sdk.calls.callEnded()
        #expect(try await eventually { sdk.cachedLogo(for: record) != nil }, "the hit's logo is fetched after the call")
        #expect(fetches.read() == before + 1)
    }

}
