import Foundation

/// Whether a package's manifest applies the build plugin to a target: the
/// command plugin must not write a client into such a target, whose build
/// would then have two producers of `Client.swift` (SwiftPM's "multiple
/// producers" error, one build later, naming neither plugin).
///
/// PackagePlugin tells a command plugin nothing of the plugins a target
/// applies, so the manifest's text is read: the declaration of the target
/// (from its `.target(` to the matching parenthesis, strings and comments
/// skipped) that names it, and whether that declaration mentions the build
/// plugin.
enum ManifestPluginUsage {
    /// The build plugin's name as a manifest spells it.
    static let buildPluginName = "ClientgenBuildPlugin"

    /// Whether a manifest in `packageFolder` (`Package.swift` or a
    /// `Package@swift-*.swift`) applies the build plugin to `targetName`.
    static func appliesBuildPlugin(packageFolder: URL, targetName: String) -> Bool {
        let manager = FileManager.default
        let names = ((try? manager.contentsOfDirectory(atPath: packageFolder.path)) ?? [])
            .filter { $0 == "Package.swift" || ($0.hasPrefix("Package@swift-") && $0.hasSuffix(".swift")) }
        return names.contains { name in
            guard let text = try? String(contentsOf: packageFolder.appendingPathComponent(name), encoding: .utf8) else { return false }
            return declarations(in: text).contains { $0.contains("\"\(targetName)\"") && declaredName($0) == targetName && $0.contains(buildPluginName) }
        }
    }

    /// The text of each target declaration (`.target(...)`,
    /// `.executableTarget(...)`, `.testTarget(...)`) of a manifest.
    static func declarations(in text: String) -> [String] {
        let scalars = Array(text.unicodeScalars)
        let openers = [".target(", ".executableTarget(", ".testTarget("].map { Array($0.unicodeScalars) }
        var found: [String] = []
        var index = 0
        while index < scalars.count {
            if scalars[index] == ".", let opener = openers.first(where: { scalars[index...].starts(with: $0) }),
                let end = matchingParenthesis(in: scalars, after: index + opener.count)
            {
                var declaration = String.UnicodeScalarView()
                declaration.append(contentsOf: scalars[(index + opener.count)..<end])
                found.append(String(declaration))
            }
            index += 1
        }
        return found
    }

    /// The `name:` of a declaration's text.
    static func declaredName(_ declaration: String) -> String? {
        guard let label = declaration.range(of: "name:") else { return nil }
        let rest = declaration[label.upperBound...].drop { $0 == " " || $0 == "\n" || $0 == "\t" }
        guard rest.first == "\"" else { return nil }
        return String(rest.dropFirst().prefix { $0 != "\"" })
    }

    /// The index of the `)` that closes a call whose arguments start at
    /// `start`, skipping string literals and comments.
    private static func matchingParenthesis(in scalars: [Unicode.Scalar], after start: Int) -> Int? {
        var depth = 1
        var index = start
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\"" {
                index += 1
                while index < scalars.count, scalars[index] != "\"" {
                    index += scalars[index] == "\\" ? 2 : 1
                }
            } else if scalar == "/", index + 1 < scalars.count, scalars[index + 1] == "/" {
                while index < scalars.count, scalars[index] != "\n" { index += 1 }
            } else if scalar == "/", index + 1 < scalars.count, scalars[index + 1] == "*" {
                index += 2
                while index + 1 < scalars.count, !(scalars[index] == "*" && scalars[index + 1] == "/") { index += 1 }
                index += 1
            } else if scalar == "(" {
                depth += 1
            } else if scalar == ")" {
                depth -= 1
                if depth == 0 { return index }
            }
            index += 1
        }
        return nil
    }
}
