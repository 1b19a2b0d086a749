import OpenAPIModel

/// How much Swift one spec may make the generator write: in proportion to
/// the spec, so that no spec (a vendor's, run by a build plugin on every
/// build) can make the generator, and then the compiler, spend more than
/// time and memory proportional to its size.
///
/// Ordinary specs write 1.5 to 5 bytes of Swift per byte of spec (a spec of
/// a few hundred bytes about 10 KB, the file headers), one made mostly of
/// enums about 7; the limit is 1 MiB plus 8 bytes per byte of spec plus 48
/// bytes per YAML node. What passes it is a construct that expands: `allOf`
/// members that copy large objects into many schemas, or a structure that
/// grows as the square of the spec.
public struct OutputLimit: Sendable, Hashable {
    /// What any spec may write, however small.
    public static let allowance = 1 << 20
    /// What each byte of the spec adds.
    public static let bytesPerSpecByte = 8
    /// What each node of the spec's YAML adds (a flow-style enum is a few
    /// bytes a value, and writes a case, a raw value and two `switch` lines).
    public static let bytesPerSpecNode = 48
    /// The members (properties, enum cases, union cases) any spec may
    /// declare, however small.
    public static let memberAllowance = 20_000

    /// The most bytes of Swift the client's files may hold.
    public let bytes: Int
    /// The most members the client may declare: ``memberAllowance`` plus one
    /// per YAML node of the spec. A member written in the spec takes at
    /// least two nodes (its name and its schema); more come only from
    /// `allOf` copying the members of other schemas. Translation stops at
    /// this bound, before the time of writing the Swift is spent.
    public let members: Int

    /// The limit of a spec of `specBytes` bytes and `specNodes` YAML nodes
    /// (the files it references included).
    public init(specBytes: Int, specNodes: Int) {
        bytes = Self.allowance + Self.bytesPerSpecByte * specBytes + Self.bytesPerSpecNode * specNodes
        members = Self.memberAllowance + specNodes
    }

    /// A limit of `bytes` of Swift and `members` members (tests).
    public init(bytes: Int, members: Int) {
        self.bytes = bytes
        self.members = members
    }
}

/// The client of a spec would be larger than its ``OutputLimit``: what
/// expanded, and where the spec writes it.
public struct OutputLimitExceeded: Error, Sendable, Hashable, CustomStringConvertible {
    /// The limit: bytes of Swift, or members when ``written`` is nil.
    public let limit: Int
    /// The Swift the whole client would hold; nil when translation stopped
    /// before anything was written (the members passed their limit).
    public let written: Int?
    /// The construct that expanded most, in words (`the schema 'Order'
    /// (Swift type Order), 2,412,101 bytes`).
    public let construct: String
    /// Where the spec writes it, when known.
    public let location: SourceLocation?

    /// One sentence: the client, the limit, the construct.
    public var description: String {
        guard let written else {
            return "the generated client would declare more than this spec's limit of \(limit) members (\(OutputLimit.memberAllowance) + 1 per YAML node of the spec); \(construct) passes it"
        }
        return "the generated client would hold \(written) bytes of Swift, more than this spec's limit of \(limit) bytes (\(OutputLimit.allowance) + \(OutputLimit.bytesPerSpecByte) per byte + \(OutputLimit.bytesPerSpecNode) per YAML node of the spec); \(construct) expands the most"
    }
}
