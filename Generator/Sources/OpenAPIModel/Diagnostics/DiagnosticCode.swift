/// A kind of problem the loader reports: the catalog of every diagnostic,
/// with its stable id, its severity and what it means. Call sites name an
/// entry (`.unresolvedRef`), never an id string, so ids cannot drift, and
/// `docs/Diagnostics.md` is checked against ``all`` by a test.
public struct DiagnosticCode: Sendable, Hashable, CustomStringConvertible {
    /// The stable id printed in brackets (`unresolved-ref`).
    public let id: String
    /// How serious it is.
    public let severity: Diagnostic.Severity
    /// When it is reported, and for warnings how the document is read.
    public let summary: String

    /// The id.
    public var description: String { id }
}

extension DiagnosticCode {
    /// The `unreadable-file` error.
    public static let unreadableFile = DiagnosticCode(
        id: "unreadable-file", severity: .error,
        summary: "the file does not exist, is a directory, or cannot be read")

    /// The `binary-file` error.
    public static let binaryFile = DiagnosticCode(
        id: "binary-file", severity: .error,
        summary: "a NUL byte or invalid UTF-8 (position of the first bad byte)")

    /// The `yaml-syntax` error.
    public static let yamlSyntax = DiagnosticCode(
        id: "yaml-syntax", severity: .error,
        summary: "libyaml rejects the text: unterminated quotes (reported at the opening quote), bad indentation, tabs, unbalanced brackets")

    /// The `yaml-duplicate-key` error.
    public static let yamlDuplicateKey = DiagnosticCode(
        id: "yaml-duplicate-key", severity: .error,
        summary: "a mapping repeats a key (the message names the first occurrence)")

    /// The `yaml-undefined-alias` error.
    public static let yamlUndefinedAlias = DiagnosticCode(
        id: "yaml-undefined-alias", severity: .error,
        summary: "`*name` with no `&name` before it, or inside the node it names")

    /// The `yaml-alias-expansion` error.
    public static let yamlAliasExpansion = DiagnosticCode(
        id: "yaml-alias-expansion", severity: .error,
        summary: "aliases add more than 20,000 + 2 x its node count to the document (a \"billion laughs\"): reported at the alias that passes the limit")

    /// The `output-too-large` error, reported by `clientgen generate`.
    public static let outputTooLarge = DiagnosticCode(
        id: "output-too-large", severity: .error,
        summary: "the client would hold more Swift than 1 MiB + 8 bytes per byte + 48 per YAML node of the spec; the message names the schema or operation that expands most (at its place)")

    /// The `yaml-nesting-too-deep` error.
    public static let yamlNestingTooDeep = DiagnosticCode(
        id: "yaml-nesting-too-deep", severity: .error,
        summary: "lists and mappings nested more than 1,000 levels")

    /// The `nesting-too-deep` error.
    public static let nestingTooDeep = DiagnosticCode(
        id: "nesting-too-deep", severity: .error,
        summary: "OpenAPI objects (schemas inside schemas, ...) nested more than 150 levels; deeper levels are not read")

    /// The `empty-document` error.
    public static let emptyDocument = DiagnosticCode(
        id: "empty-document", severity: .error,
        summary: "the file holds no YAML document (empty, or comments only)")

    /// The `not-an-openapi-document` error.
    public static let notAnOpenapiDocument = DiagnosticCode(
        id: "not-an-openapi-document", severity: .error,
        summary: "the root is not a mapping")

    /// The `missing-openapi-version` error.
    public static let missingOpenapiVersion = DiagnosticCode(
        id: "missing-openapi-version", severity: .error,
        summary: "no `openapi` field")

    /// The `unsupported-version` error.
    public static let unsupportedVersion = DiagnosticCode(
        id: "unsupported-version", severity: .error,
        summary: "Swagger 2.0, or an `openapi` version that is not 3.x")

    /// The `invalid-number` error.
    public static let invalidNumber = DiagnosticCode(
        id: "invalid-number", severity: .error,
        summary: "a bound, `multipleOf`, default, enum value or example that is not a finite number (`1e999`, `.inf`, `\"nan\"`), not an integer where the type is, or out of the range of the schema's format (`int32`, `int64`, `float`); a `multipleOf` of 0 or less")

