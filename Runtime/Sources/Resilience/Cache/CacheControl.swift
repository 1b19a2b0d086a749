import Foundation

/// The `Cache-Control` directives a private (single-user) cache acts on
/// (RFC 9111 section 5.2), read from a request or a response.
package struct CacheControl: Sendable, Hashable {
    /// `no-store`: never write the response to the cache.
    package var noStore = false
    /// `no-cache`: the stored response must be revalidated before each use
    /// (served without the server only when the device is offline).
    package var noCache = false
    /// `max-age`: seconds the response stays fresh.
    package var maxAge: Int?
    /// `must-revalidate`: once stale, not used without the server (not even
    /// offline).
    package var mustRevalidate = false
    /// `private`: for one user only; kept only in a signed-in subject's
    /// partition, never in the anonymous one.
    package var isPrivate = false

    /// Reads the directives of every `Cache-Control` value (comma-separated,
    /// case-insensitive, unknown directives ignored). A malformed `max-age`
    /// counts as 0 (stale at once), as RFC 9111 section 4.2.1 advises.
    package init(_ values: [String]) {
        for directive in values.flatMap({ $0.split(separator: ",") }) {
            let parts = directive.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard let name = parts.first?.lowercased() else { continue }
            let argument = parts.count > 1 ? parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")) : nil
            switch name {
            case "no-store": noStore = true
            case "no-cache": noCache = true
            case "must-revalidate": mustRevalidate = true
            case "private": isPrivate = true
            case "max-age": maxAge = argument.flatMap { Int($0) }.map { max(0, $0) } ?? 0
            default: continue
            }
        }
    }
}
