/// A problem found in a spec, positioned so that editors and CI can jump to it.
///
/// `description` renders the conventional compiler form:
///
/// ```text
/// specs/api.yaml:12:15: warning: unknown schema type 'int' [unknown-type] (at #/components/schemas/Pet/properties/age/type)
/// specs/api.yaml:12:15: note: write 'type: integer'
/// ```
public struct Diagnostic: Sendable, Hashable, Codable, CustomStringConvertible {
    /// How serious a diagnostic is.
    public enum Severity: String, Sendable, Hashable, Codable, Comparable {
        /// The document cannot be used as written.
        case error
        /// The document is invalid or doubtful, but a sensible reading exists and is used.
        case warning

        private var rank: Int { self == .error ? 1 : 0 }

        /// Warnings sort before errors.
        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
    }

    /// How serious it is.
    public let severity: Severity
    /// The ``DiagnosticCode/id`` of its kind (`yaml-syntax`, `unresolved-ref`, `unknown-type`, ...).
    public let code: String
    /// What is wrong, in one sentence.
    public let message: String
    /// The file the problem is in.
    public let file: String
    /// The 1-based line.
    public let line: Int
    /// The 1-based column.
    public let column: Int
    /// The JSON pointer to the offending node (`#/paths/~1pets/get`), when known.
    public let pointer: String?
    /// How to fix it.
    public let hint: String?

    /// Creates a diagnostic of a catalogued kind, with that kind's severity.
    public init(
        _ code: DiagnosticCode, message: String, file: String, line: Int, column: Int,
        pointer: String?, hint: String?
    ) {
        self.severity = code.severity
        self.code = code.id
        self.message = message
        self.file = file
        self.line = line
        self.column = column
        self.pointer = pointer
        self.hint = hint
    }

    /// Creates a diagnostic at a model location.
    public init(_ code: DiagnosticCode, _ message: String, at location: SourceLocation, hint: String? = nil) {
        self.init(
            code, message: message, file: location.file, line: location.line,
            column: location.column, pointer: location.pointer.fragment, hint: hint)
    }

    /// `file:line:column: severity: message [code] (at pointer)`, then a `note:` line with the hint.
    public var description: String {
        let position = "\(file):\(line):\(column)"
        var text = "\(position): \(severity.rawValue): \(message) [\(code)]"
        // A pointer spells the spec's keys, which may hold a line break.
        if let pointer { text += " (at \(HiddenCharacters.visible(pointer)))" }
        if let hint { text += "\n\(position): note: \(hint)" }
        return text
    }
}
