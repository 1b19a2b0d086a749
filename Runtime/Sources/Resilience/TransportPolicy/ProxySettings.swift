import Foundation

/// Whether requests to a URL go through a proxy, in which case this device
/// never connects to the server itself and dialling it proves nothing.
enum ProxySettings {
    /// A proxy from the environment (`https_proxy`, `http_proxy` or
    /// `all_proxy`, in either case, unless `no_proxy` lists the host, as
    /// URLSession honours them on Linux) or, on Apple platforms, the
    /// system's settings.
    static func isProxyConfigured(for url: URL) -> Bool {
        isProxyConfigured(for: url, environment: ProcessInfo.processInfo.environment) || systemProxyConfigured(for: url)
    }

    /// The system's settings: CFNetwork's on Apple platforms (``SystemProxy``),
    /// none elsewhere.
    static func systemProxyConfigured(for url: URL) -> Bool {
        #if canImport(CFNetwork) && canImport(Darwin)
        return SystemProxy.isConfigured(for: url)
        #else
        return false
        #endif
    }

    static func isProxyConfigured(for url: URL, environment: [String: String]) -> Bool {
        func value(_ name: String) -> String? {
            let found = environment[name] ?? environment[name.uppercased()]
            return found?.isEmpty == false ? found : nil
        }
        let scheme = url.scheme?.lowercased() ?? "https"
        guard value("\(scheme)_proxy") != nil || value("all_proxy") != nil else { return false }
        let host = (url.host ?? "").lowercased()
        let exempt = (value("no_proxy") ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        return !exempt.contains { entry in
            guard !entry.isEmpty else { return false }
            if entry == "*" { return true }
            let suffix = entry.hasPrefix(".") ? String(entry.dropFirst()) : entry
            return host == suffix || host.hasSuffix("." + suffix)
        }
    }
}
