import Foundation
import Logging
import Resilience
import RuntimeSupport
import SDKCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Fetches a logo's bytes from its URL: `SecureNodeEngine.Configuration.logoFetch`
/// replaces the SDK's own fetch (over the configured transport) with the app's.
package typealias LogoFetch = @Sendable (URL) async throws -> Data

/// Brand logos on disk, fetched ahead of time (after a sync) from the
/// assets host and read locally at ring time: ``cachedLogo(for:)`` never
/// touches the network.
///
/// Each logo is a file named by the URL's base64 (URL-safe alphabet, no
/// padding) and `.png`, as the iOS SDK names them, so names are unique per
/// URL and safe on every file system; a URL too long for a file name keeps
/// a 200-character prefix of its base64 plus a 64-bit hash of the whole URL.
///
/// The cache is bounded: ``maximumBytes`` in all (the least recently used
/// logos go first, a read counting as a use) and ``maximumLogoBytes`` per
/// logo; logos no stored record names any more are deleted after each
/// sync (``removeLogos(except:)``).
///
/// A download that fails is tried again on a backoff (``retryBackoff``:
/// 30 s, doubling to an hour), not only when a later sync changes records:
/// ``prefetch(_:)`` skips a URL until its next try is due, and
/// ``retryFailed(urls:)`` keeps one retry scheduled while any is pending. A
/// URL that can never be fetched (not on the assets host, too large) is
/// not tried again in this process.
package final class LogoCache: Sendable {
    /// Fetches a URL's bytes.
    package typealias Fetch = LogoFetch

    /// Why a logo was not fetched.
    package enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// The URL is not `https` on the assets host (its default port).
        case notAnAssetURL(String)
        /// The server's `Content-Type` is not an image a logo may be
        /// (`image/png`, `image/jpeg`); nil when it sent none.
        case notAnImageType(String?)
        /// The bytes are not a PNG or JPEG a logo may be.
        case notAnImage(reason: String)
        /// The image declares more pixels on a side than a logo may have.
        case tooManyPixels(width: Int, height: Int, limit: Int)
        /// The server answered with a status other than 200.
        case status(Int)
        /// The logo is larger than ``LogoCache/maximumLogoBytes`` (`bytes`
        /// is how many were read before reading stopped, or the size stated).
        case tooLarge(bytes: Int, limit: Int)

        /// What went wrong.
        package var description: String {
            switch self {
            case .notAnAssetURL(let url): return "not fetched: \(url) is not an https URL on the logo assets host"
            case .status(let status): return "logo fetch failed with status \(status)"
            case .tooLarge(let bytes, let limit): return "logo not cached: \(bytes) bytes or more, past the \(limit) a logo may have"
            case .notAnImageType(let type): return "logo not cached: served as \(type ?? "no content type"), not image/png or image/jpeg"
            case .notAnImage(let reason): return "logo not cached: not an image a logo may be (\(reason))"
            case .tooManyPixels(let width, let height, let limit):
                return "logo not cached: \(width) x \(height) pixels, past the \(limit) a logo may have on a side"
            }
        }
    }

    /// The most bytes a logo may have unless the cache says otherwise (1 MiB).
    package static let defaultMaximumLogoBytes = 1 << 20
    /// The folder the logos live in.
    package let folder: URL
    /// The most bytes all cached logos may take together (default 20 MiB).
    package let maximumBytes: Int
    /// The most bytes one logo may have (default 1 MiB); a larger one is not cached.
    package let maximumLogoBytes: Int
    /// How failed downloads are spaced out.
    package let retryBackoff: BackoffPolicy
    private let allowedHost: String
    private let fetch: Fetch
    private let failures = Locked<[String: FailedFetch]>([:])
    private let retry = Locked<Task<Void, Never>?>(nil)
    private let inFlight = Locked<Set<String>>([])

    /// A download that failed: how often, and when it may be tried again
    /// (never, for a URL that cannot be fetched at all).
    private struct FailedFetch {
        var attempts: Int
        var retryAt: Date
    }

    /// The SDK's clock: the retry schedule's wall time, and its waits.
    private let clock: SDKClock
    private var now: @Sendable () -> Date { clock.now }

    /// A cache in `folder` for logos on `allowedHost`, fetched with `fetch`
    /// (by default ``verifiedFetch(allowedHost:maximumBytes:pinning:logger:)``
    /// with `pinning`), holding at most `maximumBytes` in all and
    /// `maximumLogoBytes` per logo.
    package init(
        folder: URL, allowedHost: String = "assets.securenode.io", maximumBytes: Int = 20 << 20, maximumLogoBytes: Int = defaultMaximumLogoBytes,
        retryBackoff: BackoffPolicy = BackoffPolicy(baseDelay: .seconds(30), maximumDelay: .seconds(3600)), fetch: Fetch? = nil,
        pinning: CertificatePinning = .none, logger: Logger = .sdkDefault(subsystem: "OpenAPIMobileClients.SecureNode"), clock: SDKClock = .system
    ) {
        self.clock = clock
        self.folder = folder
        self.retryBackoff = retryBackoff
        self.allowedHost = allowedHost
        self.maximumBytes = maximumBytes
        self.maximumLogoBytes = min(maximumLogoBytes, maximumBytes)
        self.fetch = fetch ?? Self.verifiedFetch(allowedHost: allowedHost, maximumBytes: self.maximumLogoBytes, pinning: pinning, logger: logger)
    }

    /// `fetch` held back while `calls` has a call in progress: logo
    /// downloads are network requests too.
    static func waitingForCalls(_ calls: CallActivity, _ fetch: @escaping Fetch) -> Fetch {
        { url in
            await calls.waitUntilNoCall()
            try Task.checkCancellation()
            return try await fetch(url)
        }
    }

    /// The SDK's logo downloads: a URLSession of their own whose
    /// connections are verified as the API's are (`pinning`, the system's
    /// trust evaluation; a TLS failure is a `CertificatePinningError`),
    /// whose redirects are followed only over https to `allowedHost` (checked
    /// at every hop), and whose reading stops at `maximumBytes`
    /// (``Failure/tooLarge(bytes:limit:)``, before the body when the
    /// `Content-Length` says so). Only a 200 answer is a logo.
    package static func verifiedFetch(allowedHost: String, maximumBytes: Int, pinning: CertificatePinning, logger: Logger) -> Fetch {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 30
        configuration.timeoutIntervalForResource = 120
        let evaluator = ServerTrustEvaluator(pinning: pinning, environment: .production, redirects: .httpsHosts([allowedHost]), logger: logger)
        let downloader = BoundedDownloader(
            evaluator: evaluator, maximumBytes: maximumBytes, configuration: configuration, contentTypes: LogoImage.contentTypes)
        return { url in
            if let refusal = evaluator.refusalBeforeSending(to: url, transportChecksConnections: ServerTrustEvaluator.checksConnections) {
                evaluator.log(refusal)
                throw refusal
            }
            do {
                return try await downloader.data(from: url)
            } catch BoundedDownloadError.tooLarge(let limit) {
                throw Failure.tooLarge(bytes: limit + 1, limit: limit)
            } catch BoundedDownloadError.status(let status) {
                throw Failure.status(status)
            } catch BoundedDownloadError.contentType(let type) {
                throw Failure.notAnImageType(type)
            }
        }
    }

    /// The cache file name for a logo URL.
    package static func fileName(for url: String) -> String {
        let encoded = Data(url.utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        guard encoded.utf8.count > 240 else { return encoded + ".png" }
        // FNV-1a, 64 bits, over the whole URL.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in url.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return String(encoded.prefix(200)) + "-" + String(hash, radix: 16) + ".png"
    }

    private func file(for url: String) -> URL { folder.appendingPathComponent(Self.fileName(for: url)) }

    /// Whether the logo for `url` is on disk (without reading it).
    package func isCached(_ url: String) -> Bool {
        FileManager.default.fileExists(atPath: file(for: url).path)
    }

    /// The cached logo for `url`, from disk only; nil when not cached. A
    /// read marks the logo used, so the bound evicts it last. A file that
    /// is not a logo (kept by a version that did not check) is deleted.
    package func cachedLogo(for url: String) -> Data? {
        let path = file(for: url).path
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        guard (try? LogoImage.check(data)) != nil else {
            try? FileManager.default.removeItem(atPath: path)
            return nil
        }
        utimes(path, nil)
        return data
    }

    /// The logo for `url`: from the cache when there, else fetched and
    /// stored (written atomically, so a reader never sees half a logo),
    /// then the cache trimmed to its bound.
    @discardableResult
    package func logo(for url: String) async throws -> Data {
        if let cached = cachedLogo(for: url) { return cached }
        let data = try await fetchRecordingFailure(url)
        trim(keeping: Self.fileName(for: url))
        return data
    }

    private func fetchAndStore(_ url: String) async throws -> Data {
        guard let parsed = URL(string: url), parsed.scheme?.lowercased() == "https", parsed.host?.lowercased() == allowedHost.lowercased(),
            parsed.port == nil || parsed.port == 443
        else { throw Failure.notAnAssetURL(url) }
        let data = try await fetch(parsed)
        guard data.count <= maximumLogoBytes else { throw Failure.tooLarge(bytes: data.count, limit: maximumLogoBytes) }
        // An image of bounded size, whatever fetched it: Contacts decodes it.
        _ = try LogoImage.check(data)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try data.write(to: file(for: url), options: .atomic)
        return data
    }

    /// Fetches logos not cached yet until the cache holds ``maximumBytes``
    /// (the rest wait for room: fetching them would evict others); a URL
    /// whose download failed is skipped until its retry is due, and a
    /// failure is recorded for the backoff. Returns how many were fetched.
    @discardableResult
    package func prefetch(_ urls: some Sequence<String>) async -> Int {
        var fetched = 0
        var total = totalBytes()
        let now = self.now()
        for url in urls where !isCached(url) {
            guard total < maximumBytes else { break }
            guard isDue(url, at: now), let data = await fetchIfIdle(url) else { continue }
            fetched += 1
            total += data.count
        }
        if total > maximumBytes { trim() }
        return fetched
    }

    /// Downloads failed and waiting for a retry (URLs that can never be
    /// fetched not counted).
    package var pendingRetries: Int {
        failures.withLock { $0.values.filter { $0.retryAt != .distantFuture }.count }
    }

    /// Keeps one retry scheduled while failed downloads wait: at the
    /// earliest one's time, ``prefetch(_:)`` runs over `urls()` (the logo
    /// URLs the store names then), and again after that while any is still
    /// failing. Ends when none is pending, or when the cache is released.
    package func retryFailed(urls: @escaping @Sendable () -> [String]) {
        retry.withLock { task in
            guard task == nil else { return }
            task = Task { [weak self] in
                while !Task.isCancelled {
                    guard let due = self?.nextRetry() else { break }
                    guard let clock = self?.clock else { break }
                    let wait = max(0, due.timeIntervalSince(clock.now()))
                    if wait > 0 {
                        do { try await clock.sleep(.seconds(wait)) } catch { break }
                    }
                    guard let cache = self else { return }
                    await cache.prefetch(urls())
                }
                self?.retry.withLock { $0 = nil }
            }
        }
    }

    /// Fetches the logo for `url` in the background when it is neither
    /// cached nor failing (a ring-time read that found it missing); the
    /// fetch waits for the call to end like every download.
    package func fetchSoon(_ url: String) {
        guard !isCached(url), isDue(url, at: now()) else { return }
        Task { [weak self] in
            guard let self, await self.fetchIfIdle(url) != nil else { return }
            self.trim(keeping: Self.fileName(for: url))
        }
    }

    /// Fetches `url` (recording a failure for the backoff) unless another
    /// fetch of it is running, whichever asked (a read at ring time, a
    /// prefetch, the retry): one download per logo at a time. Nil when it
    /// failed or another fetch had it.
    private func fetchIfIdle(_ url: String) async -> Data? {
        guard inFlight.withLock({ $0.insert(url).inserted }) else { return nil }
        defer { _ = inFlight.withLock { $0.remove(url) } }
        // A fetch that finished since the caller looked has stored it.
        if let stored = cachedLogo(for: url) { return stored }
        return try? await fetchRecordingFailure(url)
    }

    private func isDue(_ url: String, at now: Date) -> Bool {
        failures.withLock { $0[url].map { $0.retryAt <= now } ?? true }
    }

    private func nextRetry() -> Date? {
        failures.withLock { $0.values.map(\.retryAt).filter { $0 != .distantFuture }.min() }
    }

    /// `fetchAndStore`, remembering a failure for the backoff and forgetting it on success.
    private func fetchRecordingFailure(_ url: String) async throws -> Data {
        do {
            let data = try await fetchAndStore(url)
            failures.withLock { $0[url] = nil }
            return data
        } catch {
            let permanent: Bool
            switch error {
            // What the server sent is not a logo: asking again brings the same bytes.
            case Failure.notAnAssetURL, Failure.tooLarge, Failure.notAnImageType, Failure.notAnImage, Failure.tooManyPixels: permanent = true
            default: permanent = false
            }
            failures.withLock { failures in
                let attempts = (failures[url]?.attempts ?? 0) + 1
                let delay = retryBackoff.delay(forRetry: attempts) { Double.random(in: ($0.upperBound / 2)...$0.upperBound) }
                failures[url] = FailedFetch(attempts: attempts, retryAt: permanent ? .distantFuture : now().addingTimeInterval(delay.totalSeconds))
            }
            throw error
        }
    }

    // MARK: Bounds

    /// The cached files: name, size, last use.
    private func entries() -> [(name: String, bytes: Int, used: Date)] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [] }
        return names.compactMap { name in
            // Files being written (`.atomic` writes a temporary beside the logo) are not logos yet.
            guard name.hasSuffix(".png") else { return nil }
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(name).path) else { return nil }
            let bytes = (attributes[.size] as? NSNumber)?.intValue ?? 0
            return (name, bytes, attributes[.modificationDate] as? Date ?? .distantPast)
        }
    }

    /// The bytes all cached logos take.
    package func totalBytes() -> Int {
        entries().reduce(0) { $0 + $1.bytes }
    }

    /// Deletes the least recently used logos until the cache holds at most
    /// ``maximumBytes``, never the one named `keeping`; returns how many
    /// were deleted.
    @discardableResult
    package func trim(keeping: String? = nil) -> Int {
        var all = entries()
        var total = all.reduce(0) { $0 + $1.bytes }
        guard total > maximumBytes else { return 0 }
        all.sort { ($0.used, $0.name) < ($1.used, $1.name) }
        var removed = 0
        for entry in all where total > maximumBytes && entry.name != keeping {
            guard (try? FileManager.default.removeItem(at: folder.appendingPathComponent(entry.name))) != nil else { continue }
            total -= entry.bytes
            removed += 1
        }
        return removed
    }

    /// Deletes every cached logo whose URL is not in `urls` (the logo URLs
    /// the store still names: the others belonged to purged or changed
    /// records); returns how many were deleted.
    @discardableResult
    package func removeLogos(except urls: some Sequence<String>) -> Int {
        let kept = Set(urls.lazy.map(Self.fileName(for:)))
        var removed = 0
        for entry in entries() where !kept.contains(entry.name) {
            if (try? FileManager.default.removeItem(at: folder.appendingPathComponent(entry.name))) != nil { removed += 1 }
        }
        return removed
    }

    /// Removes every cached logo.
    package func clear() throws {
        guard FileManager.default.fileExists(atPath: folder.path) else { return }
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            try FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        }
    }
}
