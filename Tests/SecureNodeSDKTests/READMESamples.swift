import Foundation
import SecureNodeSDK

// The Swift samples of the SecureNode iOS SDK README, pasted unchanged,
// each inside a function and nothing else. If the README's API changes
// shape, this file stops compiling.

/// The README's "Quick Start".
func readmeQuickStart() {
SecureNode.configure(.init(
  apiURL: URL(string: "https://edge.securenode.io")!,
  apiKey: "your-api-key-here",
  appGroupId: "group.com.customer.app.securenode",
  callDirectoryExtensionBundleId: "com.customer.app.CallDirectoryExtension"
))
}

/// The README's "Call event reporting" sample.
func readmeCallEventSample(sdk: SecureNodeSDK) {
// Example: record seen, then use event_id for return attribution
sdk.recordCallSeen(
  phoneNumberE164: "+61412345678",
  brandingDisplayed: true,
  callOutcome: "ANSWERED",
  ringDurationSeconds: 12,
  callDurationSeconds: 180,
  callerNumberE164: "+61412345678",
  destinationNumberE164: "+61234567890"
) { result in
  if case .success(let resp) = result, let callId = resp.eventId {
    // Later, if user returns the call:
    sdk.recordCallReturned(phoneNumberE164: "+61412345678", callId: callId, returnCallLatencySeconds: 120)
  }
}
}
