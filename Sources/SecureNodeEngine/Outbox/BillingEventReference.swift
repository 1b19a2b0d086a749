/// What a follow-up event can send for the billing event it refers to
/// (`SecureNodeEngine.waitForDelivery(of:upTo:)`).
package enum BillingEventReference: Sendable, Hashable {
    /// The earlier event was delivered; the server called it this.
    case delivered(eventID: String)
    /// The earlier event is still waiting for delivery.
    case pending
    /// The earlier event is unknown (dropped, or delivered without an id).
    case unknown
}
