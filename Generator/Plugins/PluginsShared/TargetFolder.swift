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
