import Foundation
import PackagePlugin

/// A target's folder. `Target.directoryURL` needs tools version 6.1 and the
/// package declares 6.0 (so toolchains from Swift 6.0 can use it); the 6.0
/// spelling, `directory`, is reached through this protocol so that its
/// deprecation in favour of `directoryURL` does not warn in every app that
/// builds the plugins.
protocol TargetFolder {
    var directory: Path { get }
}

extension SwiftSourceModuleTarget: TargetFolder {}
extension ClangSourceModuleTarget: TargetFolder {}

extension SourceModuleTarget {
    /// The folder that holds the target's sources.
    var folderURL: URL? {
        (self as? any TargetFolder).map { URL(fileURLWithPath: String(describing: $0.directory)) }
    }
}

/// The package's folder, reached the same way (`Package.directoryURL`
/// needs tools version 6.1).
protocol PackageFolder {
    var directory: Path { get }
}

extension Package: PackageFolder {}

extension PluginContext {
    /// `file`'s path inside the package (`Sources/PetsAPI/openapi.yaml`), as
    /// a generated file's header names its spec; the full path when it is
    /// outside.
    func pathInPackage(_ file: URL) -> String {
        let root = URL(fileURLWithPath: String(describing: (package as any PackageFolder).directory)).standardizedFileURL.path
        let path = file.standardizedFileURL.path
        return path.hasPrefix(root + "/") ? String(path.dropFirst(root.count + 1)) : path
    }
}
