// An Apple adapter's seam: this file imports nothing, so the SwiftUI
// adapter `TrackedScreenModifier` is type-checked for iOS with it alone.

/// What reports a screen view for a SwiftUI view that appeared:
/// `MobileTracker` (a `VIEW_PAGE` event, a repeat of the last screen
/// dropped). SwiftUI's `.trackedScreen(_:in:)` takes one.
public protocol ScreenViewReporting: Sendable {
    /// Reports that the screen `name` appeared; returns at once (the event
    /// is tracked in the background).
    func reportScreenView(_ name: String)
}
