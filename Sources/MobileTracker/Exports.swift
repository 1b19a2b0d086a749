// What an app that writes `import MobileTracker` and nothing else needs besides
// MobileTracker's own API: the generated client's types (MobileTrackerAPI, with the
// runtime it re-exports) and the runtime types MobileTracker's API takes and
// returns (Resilience and SDKCore: the connection settings, pinning, timeouts, retry
// policies, token stores, the response cache).
@_exported import MobileTrackerAPI
@_exported import Resilience
@_exported import SDKCore
