/// The access level of every generated declaration.
public enum AccessLevel: String, Sendable, Hashable, CaseIterable, Codable, CustomStringConvertible {
    /// `public`: the client is a library of its own (the default).
    case `public`
    /// `package`: visible to the other targets of the same package.
    case package
    /// `internal`: the client lives inside the app's own target.
    case `internal`

    /// The keyword as written before a declaration.
    public var description: String { rawValue }
}