    /// The `ref-outside-root` error.
    public static let refOutsideRoot = DiagnosticCode(
        id: "ref-outside-root", severity: .error,
        summary: "a `$ref` names a file outside the root spec's folder and below (symbolic links followed), or outside the folder `--reference-root` names; the file is not opened")

    /// The `invalid-server-url` error.
    public static let invalidServerURL = DiagnosticCode(
        id: "invalid-server-url", severity: .error,
        summary: "a server URL (variables at their defaults) with a scheme other than `http` or `https` (`javascript:`, `file:`), or that does not parse as a URL")

    /// The `duplicate-server-url` error.
    public static let duplicateServerURL = DiagnosticCode(
        id: "duplicate-server-url", severity: .error,
        summary: "two of the document's servers have one URL (variables at their defaults): `Client.Server` would have two cases of one value")

    /// The `hidden-character` error.
    public static let hiddenCharacter = DiagnosticCode(
        id: "hidden-character", severity: .error,
        summary: "a path, operationId, or parameter, header, property, media type, component or security scheme name holds a line break, another control character, or a Unicode format character such as a bidi override (U+202E): names become code and comments, and these would hide what they say")

    /// The `comment-delimiter` error.
    public static let commentDelimiter = DiagnosticCode(
        id: "comment-delimiter", severity: .error,
        summary: "a path or operationId holds `/*` or `*/`: no API names a resource or operation so, and in a block comment of generated code it would end the comment")

    /// The `invalid-header-name` error.
    public static let invalidHeaderName = DiagnosticCode(
        id: "invalid-header-name", severity: .error,
        summary: "a header parameter, response header or apiKey header name that is not an HTTP token (RFC 9110 5.1: letters, digits and ``!#$%&'*+-.^_`|~``): no request can carry it")

    /// The `unresolved-ref` error.
    public static let unresolvedRef = DiagnosticCode(
        id: "unresolved-ref", severity: .error,
        summary: "a `$ref` names a file or pointer that does not exist (with a did-you-mean)")

    /// The `ref-cycle` error.
    public static let refCycle = DiagnosticCode(
        id: "ref-cycle", severity: .error,
        summary: "`$ref`s that only point at each other and never reach a definition")

    /// The `unsupported-ref` error.
    public static let unsupportedRef = DiagnosticCode(
        id: "unsupported-ref", severity: .error,
        summary: "a remote (`https://`) reference, or a plain-name fragment")

    /// The `wrong-kind` error.
    public static let wrongKind = DiagnosticCode(
        id: "wrong-kind", severity: .error,
        summary: "a structure of the wrong YAML kind, such as `paths` written as a list, or a `$ref` that is not a string")

    /// The `missing-essential-field` error.
    public static let missingEssentialField = DiagnosticCode(
        id: "missing-essential-field", severity: .error,
        summary: "a parameter without `name` or `in`, a security scheme without `type`: nothing sensible can be read")

    /// The `invalid-parameter-location` error.
    public static let invalidParameterLocation = DiagnosticCode(
        id: "invalid-parameter-location", severity: .error,
        summary: "`in:` other than path, query, header, cookie (`body` gets a hint towards `requestBody`)")

    /// The `unknown-security-type` error.
    public static let unknownSecurityType = DiagnosticCode(
        id: "unknown-security-type", severity: .error,
        summary: "a security scheme `type` OpenAPI does not define")

    /// The `unknown-type` warning.
    public static let unknownType = DiagnosticCode(
        id: "unknown-type", severity: .warning,
        summary: "`type: int`, `long`, `bool`, `double`, `file`, ...: read as the JSON Schema type (and format) meant; unknown names are ignored")

    /// The `enum-type-mismatch` warning.
    public static let enumTypeMismatch = DiagnosticCode(
        id: "enum-type-mismatch", severity: .warning,
        summary: "an integer or boolean in a `type: string` enum: read as the string")

    /// The `server-enum-not-string` warning.
    public static let serverEnumNotString = DiagnosticCode(
        id: "server-enum-not-string", severity: .warning,
        summary: "a number in a server variable `enum`: read as the string")

