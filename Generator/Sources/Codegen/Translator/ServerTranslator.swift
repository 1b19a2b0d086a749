import Foundation
import OpenAPIModel

/// Names the document's servers: the first word of the description
/// (`Staging. Runs with...` -> `staging`), else the host's first label
/// (`edge.example.com` -> `edge`), else `server1`.
enum ServerTranslator {
    /// The named base URLs of a document, variables at their defaults.
    static func servers(of document: OpenAPIDocument) -> [ServerDeclaration] {
        var names = NameScope(reserved: ["init", "url"])
        return document.servers.enumerated().map { index, server in
            var url = server.url
            for (name, variable) in server.variables {
                url = url.replacingOccurrences(of: "{\(name)}", with: variable.defaultValue)
            }
            let candidate = descriptionWord(server.description) ?? hostLabel(url) ?? "server\(index + 1)"
            return ServerDeclaration(name: names.claim(SwiftName.memberName(candidate)), url: url, documentation: Documentation.text(server.description))
        }
    }

    private static func descriptionWord(_ description: String?) -> String? {
        guard let description else { return nil }
        let word = description.prefix { $0.isLetter || $0.isNumber }
        return word.count >= 2 ? String(word) : nil
    }

    private static func hostLabel(_ url: String) -> String? {
        guard let schemeEnd = url.range(of: "://") else { return nil }
        let host = url[schemeEnd.upperBound...].prefix { $0 != "/" && $0 != ":" && $0 != "." }
        return host.isEmpty || host.allSatisfy(\.isNumber) ? nil : String(host)
    }
}
