import Foundation

#if canImport(CFNetwork) && canImport(Darwin)
import CFNetwork

extension ProxySettings {
    /// Whether the system routes `url` through a proxy (CFNetwork's view).
    static func systemProxyConfigured(for url: URL) -> Bool {
        guard let settings = CFNetworkCopySystemProxySettings()?.takeRetainedValue() else { return false }
        let proxies = CFNetworkCopyProxiesForURL(url as CFURL, settings).takeRetainedValue() as? [[String: Any]] ?? []
        return proxies.contains { ($0[kCFProxyTypeKey as String] as? String) != (kCFProxyTypeNone as String) }
    }
}
#else
extension ProxySettings {
    /// No system proxy settings exist here; the environment is all there is.
    static func systemProxyConfigured(for url: URL) -> Bool { false }
}
#endif