    /// The `no-responses` warning.
    public static let noResponses = DiagnosticCode(
        id: "no-responses", severity: .warning,
        summary: "an operation without `responses`")

    /// The `missing-path-parameter` warning.
    public static let missingPathParameter = DiagnosticCode(
        id: "missing-path-parameter", severity: .warning,
        summary: "`{name}` in a path without a path parameter of that name")

    /// The `unused-path-parameter` warning.
    public static let unusedPathParameter = DiagnosticCode(
        id: "unused-path-parameter", severity: .warning,
        summary: "a path parameter whose name is not in the path template")

    /// The `path-parameter-optional` warning.
    public static let pathParameterOptional = DiagnosticCode(
        id: "path-parameter-optional", severity: .warning,
        summary: "a path parameter without `required: true`: read as required")

    /// The `invalid-parameter-style` warning.
    public static let invalidParameterStyle = DiagnosticCode(
        id: "invalid-parameter-style", severity: .warning,
        summary: "a parameter `style` that is unknown or not one its location takes (`deepObject` in a path, `matrix` in a query): written in the location's default style (`simple`, or `form` in a query or cookie)")

    /// The `parameter-without-schema` warning.
    public static let parameterWithoutSchema = DiagnosticCode(
        id: "parameter-without-schema", severity: .warning,
        summary: "a parameter with neither `schema` nor `content`: read as a string")

    /// The `duplicate-operation-id` warning.
    public static let duplicateOperationId = DiagnosticCode(
        id: "duplicate-operation-id", severity: .warning,
        summary: "two operations share an `operationId`: the first keeps the name")

    /// The `invalid-x-idempotent` warning.
    public static let invalidXIdempotent = DiagnosticCode(
        id: "invalid-x-idempotent", severity: .warning,
        summary: "`x-idempotent` that is not `true` or `false`: ignored, the method decides whether the operation may be repeated")

    /// The `invalid-x-cache` warning.
    public static let invalidXCache = DiagnosticCode(
        id: "invalid-x-cache", severity: .warning,
        summary: "`x-cache` that is not `true`, `false` or `{max-age: seconds}`, or stands on an operation that is not a GET: ignored, the method and the response's headers decide")

    /// The `invalid-x-offline-queue` warning.
    public static let invalidXOfflineQueue = DiagnosticCode(
        id: "invalid-x-offline-queue", severity: .warning,
        summary: "`x-offline-queue` that is not a boolean, or `true` on a read: ignored, the operation is never queued")

    /// The `invalid-x-assumed` warning.
    public static let invalidXAssumed = DiagnosticCode(
        id: "invalid-x-assumed", severity: .warning,
        summary: "`x-assumed` that is not `true` or `false`: ignored, the constraints it stands beside are checked and the field is decoded strictly")

    /// The `invalid-x-secret` warning.
    public static let invalidXSecret = DiagnosticCode(
        id: "invalid-x-secret", severity: .warning,
        summary: "`x-secret` that is not `true` or `false`: ignored, so the value is not masked in logs")

    /// The `invalid-x-loggable` warning.
    public static let invalidXLoggable = DiagnosticCode(
        id: "invalid-x-loggable", severity: .warning,
        summary: "`x-loggable` that is not `true` or `false`: ignored, so a body's log shows the field's shape, not its value")

    /// The `invalid-x-stream-array` warning.
    public static let invalidXStreamArray = DiagnosticCode(
        id: "invalid-x-stream-array", severity: .warning,
        summary: "`x-stream-array` that names no array (a missing or non-array property, a non-array body), is not `true` or a property name, or stands on a non-success status, a non-JSON media type or an operation with several success statuses: ignored, no streamed method")

    /// The `pattern-not-checked` warning.
    public static let patternNotChecked = DiagnosticCode(
        id: "pattern-not-checked", severity: .warning,
        summary: "a `pattern` that `NSRegularExpression` (ICU) cannot compile, such as an unbounded lookbehind: kept in the model, no check generated")

    /// The `undefined-security-scheme` warning.
    public static let undefinedSecurityScheme = DiagnosticCode(
        id: "undefined-security-scheme", severity: .warning,
        summary: "a security requirement names a scheme that is not defined")

