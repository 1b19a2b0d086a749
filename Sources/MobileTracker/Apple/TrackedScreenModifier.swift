#if canImport(SwiftUI)
import SwiftUI

// ios-check: with ../Screens/ScreenViewReporting.swift

extension View {
    /// Tracks each appearance of this view as the screen `name` (a
    /// `VIEW_PAGE` event with `screen: name`; the same screen twice in a row
    /// is tracked once): one line for a SwiftUI screen automatic tracking
    /// cannot name (a hosting controller whose root view is type-erased and
    /// that has no navigation title).
    ///
    /// ```swift
    /// CartView().trackedScreen("Cart", in: MobileTracker.shared)
    /// ```
    ///
    /// An Apple adapter: this file imports only SwiftUI, so `make ios-check`
    /// type-checks it for iOS on its own (with the seam named above).
    public func trackedScreen(_ name: String, in tracker: some ScreenViewReporting) -> some View {
        onAppear { tracker.reportScreenView(name) }
    }
}
#endif
