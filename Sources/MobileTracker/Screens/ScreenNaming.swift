/// The screen name automatic tracking gives a view controller, from its
/// type's name as `String(reflecting:)` spells it (`MyApp.CartViewController`
/// becomes `Cart`). Platform-independent, so the rules are tested everywhere;
/// the UIKit hook also skips container controllers by class (navigation,
/// tab bar, split view, page view) whatever their names.
enum ScreenNaming {
    /// The name to track, or nil for a controller that is not a screen of
    /// the app: UIKit's and SwiftUI's own controllers (a SwiftUI app names
    /// its screens with `screen(name:)`), and private ones (`_`-prefixed).
    static func automaticName(typeName: String) -> String? {
        let plain = typeName.split(separator: "<", maxSplits: 1).first.map(String.init) ?? typeName
        let parts = plain.split(separator: ".")
        guard let last = parts.last.map(String.init), !last.isEmpty else { return nil }
        // `__C` is the runtime's module for imported Objective-C classes.
        let module = parts.count > 1 && parts[0] != "__C" ? String(parts[0]) : nil
        if last.hasPrefix("_") { return nil }
        if module == "UIKit" || module == "SwiftUI" || last.contains("HostingController") { return nil }
        // Objective-C classes have no module: UIKit's own start with `UI`.
        if module == nil, last.hasPrefix("UI") { return nil }
        guard let suffix = ["ViewController", "Controller"].first(where: last.hasSuffix), last.count > suffix.count else { return last }
        return String(last.dropLast(suffix.count))
    }
}