    /// The `unknown-field` warning.
    public static let unknownField = DiagnosticCode(
        id: "unknown-field", severity: .warning,
        summary: "a field the object does not have (with a did-you-mean); custom fields must start with `x-`")

    /// The `missing-field` warning.
    public static let missingField = DiagnosticCode(
        id: "missing-field", severity: .warning,
        summary: "a required field is missing where a default reading exists (`info.title`, a response's `description`, ...)")

    /// The `wrong-value-kind` warning.
    public static let wrongValueKind = DiagnosticCode(
        id: "wrong-value-kind", severity: .warning,
        summary: "a value of the wrong kind where the object can do without it (a mapping for a string, a single string for a list of strings, ...): ignored, or read as meant")

    /// The `ref-sibling-ignored` warning.
    public static let refSiblingIgnored = DiagnosticCode(
        id: "ref-sibling-ignored", severity: .warning,
        summary: "keywords beside a `$ref` in 3.0, where the reference replaces them")

    /// The `ref-kind-mismatch` warning.
    public static let refKindMismatch = DiagnosticCode(
        id: "ref-kind-mismatch", severity: .warning,
        summary: "a `$ref` into `components/schemas` where a parameter is expected, and similar")

    /// The `nullable-in-3.1` warning.
    public static let nullableIn31 = DiagnosticCode(
        id: "nullable-in-3.1", severity: .warning,
        summary: "`nullable` in a 3.1 document: read as allowing null")

    /// The `type-list-in-3.0` warning.
    public static let typeListIn30 = DiagnosticCode(
        id: "type-list-in-3.0", severity: .warning,
        summary: "a list of types in a 3.0 document: read as 3.1 does")

    /// The `null-type-in-3.0` warning.
    public static let nullTypeIn30 = DiagnosticCode(
        id: "null-type-in-3.0", severity: .warning,
        summary: "`type: 'null'` in a 3.0 document: read as 3.1 does")

    /// The `boolean-exclusive-bound` warning.
    public static let booleanExclusiveBound = DiagnosticCode(
        id: "boolean-exclusive-bound", severity: .warning,
        summary: "`exclusiveMinimum: true` (3.0) in a 3.1 document: read as 3.0 meant it")

    /// The `numeric-exclusive-bound` warning.
    public static let numericExclusiveBound = DiagnosticCode(
        id: "numeric-exclusive-bound", severity: .warning,
        summary: "`exclusiveMinimum: 5` (3.1) in a 3.0 document: read as an exclusive bound")

    /// The `boolean-schema` warning.
    public static let booleanSchema = DiagnosticCode(
        id: "boolean-schema", severity: .warning,
        summary: "`true` or `false` as a schema in a 3.0 document: read as 3.1 does")

    /// The `required-not-list` warning.
    public static let requiredNotList = DiagnosticCode(
        id: "required-not-list", severity: .warning,
        summary: "`required: true` on a property schema (a Swagger habit); it has no effect")

    /// The `array-without-items` warning.
    public static let arrayWithoutItems = DiagnosticCode(
        id: "array-without-items", severity: .warning,
        summary: "`type: array` with no `items` (3.0)")

    /// The `items-list` warning.
    public static let itemsList = DiagnosticCode(
        id: "items-list", severity: .warning,
        summary: "`items` written as a list (a tuple): read as `prefixItems`")

    /// The `empty-value` warning.
    public static let emptyValue = DiagnosticCode(
        id: "empty-value", severity: .warning,
        summary: "a key with no value (`parameters:` and nothing after it): read as empty")

    /// The `quoted-boolean` warning.
    public static let quotedBoolean = DiagnosticCode(
        id: "quoted-boolean", severity: .warning,
        summary: "`'true'` where a boolean is expected: read as the boolean")

    /// The `quoted-number` warning.
    public static let quotedNumber = DiagnosticCode(
        id: "quoted-number", severity: .warning,
        summary: "`'10'` where a number is expected: read as the number")

    /// The `invalid-status-code` warning.
    public static let invalidStatusCode = DiagnosticCode(
        id: "invalid-status-code", severity: .warning,
        summary: "a response key that is not `100`-`599`, `1XX`-`5XX` or `default`")

