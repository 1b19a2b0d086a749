import Foundation

/// Server URLs point an app at a host: a spec's must be web addresses the
/// client can reach safely. Checked with every variable at its default,
/// the URL the generated `Client.Server` case holds.
extension LoadSession {
    /// Reports a server URL that is not `http(s)` (`javascript:`, `file:`),
    /// does not parse as a URL, or sends in the clear to a host other than
    /// this machine.
    func checkServerURL(_ server: Server, at node: Node) {
        guard !server.url.isEmpty else { return }
        let url = Self.expanded(server)
        let at = node.child("url") ?? node
        let shown = HiddenCharacters.visible(url)
        switch Self.webAddressProblem(url) {
        case .scheme(let scheme)?:
            report(
                .invalidServerURL, "the server URL '\(shown)' has the scheme '\(scheme):'; a client sends requests over http or https only",
                at: at, hint: "write an https:// URL, or a path relative to the spec (such as '/v1')")
        case .notURL?:
            report(
                .invalidServerURL, "the server URL '\(shown)' is not a URL (with its variables at their defaults)", at: at,
                hint: "percent-encode spaces and other characters a URL cannot hold, such as '%20' for a space")
        case .cleartext(let host)?:
            report(
                .insecureServerURL, "the server URL '\(shown)' sends requests, and any credentials, unencrypted to '\(host)'", at: at,
                hint: "use https://; plain http is for this machine only (localhost, 127.0.0.1, ::1)")
        case nil: break
        }
    }

    /// Reports an OAuth or OpenID Connect URL (`tokenUrl`,
    /// `deviceAuthorizationUrl`, `oauth2MetadataUrl`, ...) that would send
    /// codes, tokens or credentials in the clear, or that is no web address;
    /// a relative URL (resolved against the server) is fine.
    func checkAuthURL(_ url: String?, field: String, at node: Node?) {
        guard let url, let node, !url.isEmpty else { return }
        let shown = HiddenCharacters.visible(url)
        switch Self.webAddressProblem(url) {
        case .scheme(let scheme)?:
            report(
                .insecureAuthURL, "\(field) '\(shown)' has the scheme '\(scheme):'; an authorization server is reached over https",
                at: node, hint: "write the server's https:// URL")
        case .notURL?:
            report(
                .insecureAuthURL, "\(field) '\(shown)' is not a URL", at: node,
                hint: "write the server's https:// URL, percent-encoding what a URL cannot hold ('%20' for a space)")
        case .cleartext(let host)?:
            report(
                .insecureAuthURL, "\(field) '\(shown)' sends codes, tokens and credentials unencrypted to '\(host)'",
                at: node, hint: "use https:// (RFC 6749 and RFC 8628 require TLS); plain http is for this machine only (localhost, 127.0.0.1, ::1)")
        case nil: break
        }
    }

    /// What keeps a URL from being a web address a client may send to:
    /// a scheme other than http(s), characters no URL holds, or plain http
    /// to a host other than this machine. Nil for an https, loopback http or
    /// relative URL.
    private enum WebAddressProblem {
        case scheme(String)
        case notURL
        case cleartext(host: String)
    }

    private static func webAddressProblem(_ url: String) -> WebAddressProblem? {
        if let scheme = scheme(of: url), scheme != "http", scheme != "https" { return .scheme(scheme) }
        guard holdsOnlyURLCharacters(url), let parsed = URL(string: url) else { return .notURL }
        if parsed.scheme?.lowercased() == "http", let host = parsed.host, !isLoopback(host) { return .cleartext(host: host) }
        return nil
    }

    /// Reports a server of the document's list whose URL an earlier one has:
    /// the generated `Client.Server` enum would have two cases of one value.
    func checkDuplicateServers(_ servers: [Server], in node: Node) {
        var seen: [String: Int] = [:]
        let items = node.items
        for (index, server) in servers.enumerated() where !server.url.isEmpty {
            let url = Self.expanded(server)
            guard let first = seen[url] else {
                seen[url] = index
                continue
            }
            let at = index < items.count ? (items[index].child("url") ?? items[index]) : node
            report(
                .duplicateServerURL, "the server URL '\(HiddenCharacters.visible(url))' is the same as server \(first + 1)'s", at: at,
                hint: "remove one of them, or give them different URLs")
        }
    }

    /// Whether every character may stand in a URL as written (RFC 3986:
    /// unreserved, reserved, and `%` before two hex digits). `URL(string:)`
    /// percent-encodes a space or a quote by itself today, so it cannot say.
    private static func holdsOnlyURLCharacters(_ url: String) -> Bool {
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?#[]@!$&'()*+,;=".unicodeScalars)
        let scalars = Array(url.unicodeScalars)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "%" {
                guard index + 2 < scalars.count, scalars[index + 1].properties.isASCIIHexDigit, scalars[index + 2].properties.isASCIIHexDigit else {
                    return false
                }
                index += 3
                continue
            }
            guard allowed.contains(scalar) else { return false }
            index += 1
        }
        return true
    }

    /// The URL with each variable at its default.
    static func expanded(_ server: Server) -> String {
        var url = server.url
        for (name, variable) in server.variables {
            url = url.replacingOccurrences(of: "{\(name)}", with: variable.defaultValue)
        }
        return url
    }

    /// The scheme of an absolute URL (`https`, `javascript`), lowercased; nil for a relative one.
    private static func scheme(of url: String) -> String? {
        guard let colon = url.firstIndex(of: ":") else { return nil }
        let candidate = url[..<colon]
        guard let first = candidate.first, first.isASCII, first.isLetter,
            candidate.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == ".") })
        else { return nil }
        return candidate.lowercased()
    }

    /// Whether a host names this machine.
    private static func isLoopback(_ host: String) -> Bool {
        let host = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        return host == "localhost" || host.hasSuffix(".localhost") || host == "::1" || host.hasPrefix("127.")
    }
}
