/// Where the app stands, as the system tells it (SwiftUI's `ScenePhase`,
/// named here so the rule below is plain Swift the tests run).
public enum AppActivity: Sendable, Hashable, CaseIterable {
    /// In the foreground, taking input.
    case active
    /// On its way to or from the background (the app switcher is open, a
    /// call came in): iOS takes the app switcher's snapshot now.
    case inactive
    /// In the background.
    case background
}

/// What the app switcher may show of a screen. iOS keeps a snapshot of the
/// app as it leaves the foreground and shows it in the app switcher, on
/// the device and in screen recordings: a screen of a user's balances and
/// transactions is covered whenever the app is not active, so the snapshot
/// shows the cover, not the figures.
public enum AppSwitcherCover {
    /// Whether a screen is covered: one showing finances, whenever the app
    /// is not active.
    public static func covers(showingFinances: Bool, activity: AppActivity) -> Bool {
        showingFinances && activity != .active
    }
}
