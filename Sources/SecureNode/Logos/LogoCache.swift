import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Brand logos on disk, fetched ahead of time (after a sync) from the
/// assets host and read locally at ring time: ``cachedLogo(for:)`` never
/// touches the network.
///
/// Each logo is a file named by the URL's base64 (URL-safe alphabet, no
/// padding) and `.png`, as the iOS SDK names them, so names are unique per
/// URL and safe on every file system; a URL too long for a file name keeps
/// a 200-character prefix of its base64 plus a 64-bit hash of the whole URL.
public final class LogoCache: Sendable {
    /// Fetches a URL's bytes.
    public typealias Fetch = @Sendable (URL) async throws -> Data

    /// Why a logo was not fetched.
    public enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// The URL is not `https` on the assets host.
        case notAnAssetURL(String)
        /// The server answered with a status other than 200.
        case status(Int)

        /// What went wrong.
        public var description: String {
            switch self {
            case .notAnAssetURL(let url): return "not fetched: \(url) is not an https URL on the logo assets host"
            case .status(let status): return "logo fetch failed with status \(status)"
            }
        }
    }

    /// The folder the logos live in.
    public let folder: URL
    private let allowedHost: String
    private let fetch: Fetch

    /// A cache in `folder` for logos on `allowedHost`, fetched with `fetch`
    /// (URLSession by default).
    public init(folder: URL, allowedHost: String = "assets.securenode.io", fetch: Fetch? = nil) {
        self.folder = folder
        self.allowedHost = allowedHost
        self.fetch = fetch ?? Self.urlSessionFetch
    }

    private static let urlSessionFetch: Fetch = { url in
        let (data, response) = try await URLSession.shared.data(from: url)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard status == 200 else { throw Failure.status(status) }
        return data
    }

    /// The cache file name for a logo URL.
    public static func fileName(for url: String) -> String {
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
    public func isCached(_ url: String) -> Bool {
        FileManager.default.fileExists(atPath: file(for: url).path)
    }

    /// The cached logo for `url`, from disk only; nil when not cached.
    public func cachedLogo(for url: String) -> Data? {
        try? Data(contentsOf: file(for: url))
    }

    /// The logo for `url`: from the cache when there, else fetched and
    /// stored (written atomically, so a reader never sees half a logo).
    @discardableResult
    public func logo(for url: String) async throws -> Data {
        if let cached = cachedLogo(for: url) { return cached }
        guard let parsed = URL(string: url), parsed.scheme == "https", parsed.host == allowedHost else { throw Failure.notAnAssetURL(url) }
        let data = try await fetch(parsed)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try data.write(to: file(for: url), options: .atomic)
        return data
    }

    /// Fetches every logo not cached yet; failures are skipped (the next
    /// prefetch tries again). Returns how many were fetched.
    @discardableResult
    public func prefetch(_ urls: some Sequence<String>) async -> Int {
        var fetched = 0
        for url in urls where !isCached(url) {
            if (try? await logo(for: url)) != nil { fetched += 1 }
        }
        return fetched
    }

    /// Removes every cached logo.
    public func clear() throws {
        guard FileManager.default.fileExists(atPath: folder.path) else { return }
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            try FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        }
    }
}
