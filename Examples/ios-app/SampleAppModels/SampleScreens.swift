/// The sample app's screens as MobileTracker names them: each tab's
/// navigation title, which SwiftUI gives the tab's hosting controller, and
/// automatic screen tracking reads (the tabs' roots are type-erased, so the
/// title is the one name it can read). A screen whose title would show the
/// user's data (a transaction's merchant) has a fixed title instead, so no
/// such data becomes a screen name.
public enum SampleScreens {
    /// SOUL's tab.
    public static let soul = "SOUL"
    /// Safepocket's tab.
    public static let safepocket = "Safepocket"
    /// SecureNode's tab.
    public static let callerID = "Caller ID"
    /// MobileTracker's tab.
    public static let tracking = "Tracking"
    /// Safepocket's transaction editor (a sheet): fixed, not the merchant's name.
    public static let transaction = "Transaction"
    /// Every tab, in the order the app shows them.
    public static let tabs = [soul, safepocket, callerID, tracking]
}
