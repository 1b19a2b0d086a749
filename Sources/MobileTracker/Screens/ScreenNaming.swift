import Foundation

/// The screen name automatic tracking gives a view controller, from its
/// type's name as `String(reflecting:)` spells it (`MyApp.CartViewController`
/// becomes `Cart`), and for SwiftUI's hosting controllers from the root
/// view's type or the navigation title. Platform-independent, so the rules
/// are tested everywhere; the UIKit hook also skips container controllers by
/// class (navigation, tab bar, split view, page view) whatever their names.
enum ScreenNaming {
    /// The name to track, or nil for a controller that is not a screen of
    /// the app: UIKit's and SwiftUI's own controllers, and private ones
    /// (`_`-prefixed). A SwiftUI hosting controller is named by its root
    /// view's type when the type name shows it
    /// (`UIHostingController<MyApp.CartView>` is `Cart`), else by `title`,
    /// its navigation title (SwiftUI's `.navigationTitle`), else not at all.
    static func automaticName(typeName: String, title: String? = nil) -> String? {
        let plain = typeName.split(separator: "<", maxSplits: 1).first.map(String.init) ?? typeName
        let parts = plain.split(separator: ".")
        guard let last = parts.last.map(String.init), !last.isEmpty else { return nil }
        // `__C` is the runtime's module for imported Objective-C classes.
        let module = parts.count > 1 && parts[0] != "__C" ? String(parts[0]) : nil
        if last.contains("HostingController") { return hostedName(typeName: typeName, title: title) }
        if last.hasPrefix("_") { return nil }
        if module == "UIKit" || module == "SwiftUI" { return nil }
        // Objective-C classes have no module: UIKit's own start with `UI`.
        if module == nil, last.hasPrefix("UI") { return nil }
        return strip(last, suffixes: ["ViewController", "Controller"])
    }

    /// A hosted SwiftUI screen's name: the first type of the app's own among
    /// the hosting controller's generic arguments, without a `View` or
    /// `Screen` suffix; else the navigation title; nil when neither reads
    /// (a type-erased `AnyView` root without a title).
    static func hostedName(typeName: String, title: String?) -> String? {
        if let open = typeName.firstIndex(of: "<") {
            let arguments = typeName[typeName.index(after: open)...]
            let names = arguments.split(whereSeparator: { "<>, ".contains($0) })
            for name in names {
                let parts = name.split(separator: ".")
                guard parts.count > 1, let last = parts.last, !last.hasPrefix("_") else { continue }
                let module = parts[0]
                if module == "SwiftUI" || module == "Swift" || module == "Foundation" || module == "__C" { continue }
                return strip(String(last), suffixes: ["View", "Screen"])
            }
        }
        guard let title = title?.trimmingCharacters(in: .whitespacesAndNewlines), !title.isEmpty else { return nil }
        return title
    }

    /// `name` without the first of `suffixes` it ends with (unless that is all of it).
    static func strip(_ name: String, suffixes: [String]) -> String {
        guard let suffix = suffixes.first(where: name.hasSuffix), name.count > suffix.count else { return name }
        return String(name.dropLast(suffix.count))
    }
}
