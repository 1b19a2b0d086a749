import OpenAPIModel

/// Everything the renderer needs to write one client module.
public struct ClientRepresentation: Sendable {
    /// The Swift module name (`SoulAPI`).
    public var moduleName: String
    /// The access level of generated declarations (`public`, `package`, `internal`).
    public var accessLevel: AccessLevel
    /// The API's doc comment (title, version, description).
    public var documentation: String?
    /// The named base URLs.
    public var servers: [ServerDeclaration]
    /// The operations, in document order.
    public var operations: [OperationDeclaration]
    /// The model types, in document order (components first).
    public var types: [TypeDeclaration]
    /// Component schema name -> Swift type name (`branding_record` -> `BrandingRecord`).
    public var componentTypeNames: [String: String] = [:]
    /// The app's types generated code uses in place of the spec's
    /// (``TypeOverrides``), checked at compile time.
    public var overrideTypeNames: [String] = []
    /// How each list operation pages, or why a declaration was not followed
    /// (``PaginationAnalysis``), for `clientgen lint`.
    package var paginationFindings: [PaginationFinding] = []
    /// Every property name the operations' bodies declare, sorted: a log
    /// shows an object's key only when it is one of them.
    public var memberNames: [String] = []
    /// Every distinct `pattern` that generated code checks, in order of first use.
    public var patterns: [PatternDeclaration] = []
    /// The security schemes the operations use, in order of first use, each
    /// with the member that names it in `Client.SecuritySchemes`.
    package var securitySchemes: [SecuritySchemeName] = []
    /// The most Swift the client may be written as (nil: no limit).
    public var outputLimit: OutputLimit?
    /// Set when translation stopped because the members alone passed
    /// ``outputLimit``: rendering then throws it.
    public var outputLimitExceeded: OutputLimitExceeded?
    /// Where the spec writes each top-level type (by Swift name) and each
    /// operation (by id): what an ``OutputLimitExceeded`` points at.
    public var typeLocations: [String: SourceLocation] = [:]
    /// Where the spec writes each operation, by its id.
    public var operationLocations: [String: SourceLocation] = [:]
}

/// A security scheme the operations use and its Swift member name.
package struct SecuritySchemeName: Sendable, Hashable {
    /// How the operations use it (the first use).
    package var use: SecurityUse
    /// The member of `Client.SecuritySchemes` (`bearerAuth`, a keyword
    /// escaped, a clash numbered).
    package var member: String
    /// Its OAuth 2.0 device authorization flow (OpenAPI 3.2), when it has one.
    package var deviceFlow: DeviceFlowDeclaration?
    /// Whether the spec marks the scheme `deprecated` (OpenAPI 3.2).
    package var isDeprecated = false
}

/// An OAuth 2.0 device authorization flow's endpoints, as the spec writes them.
package struct DeviceFlowDeclaration: Sendable, Hashable {
    /// The member of `Client.SecuritySchemes` that holds them (`deviceDeviceFlow`).
    package var member: String
    /// `deviceAuthorizationUrl`.
    package var deviceAuthorizationURL: String
    /// `tokenUrl`.
    package var tokenURL: String
    /// The flow's scopes, in the spec's order.
    package var scopes: [String]
}

/// A base URL from `servers`.
public struct ServerDeclaration: Sendable, Hashable {
    /// The case name (`staging`, `production`).
    public var name: String
    /// The URL with variables at their defaults.
    public var url: String
    /// The description.
    public var documentation: String?
}
