// What an app that writes `import Safepocket` and nothing else needs besides
// Safepocket's own API: the generated client's types (SafepocketAPI, with the
// runtime it re-exports) and the runtime types Safepocket's API takes and
// returns (Resilience and SDKCore: the connection settings, pinning, timeouts, retry
// policies, token stores, the response cache).
@_exported import Resilience
@_exported import SDKCore
@_exported import SafepocketAPI
