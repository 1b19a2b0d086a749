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
public final class ValidationPattern: Sendable {
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

    /// Whether `value` matches somewhere (true when the pattern does not compile).
    public func matches(_ value: String) -> Bool {
        guard let regex = expression?.regex else { return true }
        let range = NSRange(value.startIndex..<value.endIndex, in: value)
        return regex.firstMatch(in: value, options: [], range: range) != nil
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
