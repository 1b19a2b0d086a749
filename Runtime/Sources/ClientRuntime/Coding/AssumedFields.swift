import Foundation

/// A response field the spec marks a guess (`x-assumed: true`) that did not
/// arrive as guessed: the generated client decoded it as `nil` and went on.
/// It names the type and field, never the value.
public struct AssumedFieldReport: Sendable, Equatable, CustomStringConvertible {
    /// How the answer differed from the guess.
    public enum Difference: Sendable, Equatable {
        /// The field was not there.
        case absent
        /// The field was `null`.
        case null
        /// The field held another type than the one guessed.
        case otherType(expected: String)
    }

    /// The generated type, module-qualified (`SoulAPI.Mood`).
    public let type: String
    /// The field's name on the wire (`created_at`).
    public let field: String
    /// How it differed.
    public let difference: Difference

    /// Creates a report.
    public init(type: String, field: String, difference: Difference) {
        self.type = type
        self.field = field
        self.difference = difference
    }

    /// `SoulAPI.Mood.created_at was absent, not as the spec assumed (x-assumed); it decodes as nil`.
    public var description: String {
        let what: String
        switch difference {
        case .absent: what = "was absent"
        case .null: what = "was null"
        case .otherType(let expected): what = "was not \(expected)"
        }
        return "\(type).\(field) \(what), not as the spec assumed (x-assumed); it decodes as nil"
    }
}

/// Where generated clients report the assumed fields that arrived otherwise
/// (``AssumedFieldReport``), and where an SDK or an app listens for them:
/// each observer hears of each field once, however many answers carry it.
///
/// ```swift
/// let observation = AssumedFields.shared.observe { report in logger.warning("\(report)") }
/// ```
public final class AssumedFields: Sendable {
    /// One observer: its handler, and the fields it has heard of.
    fileprivate struct Observer {
        let id: Int
        let handler: @Sendable (AssumedFieldReport) -> Void
        var heard: [String] = []
    }

    /// The process's reports: every generated client reports here.
    public static let shared = AssumedFields()

    private let observers = ObserverTable()

    /// A registry with no observer (tests; clients report to ``shared``).
    public init() {}

    /// Calls `handler` once for each assumed field that arrives otherwise
    /// from now on, for as long as the returned observation is kept.
    public func observe(_ handler: @escaping @Sendable (AssumedFieldReport) -> Void) -> AssumedFieldObservation {
        let id = observers.withLock { state in
            state.next += 1
            state.all.append(Observer(id: state.next, handler: handler))
            return state.next
        }
        return AssumedFieldObservation { [weak self] in self?.observers.withLock { $0.all.removeAll { $0.id == id } } }
    }

    /// Tells every observer that has not heard of this field yet.
    public func report(_ report: AssumedFieldReport) {
        let key = report.type + "." + report.field
        // Few observers, few fields: arrays, in the order observers came.
        let handlers = observers.withLock { state in
            state.all.indices.compactMap { index -> (@Sendable (AssumedFieldReport) -> Void)? in
                guard !state.all[index].heard.contains(key) else { return nil }
                state.all[index].heard.append(key)
                return state.all[index].handler
            }
        }
        for handler in handlers { handler(report) }
    }
}

/// The observers of an ``AssumedFields`` behind a lock.
///
/// `@unchecked Sendable` is safe because `state` is read and written only
/// inside `withLock`, under `lock`, and never escapes it.
private final class ObserverTable: @unchecked Sendable {
    private let lock = NSLock()
    private var state: (next: Int, all: [AssumedFields.Observer]) = (0, [])

    func withLock<Result>(_ body: (inout (next: Int, all: [AssumedFields.Observer])) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&state)
    }
}

/// Keeps an ``AssumedFields`` observer listening; it stops when this is released.
public final class AssumedFieldObservation: Sendable {
    private let stop: @Sendable () -> Void

    init(stop: @escaping @Sendable () -> Void) {
        self.stop = stop
    }

    deinit { stop() }
}

extension KeyedDecodingContainer {
    /// Decodes a field the spec marks a guess (`x-assumed`): the value when it
    /// is there as guessed, otherwise `nil`, reported to
    /// ``AssumedFields/shared`` (absent or `null` only when the spec
    /// `required` it; another type always). What generated clients call.
    ///
    /// Inlinable, so that each call site is specialised for its type and
    /// reaches the decoder's own method for a JSON scalar (a string, a
    /// number, a boolean) instead of the generic one, which decodes the
    /// scalar through a nested decoder: the cost of every guessed field of
    /// every answer.
    @inlinable
    public func decodeAssumed<T: Decodable>(_ type: T.Type, forKey key: Key, in owner: Any.Type, required: Bool) -> T? {
        // One lookup when the member is there as guessed, the usual case.
        do {
            if let value = try decodeScalarOrValueIfPresent(T.self, forKey: key) { return value }
        } catch {
            reportAssumed(.otherType(expected: String(describing: T.self)), forKey: key, in: owner)
            return nil
        }
        if required { reportAssumed(contains(key) ? .null : .absent, forKey: key, in: owner) }
        return nil
    }

    /// `decodeIfPresent`, through the container's concrete method when `T`
    /// is a JSON scalar (the branches fold away once specialised).
    @inlinable
    func decodeScalarOrValueIfPresent<T: Decodable>(_: T.Type, forKey key: Key) throws -> T? {
        if T.self == String.self { return try decodeIfPresent(String.self, forKey: key).map { $0 as! T } }
        if T.self == Int64.self { return try decodeIfPresent(Int64.self, forKey: key).map { $0 as! T } }
        if T.self == Int32.self { return try decodeIfPresent(Int32.self, forKey: key).map { $0 as! T } }
        if T.self == Int.self { return try decodeIfPresent(Int.self, forKey: key).map { $0 as! T } }
        if T.self == Double.self { return try decodeIfPresent(Double.self, forKey: key).map { $0 as! T } }
        if T.self == Float.self { return try decodeIfPresent(Float.self, forKey: key).map { $0 as! T } }
        if T.self == Bool.self { return try decodeIfPresent(Bool.self, forKey: key).map { $0 as! T } }
        return try decodeIfPresent(T.self, forKey: key)
    }

    /// Tells ``AssumedFields/shared`` of a guessed field that arrived otherwise.
    @usableFromInline
    func reportAssumed(_ difference: AssumedFieldReport.Difference, forKey key: Key, in owner: Any.Type) {
        AssumedFields.shared.report(AssumedFieldReport(type: String(reflecting: owner), field: key.stringValue, difference: difference))
    }
}
