// What an app that writes `import SecureNode` and nothing else needs besides
// SecureNode's own API: the generated client's types (SecureNodeAPI, with the
// runtime it re-exports) and the runtime types SecureNode's API takes and
// returns (Resilience and SDKCore: the connection settings, pinning, timeouts, retry
// policies, token stores, the response cache).
@_exported import Resilience
@_exported import SDKCore
@_exported import SecureNodeAPI
