/// A screen's logic in plain Swift: what the screen shows, as read-only
/// properties, and what the user can do, as methods. The Linux tests drive
/// each model against the sandbox's backends; the iOS app's SwiftUI view
/// observes it through ``onChange`` and draws it.
@MainActor
public protocol ScreenModel: AnyObject {
    /// Called after every change of what the screen shows.
    var onChange: (@MainActor () -> Void)? { get set }
}
