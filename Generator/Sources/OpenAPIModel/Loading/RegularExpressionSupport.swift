import Foundation

/// Whether a schema's `pattern` can be checked by generated clients, which
/// run patterns on `NSRegularExpression` (ICU).
public enum RegularExpressionSupport {
    /// Whether `pattern` compiles as an `NSRegularExpression`.
    public static func compiles(_ pattern: String) -> Bool {
        (try? NSRegularExpression(pattern: pattern)) != nil
    }
}
