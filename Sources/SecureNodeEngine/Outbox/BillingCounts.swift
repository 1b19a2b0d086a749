/// What the billing outbox holds and has done, kept across restarts
/// (``SecureNodeEngine/billingCounts()``).
public struct BillingCounts: Sendable, Hashable {
    /// Events waiting for delivery.
    public var pending: Int
    /// Events the server accepted.
    public var delivered: Int
    /// Events the server refused for good (dropped).
    public var dropped: Int

    /// Creates counts.
    package init(pending: Int, delivered: Int, dropped: Int) {
        self.pending = pending
        self.delivered = delivered
        self.dropped = dropped
    }
}
