#if canImport(CFNetwork) && canImport(Darwin)
import CFNetwork
import Foundation

/// The system's proxy settings (CFNetwork's view), for
/// `ProxySettings.isProxyConfigured(for:)`.
///
/// An Apple adapter: this file imports only Foundation and CFNetwork, so
/// `make ios-check` type-checks it for iOS on its own.
enum SystemProxy {
    /// Whether the system routes `url` through a proxy.
    static func isConfigured(for url: URL) -> Bool {
        guard let settings = CFNetworkCopySystemProxySettings()?.takeRetainedValue() else { return false }
        let proxies = CFNetworkCopyProxiesForURL(url as CFURL, settings).takeRetainedValue() as? [[String: Any]] ?? []
        return proxies.contains { ($0[kCFProxyTypeKey as String] as? String) != (kCFProxyTypeNone as String) }
    }
}
#endif