    /// The `server-default-not-in-enum` warning.
    public static let serverDefaultNotInEnum = DiagnosticCode(
        id: "server-default-not-in-enum", severity: .warning,
        summary: "a server variable whose `default` is not in its `enum`")

    /// The `undefined-server-variable` warning.
    public static let undefinedServerVariable = DiagnosticCode(
        id: "undefined-server-variable", severity: .warning,
        summary: "`{name}` in a server URL with no variable of that name")

    /// The `unquoted-version` warning.
    public static let unquotedVersion = DiagnosticCode(
        id: "unquoted-version", severity: .warning,
        summary: "`openapi: 3.0` written as a number")

    /// The `invalid-additional-method` error.
    public static let invalidAdditionalMethod = DiagnosticCode(
        id: "invalid-additional-method", severity: .error,
        summary: "an `additionalOperations` key that is no HTTP method name, or one a Path Item field already names (`GET`)")

    /// The `invalid-self` warning.
    public static let invalidSelf = DiagnosticCode(
        id: "invalid-self", severity: .warning,
        summary: "`$self` (3.2) that is not a URI without a fragment")

    /// The `conflicting-example-values` warning.
    public static let conflictingExampleValues = DiagnosticCode(
        id: "conflicting-example-values", severity: .warning,
        summary: "an Example with `value` beside `dataValue` or `serializedValue`, or `serializedValue` beside `externalValue` (3.2)")

    /// The `unknown-parent-tag` warning.
    public static let unknownParentTag = DiagnosticCode(
        id: "unknown-parent-tag", severity: .warning,
        summary: "a tag whose `parent` (3.2) names no tag, or whose parents lead back to it")

    /// The `invalid-querystring` warning.
    public static let invalidQuerystring = DiagnosticCode(
        id: "invalid-querystring", severity: .warning,
        summary: "an `in: querystring` parameter (3.2) without `content`, beside `in: query` parameters or another querystring")

    /// The `item-schema-not-sequential` warning.
    public static let itemSchemaNotSequential = DiagnosticCode(
        id: "item-schema-not-sequential", severity: .warning,
        summary: "`itemSchema` (or `x-item-schema`) on a media type whose body is not a sequence of elements")

    /// An OAuth or OpenID Connect URL over plain http to another machine,
    /// or of a scheme that is not http(s).
    public static let insecureAuthURL = DiagnosticCode(
        id: "insecure-auth-url", severity: .warning,
        summary: "an OAuth flow's or OpenID Connect URL that sends codes or tokens unencrypted (http to another host) or is no web address")

    /// OpenAPI 3.2's `prefixEncoding` or `itemEncoding` where nothing reads
    /// them.
    public static let misplacedPositionalEncoding = DiagnosticCode(
        id: "misplaced-positional-encoding", severity: .warning,
        summary: "`prefixEncoding` or `itemEncoding` on a body that is not a multipart array, or beside `encoding`")

    /// The `newer-version` warning.
    public static let newerVersion = DiagnosticCode(
        id: "newer-version", severity: .warning,
        summary: "OpenAPI newer than 3.2, read with 3.2 rules")

    /// The `method-case` warning.
    public static let methodCase = DiagnosticCode(
        id: "method-case", severity: .warning,
        summary: "`GET:` where an operation is meant: methods are lower case")

    /// The `path-without-slash` warning.
    public static let pathWithoutSlash = DiagnosticCode(
        id: "path-without-slash", severity: .warning,
        summary: "a path that does not start with `/`")

    /// The `header-name` warning.
    public static let headerName = DiagnosticCode(
        id: "header-name", severity: .warning,
        summary: "`name:` or `in:` in a Header object, which takes its name from its key: ignored")

    /// The `no-parameter-form` warning.
    public static let noParameterForm = DiagnosticCode(
        id: "no-parameter-form", severity: .warning,
        summary: "a path, header or cookie parameter whose schema nests arrays or objects: the `simple` and `form` styles write one level only, so such a value cannot be sent (a query parameter or form field uses brackets instead)")

