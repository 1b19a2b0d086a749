/// The OpenAPI version a document declares, such as `3.0.3` or `3.1.0`.
public struct OpenAPIVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The major version (3).
    public let major: Int
    /// The minor version (0 or 1).
    public let minor: Int
    /// The patch version.
    public let patch: Int
    /// The text as written.
    public let raw: String

    /// Parses `3.0.3` (patch optional); `nil` if it is not a version.
    public init?(_ raw: String) {
        let parts = raw.split(separator: ".", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count), let major = Int(parts[0]), let minor = Int(parts[1]) else { return nil }
        let patchText = parts.count == 3 ? parts[2].prefix(while: { $0.isNumber }) : "0"
        guard let patch = Int(patchText) else { return nil }
        self.major = major
        self.minor = minor
        self.patch = patch
        self.raw = raw
    }

    /// Whether JSON Schema 2020-12 semantics apply (3.1 and later): type
    /// arrays, `null` as a type, numeric `exclusiveMinimum`, `$ref` siblings.
    public var usesJSONSchema2020: Bool { major > 3 || (major == 3 && minor >= 1) }

    /// The text as written.
    public var description: String { raw }

    /// Orders by major, minor, patch.
    public static func < (lhs: OpenAPIVersion, rhs: OpenAPIVersion) -> Bool {
        (lhs.major, lhs.minor, lhs.patch) < (rhs.major, rhs.minor, rhs.patch)
    }
}

/// The `info` object: the API's title, version and contact data.
public struct Info: Sendable {
    /// The API's title.
    public var title: String = ""
    /// A short summary (3.1).
    public var summary: String?
    /// A long description (CommonMark).
    public var description: String?
    /// The terms of service URL.
    public var termsOfService: String?
    /// The contact.
    public var contact: Contact?
    /// The license.
    public var license: License?
    /// The API's own version (not the OpenAPI version).
    public var version: String = ""
    /// `x-` extensions.
    public var extensions = OrderedMap<JSONValue>()
    /// Where it is written.
    public var location: SourceLocation
}

/// Contact information for the API.
public struct Contact: Sendable {
    /// The contact's name.
    public var name: String?
    /// A URL.
    public var url: String?
    /// An e-mail address.
    public var email: String?
    /// Where it is written.
    public var location: SourceLocation
}

/// The API's license.
public struct License: Sendable {
    /// The license name.
    public var name: String = ""
    /// An SPDX identifier (3.1).
    public var identifier: String?
    /// A URL.
    public var url: String?
    /// Where it is written.
    public var location: SourceLocation
}

/// A link to documentation elsewhere.
public struct ExternalDocumentation: Sendable {
    /// What it is.
    public var description: String?
    /// Where it is.
    public var url: String = ""
    /// Where it is written.
    public var location: SourceLocation
}

/// A server the API is served from.
public struct Server: Sendable {
    /// The URL, possibly with `{variables}`.
    public var url: String = ""
    /// What the server is (used to name it: "Production", "Staging").
    public var description: String?
    /// The values of the URL's variables.
    public var variables = OrderedMap<ServerVariable>()
    /// `x-` extensions.
    public var extensions = OrderedMap<JSONValue>()
    /// Where it is written.
    public var location: SourceLocation
}

/// A variable in a server URL.
public struct ServerVariable: Sendable {
    /// The allowed values (always strings; numbers in the spec are converted with a warning).
    public var enumValues: [String]?
    /// The value used when none is chosen.
    public var defaultValue: String = ""
    /// What it means.
    public var description: String?
    /// Where it is written.
    public var location: SourceLocation
}

/// A tag that groups operations.
public struct Tag: Sendable {
    /// `summary` (3.2): a short name for navigation.
    public var summary: String?
    /// `parent` (3.2): the name of the tag this one nests under.
    public var parent: String?
    /// `kind` (3.2): what the tag is for (`nav`, `badge`, `audience`, or another).
    public var kind: String?
    /// The tag name operations refer to.
    public var name: String = ""
    /// What the group is.
    public var description: String?
    /// Documentation elsewhere.
    public var externalDocs: ExternalDocumentation?
    /// `x-` extensions.
    public var extensions = OrderedMap<JSONValue>()
    /// Where it is written.
    public var location: SourceLocation
}
