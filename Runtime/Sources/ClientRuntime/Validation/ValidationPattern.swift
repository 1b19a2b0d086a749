import Foundation

/// A spec's `pattern`, compiled once and shared: generated clients hold one
/// per distinct pattern in a `static let`, so a process compiles each at most
/// once, on first use.
///
/// JSON Schema patterns are ECMA-262 regular expressions and are not
/// anchored: a value matches when the expression matches anywhere in it
/// (`^...$` in the pattern anchors it). They run on `NSRegularExpression`
/// (ICU), which reads the common ECMA-262 syntax the same way. A pattern it
/// cannot compile checks nothing: the generator reports it as the warning
/// `pattern-not-checked`, and a client never crashes on it.
///
/// A check takes at most ``timeLimit``: a pattern such as `^(a+)+$` can
/// take seconds on a few dozen characters (its matching time grows
/// exponentially with the input), and a spec is anyone's text. Matching
/// reports its progress (`NSRegularExpression`'s `reportProgress`, on Apple
/// platforms and in swift-corelibs-foundation alike) and is stopped there;
/// a value whose check ran out of time is refused as
/// ``ConstraintViolation/Rule/patternTimedOut(_:limit:)``, since it was not
/// shown to match. The generator names such patterns when it lints a spec
/// (`slow-pattern`).
public final class ValidationPattern: Sendable {
    /// What one check may take, in the processor time of the thread that
    /// runs it: matching a value stops here.
    public static let timeLimit: Duration = .milliseconds(50)

    /// How a check ended.
    public enum Outcome: Sendable, Hashable {
        /// The value matches (or the pattern does not compile here).
        case matches
        /// The value does not match.
        case doesNotMatch
        /// Matching was stopped at ``ValidationPattern/timeLimit``.
        case timedOut
    }

    /// The pattern as the spec writes it.
    public let source: String
    /// The compiled expression; nil when it does not compile here.
    ///
    /// `NSRegularExpression` is immutable after creation and documented as
    /// safe to use from several threads at once.
    private let expression: NSRegularExpressionBox?

    /// Compiles `source`; an expression that does not compile matches everything.
    public init(_ source: String) {
        self.source = source
        self.expression = (try? NSRegularExpression(pattern: source)).map(NSRegularExpressionBox.init)
    }

    /// Whether the pattern compiled (and so checks values).
    public var isCheckable: Bool { expression != nil }

    /// Whether `value` matches somewhere (true when the pattern does not
    /// compile; false when the check ran out of time).
    public func matches(_ value: String) -> Bool {
        check(value) == .matches
    }

    /// Checks `value` within `limit` (``timeLimit`` by default) of the
    /// calling thread's processor time: a thread the system pauses (a busy
    /// device, a test run beside others) does not use up its check.
    public func check(_ value: String, within limit: Duration = ValidationPattern.timeLimit) -> Outcome {
        guard let regex = expression?.regex else { return .matches }
        let range = NSRange(value.startIndex..<value.endIndex, in: value)
        let deadline = Self.threadTime() + limit
        var outcome = Outcome.doesNotMatch
        // The block runs on this thread, before `enumerateMatches` returns.
        regex.enumerateMatches(in: value, options: [.reportProgress], range: range) { result, _, stop in
            if result != nil {
                outcome = .matches
                stop.pointee = true
            } else if Self.threadTime() >= deadline {
                outcome = .timedOut
                stop.pointee = true
            }
        }
        return outcome
    }

    /// The processor time the calling thread has used.
    private static func threadTime() -> Duration {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return .seconds(Int64(time.tv_sec)) + .nanoseconds(Int64(time.tv_nsec))
    }
}

/// Holds an `NSRegularExpression` across concurrency domains.
///
/// `@unchecked Sendable` is safe: the box's only stored property is a `let`,
/// and `NSRegularExpression` has no mutable state after `init` (Apple
/// documents instances as immutable and thread safe; matching allocates its
/// own state per call), so sharing one between tasks cannot race.
private final class NSRegularExpressionBox: @unchecked Sendable {
    let regex: NSRegularExpression

    init(_ regex: NSRegularExpression) {
        self.regex = regex
    }
}
