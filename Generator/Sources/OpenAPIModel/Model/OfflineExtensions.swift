/// `x-cache` on an operation: whether the runtime's response cache may keep
/// the operation's responses, and how long one stays fresh when the server
/// does not say.
///
/// - absent or `true`: a GET is cached as its response headers allow
///   (`Cache-Control`, `ETag`, `Last-Modified`);
/// - `false`: never cached;
/// - `{max-age: 60}`: cached, and fresh for 60 s when the response carries
///   no freshness of its own.
///
/// Only GET responses are cached; the extension on another method is
/// reported (`invalid-x-cache`) and ignored.
public enum CacheExtension: Sendable, Hashable {
    /// The response headers decide (the default for a GET).
    case byHeaders
    /// Never cached.
    case never
    /// Cached, fresh for this many seconds unless the server says otherwise.
    case maxAge(seconds: Int)

    /// The extension's name.
    public static let extensionName = "x-cache"

    /// What the operation's extension asks for: `byHeaders` when it is
    /// absent or unusable (the load reported why).
    public static func read(_ operation: Operation, method: HTTPMethod) -> CacheExtension {
        guard method == .get, let value = operation.extensions[extensionName] else { return .byHeaders }
        if case .bool(let cached) = value { return cached ? .byHeaders : .never }
        return maxAge(value).map { .maxAge(seconds: $0) } ?? .byHeaders
    }

    /// The seconds of `{max-age: N}`, or nil when `value` is not that shape.
    public static func maxAge(_ value: JSONValue) -> Int? {
        guard case .object(let fields) = value, fields.count == 1, let seconds = fields["max-age"] else { return nil }
        switch seconds {
        case .int(let whole) where whole >= 0: return whole
        case .double(let number) where number >= 0 && number.rounded() == number && number <= Double(Int32.max): return Int(number)
        default: return nil
        }
    }
}

/// `x-offline-queue: true` on a write: the app may store the request while
/// the device is offline and send it once connectivity returns. The runtime
/// still never sends twice what the server does not deduplicate.
public enum OfflineQueueExtension {
    /// The extension's name.
    public static let extensionName = "x-offline-queue"
    /// The methods that only read: never queued.
    public static let readMethods: Set<HTTPMethod> = [.get, .head, .options, .trace]

    /// Whether the operation is queueable: `true` on a method that is not a
    /// read (on a read the load reported it and it is ignored).
    public static func read(_ operation: Operation, method: HTTPMethod) -> Bool {
        guard case .bool(true)? = operation.extensions[extensionName] else { return false }
        return !readMethods.contains(method)
    }
}
