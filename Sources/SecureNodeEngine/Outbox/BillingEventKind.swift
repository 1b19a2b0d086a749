/// Which endpoint a billing event goes to.
public enum BillingEventKind: String, Sendable, Hashable {
    /// `POST /branding/imprint`.
    case imprint
    /// `POST /branding/event`.
    case callEvent = "event"
}
