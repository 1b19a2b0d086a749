// What an app that writes `import Soul` and nothing else needs besides
// Soul's own API: the generated client's types (SoulAPI, with the
// runtime it re-exports) and the runtime types Soul's API takes and
// returns (Resilience and SDKCore: the connection settings, pinning, timeouts, retry
// policies, token stores, the response cache).
@_exported import Resilience
@_exported import SDKCore
@_exported import SoulAPI
