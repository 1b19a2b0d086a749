import Foundation
import RuntimeSupport

/// Where a response came from, as the caller of a cached operation sees it.
public enum ResponseSource: Sendable, Hashable {
    /// From the server, in full.
    case network
    /// From the cache after the server confirmed it unchanged (a `304`).
    case revalidated
    /// From the cache without reaching the server: still fresh, or stale
    /// because the device is offline or the request failed on the network.
    /// `age` is how old the stored response is (RFC 9111 section 4.2.3).
    case cache(age: Duration)

    /// Whether the server was reached for this response.
    public var reachedServer: Bool {
        if case .cache = self { return false }
        return true
    }

    /// How old the response is: zero for one the server sent or confirmed
    /// just now.
    public var age: Duration {
        if case .cache(let age) = self { return age }
        return .zero
    }

    /// `network`, `revalidated` or `cache`: the case's name, for logs and
    /// command-line output.
    public var label: String {
        switch self {
        case .network: return "network"
        case .revalidated: return "revalidated"
        case .cache: return "cache"
        }
    }
}

/// A value read through a response cache, with where it came from.
///
/// ```swift
/// let moods = try await soul.listMoods()
/// if case .cache(let age) = moods.source { showBanner("offline, \(age) old") }
/// ```
public struct CachedResponse<Value: Sendable>: Sendable {
    /// The value.
    public let value: Value
    /// Where it came from.
    public let source: ResponseSource

    /// Creates a response.
    package init(value: Value, source: ResponseSource) {
        self.value = value
        self.source = source
    }

    /// How old the value is: zero for a response the server sent or
    /// confirmed just now.
    public var age: Duration { source.age }
}

/// Tells a call site where the response of the calls it makes came from:
/// ``ResponseCacheMiddleware`` reports into the recording the current task
/// opened, so the value a generated client returns can be paired with its
/// source without changing the client's signature.
///
/// ```swift
/// let (moods, source) = try await ResponseSourceRecording.record { try await client.listMoods() }
/// ```
public enum ResponseSourceRecording {
    /// The box of the recording the current task opened.
    @TaskLocal static var current: Box?

    /// Runs `call` and returns its value with the source the cache reported
    /// for the last response it read (``ResponseSource/network`` when no
    /// cache was involved).
    public static func record<Value: Sendable>(_ call: () async throws -> Value) async throws -> (Value, ResponseSource) {
        let box = Box()
        let value = try await $current.withValue(box) { try await call() }
        return (value, box.source.withLock { $0 } ?? .network)
    }

    /// Records `source` for the current recording, if one is open.
    static func report(_ source: ResponseSource) {
        current?.source.withLock { $0 = source }
    }

    /// A recording's result, written by the middleware and read once the call returns.
    final class Box: Sendable {
        let source = Locked<ResponseSource?>(nil)
    }
}
