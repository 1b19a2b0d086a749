/// A position in a source file: 1-based line and column, as editors and
/// compilers print them.
///
/// Columns count characters (Unicode scalars), the way libyaml counts them.
public struct SourceMark: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The 1-based line number.
    public let line: Int
    /// The 1-based column number.
    public let column: Int

    /// Creates a mark from 1-based line and column numbers.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// The start of a file, `1:1`.
    public static let start = SourceMark(line: 1, column: 1)

    /// `line:column`.
    public var description: String { "\(line):\(column)" }

    /// Orders marks by position in the file.
    public static func < (lhs: SourceMark, rhs: SourceMark) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }
}