    /// The `insecure-server-url` warning.
    public static let insecureServerURL = DiagnosticCode(
        id: "insecure-server-url", severity: .warning,
        summary: "an `http:` server URL whose host is not this machine (`localhost`, `127.0.0.1`, `::1`): requests and credentials would travel unencrypted; read as written")

    /// The `body-on-get` warning.
    public static let bodyOnGet = DiagnosticCode(
        id: "body-on-get", severity: .warning,
        summary: "a GET or HEAD operation takes a request body: HTTP gives such content no meaning (RFC 9110, 9.3.1) and `URLSession` refuses to send it (`NSURLErrorDataLengthExceedsMaximum`), so the call fails on every platform; generated as written")

    /// The `bound-outside-format` warning.
    public static let boundOutsideFormat = DiagnosticCode(
        id: "bound-outside-format", severity: .warning,
        summary: "a `minimum` or `maximum` beyond the end of its format's range (`maximum: 9223372036854776000` on an int64): it excludes no value, and is read as no bound")

    /// The `slow-pattern` warning.
    public static let slowPattern = DiagnosticCode(
        id: "slow-pattern", severity: .warning,
        summary: "a `pattern` whose matching time can grow exponentially with the value: a repeated group that holds a repetition (`(a+)+`), or repeated alternatives that match the same text (`(a|aa)+`); read as written, and generated clients stop each check after 50 ms of processor time and refuse the value")

    /// The `component-name` warning.
    public static let componentName = DiagnosticCode(
        id: "component-name", severity: .warning,
        summary: "a component name with characters outside `A-Z a-z 0-9 . - _`")

    /// The `complex-key` warning.
    public static let complexKey = DiagnosticCode(
        id: "complex-key", severity: .warning,
        summary: "a YAML key that is not a string (a list or mapping): ignored")

    /// The `yaml-extra-documents` warning.
    public static let yamlExtraDocuments = DiagnosticCode(
        id: "yaml-extra-documents", severity: .warning,
        summary: "the file holds more than one YAML document: only the first is read")

    /// Every code, errors first, in the order the documentation lists them.
    public static let all: [DiagnosticCode] = [
        .unreadableFile, .binaryFile, .yamlSyntax, .yamlDuplicateKey, .yamlUndefinedAlias, .yamlAliasExpansion, .outputTooLarge,
        .yamlNestingTooDeep, .nestingTooDeep, .emptyDocument, .notAnOpenapiDocument, .missingOpenapiVersion,
        .unsupportedVersion, .hiddenCharacter, .commentDelimiter, .invalidHeaderName, .unresolvedRef, .refCycle, .unsupportedRef, .refOutsideRoot, .wrongKind, .missingEssentialField,
        .invalidServerURL, .duplicateServerURL, .invalidParameterLocation, .invalidAdditionalMethod, .unknownSecurityType, .unknownType, .enumTypeMismatch, .invalidNumber, .serverEnumNotString,
        .noResponses, .missingPathParameter, .unusedPathParameter, .pathParameterOptional, .invalidParameterStyle, .parameterWithoutSchema,
        .duplicateOperationId, .invalidXIdempotent, .invalidXCache, .invalidXOfflineQueue, .invalidXAssumed, .invalidXSecret, .invalidXLoggable,
        .invalidXStreamArray, .itemSchemaNotSequential, .misplacedPositionalEncoding, .invalidSelf, .conflictingExampleValues, .unknownParentTag, .invalidQuerystring, .patternNotChecked, .slowPattern, .boundOutsideFormat,
        .undefinedSecurityScheme, .unknownField, .missingField, .wrongValueKind, .refSiblingIgnored,
        .refKindMismatch, .nullableIn31, .typeListIn30, .nullTypeIn30, .booleanExclusiveBound,
        .numericExclusiveBound, .booleanSchema, .requiredNotList, .arrayWithoutItems, .itemsList, .emptyValue,
        .quotedBoolean, .quotedNumber, .invalidStatusCode, .serverDefaultNotInEnum, .undefinedServerVariable,
        .unquotedVersion, .newerVersion, .methodCase, .pathWithoutSlash, .headerName, .noParameterForm, .insecureServerURL, .insecureAuthURL, .bodyOnGet, .componentName, .complexKey,
        .yamlExtraDocuments
    ]
}
