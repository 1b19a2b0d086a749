import OpenAPIModel

/// How much a change breaks, in oasdiff's terms.
public enum FindingLevel: String, Sendable, Hashable, Comparable, CaseIterable, Codable {
    /// Compatible: nothing shipped breaks.
    case info = "INFO"
    /// Likely breaking on the wire, or breaking the source of apps that regenerate.
    case warning = "WARN"
    /// Breaking on the wire: the server rejects what shipped clients send, or
    /// sends what they cannot decode.
    case error = "ERR"

    private var rank: Int {
        switch self {
        case .info: return 0
        case .warning: return 1
        case .error: return 2
        }
    }

    /// INFO < WARN < ERR.
    public static func < (lhs: FindingLevel, rhs: FindingLevel) -> Bool { lhs.rank < rhs.rank }
}

/// One difference between two versions of a spec that matters to clients.
public struct Finding: Sendable, Hashable {
    /// The ``SpecDiffRule/id`` of its rule (`response-required-property-removed`).
    public var id: String
    /// How much it breaks.
    public var level: FindingLevel
    /// `METHOD /path`, or nil for document-wide changes.
    public var operation: String?
    /// The JSON pointer of the changed node (in the revision; in the base for
    /// what was removed).
    public var pointer: String
    /// Where the changed node is written (revision, or base for removals).
    public var location: SourceLocation?
    /// What changed, in words.
    public var message: String
    /// The generated Swift symbols the change affects
    /// (`SoulAPI.Client.verifyOTP(body:)`, `SecureNodeAPI.BrandingRecord.logoURL`).
    public var swiftSymbols: [String]
    /// The reason from the ignore file, when an entry matches.
    public var ignoredBecause: String?

    /// Creates a finding of a catalogued rule, at that rule's level.
    public init(
        rule: SpecDiffRule, operation: String?, pointer: String, location: SourceLocation?, message: String,
        swiftSymbols: [String], ignoredBecause: String? = nil
    ) {
        self.id = rule.id
        self.level = rule.level
        self.operation = operation
        self.pointer = pointer
        self.location = location
        self.message = message
        self.swiftSymbols = swiftSymbols
        self.ignoredBecause = ignoredBecause
    }

    /// Whether an ignore entry matches.
    public var isIgnored: Bool { ignoredBecause != nil }
}
