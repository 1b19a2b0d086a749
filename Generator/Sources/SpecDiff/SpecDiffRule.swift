/// A kind of change `clientgen diff` reports: the catalog of every rule,
/// with its stable id (oasdiff's where oasdiff has the rule), its level and
/// what it means. Call sites name an entry, or a family lookup such as
/// ``bound(_:_:_:)``, never an id string; `docs/SpecDiff.md` is checked
/// against ``all`` by a test.
public struct SpecDiffRule: Sendable, Hashable, CustomStringConvertible {
    /// The group a rule is listed under.
    public enum Area: String, Sendable, Hashable, CaseIterable {
        /// Paths and operations.
        case pathsAndOperations = "paths and operations"
        /// Parameters.
        case parameters = "parameters"
        /// Request body.
        case requestBody = "request body"
        /// Request properties.
        case requestProperties = "request properties"
        /// Responses.
        case responses = "responses"
        /// Response properties.
        case responseProperties = "response properties"
        /// Types.
        case types = "types"
        /// Enums.
        case enums = "enums"
        /// Nullability.
        case nullability = "nullability"
        /// Compositions.
        case compositions = "compositions"
        /// Bounds and patterns.
        case boundsAndPatterns = "bounds and patterns"
        /// Security.
        case security = "security"
        /// Generated Swift.
        case generatedSwift = "generated Swift"
    }

    /// The stable id (`response-required-property-removed`).
    public let id: String
    /// How much the change breaks.
    public let level: FindingLevel
    /// The group it is listed under.
    public let area: Area
    /// The change, in one line.
    public let summary: String

    /// The id.
    public var description: String { id }
}

extension SpecDiffRule {
    /// `api-path-removed-without-deprecation` (ERR).
    public static let apiPathRemovedWithoutDeprecation = SpecDiffRule(
        id: "api-path-removed-without-deprecation", level: .error, area: .pathsAndOperations,
        summary: "a path and all its operations removed without being deprecated first")

    /// `api-path-removed-with-deprecation` (INFO).
    public static let apiPathRemovedWithDeprecation = SpecDiffRule(
        id: "api-path-removed-with-deprecation", level: .info, area: .pathsAndOperations,
        summary: "a deprecated path removed")

    /// `api-path-removed-before-sunset` (ERR).
    public static let apiPathRemovedBeforeSunset = SpecDiffRule(
        id: "api-path-removed-before-sunset", level: .error, area: .pathsAndOperations,
        summary: "a deprecated path removed before its `x-sunset` date")

    /// `api-removed-without-deprecation` (ERR).
    public static let apiRemovedWithoutDeprecation = SpecDiffRule(
        id: "api-removed-without-deprecation", level: .error, area: .pathsAndOperations,
        summary: "an operation removed from a path that stays, without being deprecated first")

    /// `api-removed-with-deprecation` (INFO).
    public static let apiRemovedWithDeprecation = SpecDiffRule(
        id: "api-removed-with-deprecation", level: .info, area: .pathsAndOperations,
        summary: "a deprecated operation removed")

    /// `api-removed-before-sunset` (ERR).
    public static let apiRemovedBeforeSunset = SpecDiffRule(
        id: "api-removed-before-sunset", level: .error, area: .pathsAndOperations,
        summary: "a deprecated operation removed before its `x-sunset` date")

    /// `endpoint-added` (INFO).
    public static let endpointAdded = SpecDiffRule(
        id: "endpoint-added", level: .info, area: .pathsAndOperations,
        summary: "a new operation")

    /// `api-operation-id-removed` (WARN).
    public static let apiOperationIdRemoved = SpecDiffRule(
        id: "api-operation-id-removed", level: .warning, area: .pathsAndOperations,
        summary: "an `operationId` renamed or removed: the generated method is renamed (oasdiff: INFO)")

    /// `new-required-request-parameter` (ERR).
    public static let newRequiredRequestParameter = SpecDiffRule(
        id: "new-required-request-parameter", level: .error, area: .parameters,
        summary: "a new required query, header or cookie parameter")

    /// `new-request-path-parameter` (ERR).
    public static let newRequestPathParameter = SpecDiffRule(
        id: "new-request-path-parameter", level: .error, area: .parameters,
        summary: "a new path parameter")

    /// `new-optional-request-parameter` (INFO).
    public static let newOptionalRequestParameter = SpecDiffRule(
        id: "new-optional-request-parameter", level: .info, area: .parameters,
        summary: "a new optional parameter")

    /// `request-parameter-removed` (WARN).
    public static let requestParameterRemoved = SpecDiffRule(
        id: "request-parameter-removed", level: .warning, area: .parameters,
        summary: "a parameter removed (the server may reject or ignore what shipped clients send)")

    /// `request-parameter-became-required` (ERR).
    public static let requestParameterBecameRequired = SpecDiffRule(
        id: "request-parameter-became-required", level: .error, area: .parameters,
        summary: "an optional parameter became required")

    /// `request-parameter-became-optional` (INFO).
    public static let requestParameterBecameOptional = SpecDiffRule(
        id: "request-parameter-became-optional", level: .info, area: .parameters,
        summary: "a required parameter became optional")

    /// `request-body-added-required` (ERR).
    public static let requestBodyAddedRequired = SpecDiffRule(
        id: "request-body-added-required", level: .error, area: .requestBody,
        summary: "a required request body added")

    /// `request-body-added-optional` (INFO).
    public static let requestBodyAddedOptional = SpecDiffRule(
        id: "request-body-added-optional", level: .info, area: .requestBody,
        summary: "an optional request body added")

    /// `request-body-became-required` (ERR).
    public static let requestBodyBecameRequired = SpecDiffRule(
        id: "request-body-became-required", level: .error, area: .requestBody,
        summary: "the request body became required")

    /// `request-body-became-optional` (INFO).
    public static let requestBodyBecameOptional = SpecDiffRule(
        id: "request-body-became-optional", level: .info, area: .requestBody,
        summary: "the request body became optional")

    /// `request-body-media-type-removed` (ERR).
    public static let requestBodyMediaTypeRemoved = SpecDiffRule(
        id: "request-body-media-type-removed", level: .error, area: .requestBody,
        summary: "a request media type removed")

    /// `request-body-media-type-added` (INFO).
    public static let requestBodyMediaTypeAdded = SpecDiffRule(
        id: "request-body-media-type-added", level: .info, area: .requestBody,
        summary: "a request media type added")

    /// `new-required-request-property` (ERR).
    public static let newRequiredRequestProperty = SpecDiffRule(
        id: "new-required-request-property", level: .error, area: .requestProperties,
        summary: "a new required property in a request body")

    /// `new-required-request-property-with-default` (INFO).
    public static let newRequiredRequestPropertyWithDefault = SpecDiffRule(
        id: "new-required-request-property-with-default", level: .info, area: .requestProperties,
        summary: "a new required request property that has a default")

    /// `new-optional-request-property` (INFO).
    public static let newOptionalRequestProperty = SpecDiffRule(
        id: "new-optional-request-property", level: .info, area: .requestProperties,
        summary: "a new optional request property")

    /// `request-property-became-required` (ERR).
    public static let requestPropertyBecameRequired = SpecDiffRule(
        id: "request-property-became-required", level: .error, area: .requestProperties,
        summary: "a request property became required")

    /// `request-property-became-required-with-default` (INFO).
    public static let requestPropertyBecameRequiredWithDefault = SpecDiffRule(
        id: "request-property-became-required-with-default", level: .info, area: .requestProperties,
        summary: "a request property that has a default became required")

    /// `request-property-became-optional` (INFO).
    public static let requestPropertyBecameOptional = SpecDiffRule(
        id: "request-property-became-optional", level: .info, area: .requestProperties,
        summary: "a request property became optional")

    /// `request-property-removed` (WARN).
    public static let requestPropertyRemoved = SpecDiffRule(
        id: "request-property-removed", level: .warning, area: .requestProperties,
        summary: "a request property removed")

    /// `response-success-status-removed` (ERR).
    public static let responseSuccessStatusRemoved = SpecDiffRule(
        id: "response-success-status-removed", level: .error, area: .responses,
        summary: "a success status removed")

    /// `response-non-success-status-removed` (INFO).
    public static let responseNonSuccessStatusRemoved = SpecDiffRule(
        id: "response-non-success-status-removed", level: .info, area: .responses,
        summary: "an error status removed")

    /// `response-success-status-added` (INFO).
    public static let responseSuccessStatusAdded = SpecDiffRule(
        id: "response-success-status-added", level: .info, area: .responses,
        summary: "a success status added")

    /// `response-non-success-status-added` (INFO).
    public static let responseNonSuccessStatusAdded = SpecDiffRule(
        id: "response-non-success-status-added", level: .info, area: .responses,
        summary: "an error status added")

    /// `response-media-type-removed` (ERR).
    public static let responseMediaTypeRemoved = SpecDiffRule(
        id: "response-media-type-removed", level: .error, area: .responses,
        summary: "a response media type removed")

    /// `required-response-header-removed` (ERR).
    public static let requiredResponseHeaderRemoved = SpecDiffRule(
        id: "required-response-header-removed", level: .error, area: .responses,
        summary: "a required response header removed")

    /// `optional-response-header-removed` (WARN).
    public static let optionalResponseHeaderRemoved = SpecDiffRule(
        id: "optional-response-header-removed", level: .warning, area: .responses,
        summary: "an optional response header removed")

    /// `response-required-property-removed` (ERR).
    public static let responseRequiredPropertyRemoved = SpecDiffRule(
        id: "response-required-property-removed", level: .error, area: .responseProperties,
        summary: "a required response property removed")

    /// `response-optional-property-removed` (WARN).
    public static let responseOptionalPropertyRemoved = SpecDiffRule(
        id: "response-optional-property-removed", level: .warning, area: .responseProperties,
        summary: "an optional response property removed")

    /// `response-property-became-optional` (ERR).
    public static let responsePropertyBecameOptional = SpecDiffRule(
        id: "response-property-became-optional", level: .error, area: .responseProperties,
        summary: "a required response property became optional: the generated property turns optional")

    /// `response-property-became-optional-with-default` (INFO).
    public static let responsePropertyBecameOptionalWithDefault = SpecDiffRule(
        id: "response-property-became-optional-with-default", level: .info, area: .responseProperties,
        summary: "a response property became optional with a default: absent, it decodes as the default, the Swift type stays")

    /// `response-required-property-added` (INFO).
    public static let responseRequiredPropertyAdded = SpecDiffRule(
        id: "response-required-property-added", level: .info, area: .responseProperties,
        summary: "a required response property added")

    /// `response-optional-property-added` (INFO).
    public static let responseOptionalPropertyAdded = SpecDiffRule(
        id: "response-optional-property-added", level: .info, area: .responseProperties,
        summary: "an optional response property added")

    /// `response-property-became-required` (INFO).
    public static let responsePropertyBecameRequired = SpecDiffRule(
        id: "response-property-became-required", level: .info, area: .responseProperties,
        summary: "an optional response property became required")

    /// `request-parameter-type-changed` (ERR).
    public static let requestParameterTypeChanged = SpecDiffRule(
        id: "request-parameter-type-changed", level: .error, area: .types,
        summary: "the type or format of a request parameter changed")

    /// `request-property-type-changed` (ERR).
    public static let requestPropertyTypeChanged = SpecDiffRule(
        id: "request-property-type-changed", level: .error, area: .types,
        summary: "the type or format of a request property changed")

    /// `request-body-type-changed` (ERR).
    public static let requestBodyTypeChanged = SpecDiffRule(
        id: "request-body-type-changed", level: .error, area: .types,
        summary: "the type or format of a request body changed")

    /// `response-property-type-changed` (ERR).
    public static let responsePropertyTypeChanged = SpecDiffRule(
        id: "response-property-type-changed", level: .error, area: .types,
        summary: "the type or format of a response property changed")

    /// `response-body-type-changed` (ERR).
    public static let responseBodyTypeChanged = SpecDiffRule(
        id: "response-body-type-changed", level: .error, area: .types,
        summary: "the type or format of a response body changed")

    /// `request-parameter-list-of-types-narrowed` (ERR).
    public static let requestParameterListOfTypesNarrowed = SpecDiffRule(
        id: "request-parameter-list-of-types-narrowed", level: .error, area: .types,
        summary: "a type removed from the list of types of a request parameter (what shipped clients send may be refused)")

    /// `request-parameter-list-of-types-widened` (INFO).
    public static let requestParameterListOfTypesWidened = SpecDiffRule(
        id: "request-parameter-list-of-types-widened", level: .info, area: .types,
        summary: "a type added to the list of types of a request parameter")

    /// `request-property-list-of-types-narrowed` (ERR).
    public static let requestPropertyListOfTypesNarrowed = SpecDiffRule(
        id: "request-property-list-of-types-narrowed", level: .error, area: .types,
        summary: "a type removed from the list of types of a request property (what shipped clients send may be refused)")

    /// `request-property-list-of-types-widened` (INFO).
    public static let requestPropertyListOfTypesWidened = SpecDiffRule(
        id: "request-property-list-of-types-widened", level: .info, area: .types,
        summary: "a type added to the list of types of a request property")

    /// `request-body-list-of-types-narrowed` (ERR).
    public static let requestBodyListOfTypesNarrowed = SpecDiffRule(
        id: "request-body-list-of-types-narrowed", level: .error, area: .types,
        summary: "a type removed from the list of types of a request body (what shipped clients send may be refused)")

    /// `request-body-list-of-types-widened` (INFO).
    public static let requestBodyListOfTypesWidened = SpecDiffRule(
        id: "request-body-list-of-types-widened", level: .info, area: .types,
        summary: "a type added to the list of types of a request body")

    /// `response-property-list-of-types-narrowed` (INFO).
    public static let responsePropertyListOfTypesNarrowed = SpecDiffRule(
        id: "response-property-list-of-types-narrowed", level: .info, area: .types,
        summary: "a type removed from the list of types of a response property")

    /// `response-property-list-of-types-widened` (ERR).
    public static let responsePropertyListOfTypesWidened = SpecDiffRule(
        id: "response-property-list-of-types-widened", level: .error, area: .types,
        summary: "a type added to the list of types of a response property (shipped clients cannot decode it)")

    /// `response-body-list-of-types-narrowed` (INFO).
    public static let responseBodyListOfTypesNarrowed = SpecDiffRule(
        id: "response-body-list-of-types-narrowed", level: .info, area: .types,
        summary: "a type removed from the list of types of a response body")

    /// `response-body-list-of-types-widened` (ERR).
    public static let responseBodyListOfTypesWidened = SpecDiffRule(
        id: "response-body-list-of-types-widened", level: .error, area: .types,
        summary: "a type added to the list of types of a response body (shipped clients cannot decode it)")

    /// `request-parameter-became-enum` (ERR).
    public static let requestParameterBecameEnum = SpecDiffRule(
        id: "request-parameter-became-enum", level: .error, area: .enums,
        summary: "a request parameter was restricted to a list of enum values")

    /// `request-parameter-enum-value-removed` (ERR).
    public static let requestParameterEnumValueRemoved = SpecDiffRule(
        id: "request-parameter-enum-value-removed", level: .error, area: .enums,
        summary: "an enum value of a request parameter removed")

    /// `request-parameter-enum-value-added` (INFO).
    public static let requestParameterEnumValueAdded = SpecDiffRule(
        id: "request-parameter-enum-value-added", level: .info, area: .enums,
        summary: "an enum value of a request parameter added")

    /// `request-property-became-enum` (ERR).
    public static let requestPropertyBecameEnum = SpecDiffRule(
        id: "request-property-became-enum", level: .error, area: .enums,
        summary: "a request property was restricted to a list of enum values")

    /// `request-property-enum-value-removed` (ERR).
    public static let requestPropertyEnumValueRemoved = SpecDiffRule(
        id: "request-property-enum-value-removed", level: .error, area: .enums,
        summary: "an enum value of a request property removed")

    /// `request-property-enum-value-added` (INFO).
    public static let requestPropertyEnumValueAdded = SpecDiffRule(
        id: "request-property-enum-value-added", level: .info, area: .enums,
        summary: "an enum value of a request property added")

    /// `request-body-became-enum` (ERR).
    public static let requestBodyBecameEnum = SpecDiffRule(
        id: "request-body-became-enum", level: .error, area: .enums,
        summary: "a request body was restricted to a list of enum values")

    /// `request-body-enum-value-removed` (ERR).
    public static let requestBodyEnumValueRemoved = SpecDiffRule(
        id: "request-body-enum-value-removed", level: .error, area: .enums,
        summary: "an enum value of a request body removed")

    /// `request-body-enum-value-added` (INFO).
    public static let requestBodyEnumValueAdded = SpecDiffRule(
        id: "request-body-enum-value-added", level: .info, area: .enums,
        summary: "an enum value of a request body added")

    /// `response-property-enum-value-added` (WARN).
    public static let responsePropertyEnumValueAdded = SpecDiffRule(
        id: "response-property-enum-value-added", level: .warning, area: .enums,
        summary: "an enum value of a response property added (clientgen's clients decode it as `.unknown`; others may fail)")

    /// `response-property-enum-value-removed` (INFO).
    public static let responsePropertyEnumValueRemoved = SpecDiffRule(
        id: "response-property-enum-value-removed", level: .info, area: .enums,
        summary: "an enum value of a response property removed")

    /// `response-body-enum-value-added` (WARN).
    public static let responseBodyEnumValueAdded = SpecDiffRule(
        id: "response-body-enum-value-added", level: .warning, area: .enums,
        summary: "an enum value of a response body added (clientgen's clients decode it as `.unknown`; others may fail)")

    /// `response-body-enum-value-removed` (INFO).
    public static let responseBodyEnumValueRemoved = SpecDiffRule(
        id: "response-body-enum-value-removed", level: .info, area: .enums,
        summary: "an enum value of a response body removed")

    /// `request-property-became-not-nullable` (ERR).
    public static let requestPropertyBecameNotNullable = SpecDiffRule(
        id: "request-property-became-not-nullable", level: .error, area: .nullability,
        summary: "a request property no longer accepts null")

    /// `request-property-became-nullable` (INFO).
    public static let requestPropertyBecameNullable = SpecDiffRule(
        id: "request-property-became-nullable", level: .info, area: .nullability,
        summary: "a request property accepts null")

    /// `request-body-became-not-nullable` (ERR).
    public static let requestBodyBecameNotNullable = SpecDiffRule(
        id: "request-body-became-not-nullable", level: .error, area: .nullability,
        summary: "a request body no longer accepts null")

    /// `request-body-became-nullable` (INFO).
    public static let requestBodyBecameNullable = SpecDiffRule(
        id: "request-body-became-nullable", level: .info, area: .nullability,
        summary: "a request body accepts null")

    /// `response-property-became-nullable` (ERR).
    public static let responsePropertyBecameNullable = SpecDiffRule(
        id: "response-property-became-nullable", level: .error, area: .nullability,
        summary: "a response property may be null")

    /// `response-body-became-nullable` (ERR).
    public static let responseBodyBecameNullable = SpecDiffRule(
        id: "response-body-became-nullable", level: .error, area: .nullability,
        summary: "a response body may be null")

    /// `request-property-one-of-added` (INFO).
    public static let requestPropertyOneOfAdded = SpecDiffRule(
        id: "request-property-one-of-added", level: .info, area: .compositions,
        summary: "a member added to the `oneOf` of a request property")

    /// `request-property-one-of-removed` (ERR).
    public static let requestPropertyOneOfRemoved = SpecDiffRule(
        id: "request-property-one-of-removed", level: .error, area: .compositions,
        summary: "a member removed from the `oneOf` of a request property")

    /// `request-property-any-of-added` (INFO).
    public static let requestPropertyAnyOfAdded = SpecDiffRule(
        id: "request-property-any-of-added", level: .info, area: .compositions,
        summary: "a member added to the `anyOf` of a request property")

    /// `request-property-any-of-removed` (ERR).
    public static let requestPropertyAnyOfRemoved = SpecDiffRule(
        id: "request-property-any-of-removed", level: .error, area: .compositions,
        summary: "a member removed from the `anyOf` of a request property")

    /// `request-property-all-of-added` (ERR).
    public static let requestPropertyAllOfAdded = SpecDiffRule(
        id: "request-property-all-of-added", level: .error, area: .compositions,
        summary: "a member added to the `allOf` of a request property")

    /// `request-property-all-of-removed` (WARN).
    public static let requestPropertyAllOfRemoved = SpecDiffRule(
        id: "request-property-all-of-removed", level: .warning, area: .compositions,
        summary: "a member removed from the `allOf` of a request property")

    /// `request-body-one-of-added` (INFO).
    public static let requestBodyOneOfAdded = SpecDiffRule(
        id: "request-body-one-of-added", level: .info, area: .compositions,
        summary: "a member added to the `oneOf` of a request body")

    /// `request-body-one-of-removed` (ERR).
    public static let requestBodyOneOfRemoved = SpecDiffRule(
        id: "request-body-one-of-removed", level: .error, area: .compositions,
        summary: "a member removed from the `oneOf` of a request body")

    /// `request-body-any-of-added` (INFO).
    public static let requestBodyAnyOfAdded = SpecDiffRule(
        id: "request-body-any-of-added", level: .info, area: .compositions,
        summary: "a member added to the `anyOf` of a request body")

    /// `request-body-any-of-removed` (ERR).
    public static let requestBodyAnyOfRemoved = SpecDiffRule(
        id: "request-body-any-of-removed", level: .error, area: .compositions,
        summary: "a member removed from the `anyOf` of a request body")

    /// `request-body-all-of-added` (ERR).
    public static let requestBodyAllOfAdded = SpecDiffRule(
        id: "request-body-all-of-added", level: .error, area: .compositions,
        summary: "a member added to the `allOf` of a request body")

    /// `request-body-all-of-removed` (WARN).
    public static let requestBodyAllOfRemoved = SpecDiffRule(
        id: "request-body-all-of-removed", level: .warning, area: .compositions,
        summary: "a member removed from the `allOf` of a request body")

    /// `response-property-one-of-added` (INFO).
    public static let responsePropertyOneOfAdded = SpecDiffRule(
        id: "response-property-one-of-added", level: .info, area: .compositions,
        summary: "a member added to the `oneOf` of a response property (a clientgen client decodes an unknown member only when a discriminator names it)")

    /// `response-property-one-of-removed` (INFO).
    public static let responsePropertyOneOfRemoved = SpecDiffRule(
        id: "response-property-one-of-removed", level: .info, area: .compositions,
        summary: "a member removed from the `oneOf` of a response property")

    /// `response-property-any-of-added` (INFO).
    public static let responsePropertyAnyOfAdded = SpecDiffRule(
        id: "response-property-any-of-added", level: .info, area: .compositions,
        summary: "a member added to the `anyOf` of a response property")

    /// `response-property-any-of-removed` (INFO).
    public static let responsePropertyAnyOfRemoved = SpecDiffRule(
        id: "response-property-any-of-removed", level: .info, area: .compositions,
        summary: "a member removed from the `anyOf` of a response property")

    /// `response-property-all-of-added` (INFO).
    public static let responsePropertyAllOfAdded = SpecDiffRule(
        id: "response-property-all-of-added", level: .info, area: .compositions,
        summary: "a member added to the `allOf` of a response property")

    /// `response-property-all-of-removed` (INFO).
    public static let responsePropertyAllOfRemoved = SpecDiffRule(
        id: "response-property-all-of-removed", level: .info, area: .compositions,
        summary: "a member removed from the `allOf` of a response property")

    /// `response-body-one-of-added` (INFO).
    public static let responseBodyOneOfAdded = SpecDiffRule(
        id: "response-body-one-of-added", level: .info, area: .compositions,
        summary: "a member added to the `oneOf` of a response body (a clientgen client decodes an unknown member only when a discriminator names it)")

    /// `response-body-one-of-removed` (INFO).
    public static let responseBodyOneOfRemoved = SpecDiffRule(
        id: "response-body-one-of-removed", level: .info, area: .compositions,
        summary: "a member removed from the `oneOf` of a response body")

    /// `response-body-any-of-added` (INFO).
    public static let responseBodyAnyOfAdded = SpecDiffRule(
        id: "response-body-any-of-added", level: .info, area: .compositions,
        summary: "a member added to the `anyOf` of a response body")

    /// `response-body-any-of-removed` (INFO).
    public static let responseBodyAnyOfRemoved = SpecDiffRule(
        id: "response-body-any-of-removed", level: .info, area: .compositions,
        summary: "a member removed from the `anyOf` of a response body")

    /// `response-body-all-of-added` (INFO).
    public static let responseBodyAllOfAdded = SpecDiffRule(
        id: "response-body-all-of-added", level: .info, area: .compositions,
        summary: "a member added to the `allOf` of a response body")

    /// `response-body-all-of-removed` (INFO).
    public static let responseBodyAllOfRemoved = SpecDiffRule(
        id: "response-body-all-of-removed", level: .info, area: .compositions,
        summary: "a member removed from the `allOf` of a response body")

    /// `request-parameter-max-set` (WARN).
    public static let requestParameterMaxSet = SpecDiffRule(
        id: "request-parameter-max-set", level: .warning, area: .boundsAndPatterns,
        summary: "`maximum` set on a request parameter that had none")

    /// `request-parameter-max-decreased` (ERR).
    public static let requestParameterMaxDecreased = SpecDiffRule(
        id: "request-parameter-max-decreased", level: .error, area: .boundsAndPatterns,
        summary: "`maximum` of a request parameter decreased")

    /// `request-parameter-max-increased` (INFO).
    public static let requestParameterMaxIncreased = SpecDiffRule(
        id: "request-parameter-max-increased", level: .info, area: .boundsAndPatterns,
        summary: "`maximum` of a request parameter increased")

    /// `request-parameter-min-set` (WARN).
    public static let requestParameterMinSet = SpecDiffRule(
        id: "request-parameter-min-set", level: .warning, area: .boundsAndPatterns,
        summary: "`minimum` set on a request parameter that had none")

    /// `request-parameter-min-decreased` (INFO).
    public static let requestParameterMinDecreased = SpecDiffRule(
        id: "request-parameter-min-decreased", level: .info, area: .boundsAndPatterns,
        summary: "`minimum` of a request parameter decreased")

    /// `request-parameter-min-increased` (ERR).
    public static let requestParameterMinIncreased = SpecDiffRule(
        id: "request-parameter-min-increased", level: .error, area: .boundsAndPatterns,
        summary: "`minimum` of a request parameter increased")

    /// `request-parameter-max-length-set` (WARN).
    public static let requestParameterMaxLengthSet = SpecDiffRule(
        id: "request-parameter-max-length-set", level: .warning, area: .boundsAndPatterns,
        summary: "`maxLength` set on a request parameter that had none")

    /// `request-parameter-max-length-decreased` (ERR).
    public static let requestParameterMaxLengthDecreased = SpecDiffRule(
        id: "request-parameter-max-length-decreased", level: .error, area: .boundsAndPatterns,
        summary: "`maxLength` of a request parameter decreased")

    /// `request-parameter-max-length-increased` (INFO).
    public static let requestParameterMaxLengthIncreased = SpecDiffRule(
        id: "request-parameter-max-length-increased", level: .info, area: .boundsAndPatterns,
        summary: "`maxLength` of a request parameter increased")

    /// `request-parameter-min-length-set` (WARN).
    public static let requestParameterMinLengthSet = SpecDiffRule(
        id: "request-parameter-min-length-set", level: .warning, area: .boundsAndPatterns,
        summary: "`minLength` set on a request parameter that had none")

    /// `request-parameter-min-length-decreased` (INFO).
    public static let requestParameterMinLengthDecreased = SpecDiffRule(
        id: "request-parameter-min-length-decreased", level: .info, area: .boundsAndPatterns,
        summary: "`minLength` of a request parameter decreased")

    /// `request-parameter-min-length-increased` (ERR).
    public static let requestParameterMinLengthIncreased = SpecDiffRule(
        id: "request-parameter-min-length-increased", level: .error, area: .boundsAndPatterns,
        summary: "`minLength` of a request parameter increased")

    /// `request-parameter-max-items-set` (WARN).
    public static let requestParameterMaxItemsSet = SpecDiffRule(
        id: "request-parameter-max-items-set", level: .warning, area: .boundsAndPatterns,
        summary: "`maxItems` set on a request parameter that had none")

    /// `request-parameter-max-items-decreased` (ERR).
    public static let requestParameterMaxItemsDecreased = SpecDiffRule(
        id: "request-parameter-max-items-decreased", level: .error, area: .boundsAndPatterns,
        summary: "`maxItems` of a request parameter decreased")

    /// `request-parameter-max-items-increased` (INFO).
    public static let requestParameterMaxItemsIncreased = SpecDiffRule(
        id: "request-parameter-max-items-increased", level: .info, area: .boundsAndPatterns,
        summary: "`maxItems` of a request parameter increased")

    /// `request-parameter-min-items-set` (WARN).
    public static let requestParameterMinItemsSet = SpecDiffRule(
        id: "request-parameter-min-items-set", level: .warning, area: .boundsAndPatterns,
        summary: "`minItems` set on a request parameter that had none")

    /// `request-parameter-min-items-decreased` (INFO).
    public static let requestParameterMinItemsDecreased = SpecDiffRule(
        id: "request-parameter-min-items-decreased", level: .info, area: .boundsAndPatterns,
        summary: "`minItems` of a request parameter decreased")

    /// `request-parameter-min-items-increased` (ERR).
    public static let requestParameterMinItemsIncreased = SpecDiffRule(
        id: "request-parameter-min-items-increased", level: .error, area: .boundsAndPatterns,
        summary: "`minItems` of a request parameter increased")

    /// `request-parameter-pattern-added` (WARN).
    public static let requestParameterPatternAdded = SpecDiffRule(
        id: "request-parameter-pattern-added", level: .warning, area: .boundsAndPatterns,
        summary: "a `pattern` set on a request parameter that had none")

    /// `request-parameter-pattern-changed` (WARN).
    public static let requestParameterPatternChanged = SpecDiffRule(
        id: "request-parameter-pattern-changed", level: .warning, area: .boundsAndPatterns,
        summary: "the `pattern` of a request parameter changed")

    /// `request-parameter-pattern-removed` (INFO).
    public static let requestParameterPatternRemoved = SpecDiffRule(
        id: "request-parameter-pattern-removed", level: .info, area: .boundsAndPatterns,
        summary: "the `pattern` of a request parameter removed")

    /// `request-property-max-set` (WARN).
    public static let requestPropertyMaxSet = SpecDiffRule(
        id: "request-property-max-set", level: .warning, area: .boundsAndPatterns,
        summary: "`maximum` set on a request property that had none")

    /// `request-property-max-decreased` (ERR).
    public static let requestPropertyMaxDecreased = SpecDiffRule(
        id: "request-property-max-decreased", level: .error, area: .boundsAndPatterns,
        summary: "`maximum` of a request property decreased")

    /// `request-property-max-increased` (INFO).
    public static let requestPropertyMaxIncreased = SpecDiffRule(
        id: "request-property-max-increased", level: .info, area: .boundsAndPatterns,
        summary: "`maximum` of a request property increased")

    /// `request-property-min-set` (WARN).
    public static let requestPropertyMinSet = SpecDiffRule(
        id: "request-property-min-set", level: .warning, area: .boundsAndPatterns,
        summary: "`minimum` set on a request property that had none")

    /// `request-property-min-decreased` (INFO).
    public static let requestPropertyMinDecreased = SpecDiffRule(
        id: "request-property-min-decreased", level: .info, area: .boundsAndPatterns,
        summary: "`minimum` of a request property decreased")

    /// `request-property-min-increased` (ERR).
    public static let requestPropertyMinIncreased = SpecDiffRule(
        id: "request-property-min-increased", level: .error, area: .boundsAndPatterns,
        summary: "`minimum` of a request property increased")

    /// `request-property-max-length-set` (WARN).
    public static let requestPropertyMaxLengthSet = SpecDiffRule(
        id: "request-property-max-length-set", level: .warning, area: .boundsAndPatterns,
        summary: "`maxLength` set on a request property that had none")

    /// `request-property-max-length-decreased` (ERR).
    public static let requestPropertyMaxLengthDecreased = SpecDiffRule(
        id: "request-property-max-length-decreased", level: .error, area: .boundsAndPatterns,
        summary: "`maxLength` of a request property decreased")

    /// `request-property-max-length-increased` (INFO).
    public static let requestPropertyMaxLengthIncreased = SpecDiffRule(
        id: "request-property-max-length-increased", level: .info, area: .boundsAndPatterns,
        summary: "`maxLength` of a request property increased")

    /// `request-property-min-length-set` (WARN).
    public static let requestPropertyMinLengthSet = SpecDiffRule(
        id: "request-property-min-length-set", level: .warning, area: .boundsAndPatterns,
        summary: "`minLength` set on a request property that had none")

    /// `request-property-min-length-decreased` (INFO).
    public static let requestPropertyMinLengthDecreased = SpecDiffRule(
        id: "request-property-min-length-decreased", level: .info, area: .boundsAndPatterns,
        summary: "`minLength` of a request property decreased")

    /// `request-property-min-length-increased` (ERR).
    public static let requestPropertyMinLengthIncreased = SpecDiffRule(
        id: "request-property-min-length-increased", level: .error, area: .boundsAndPatterns,
        summary: "`minLength` of a request property increased")

    /// `request-property-max-items-set` (WARN).
    public static let requestPropertyMaxItemsSet = SpecDiffRule(
        id: "request-property-max-items-set", level: .warning, area: .boundsAndPatterns,
        summary: "`maxItems` set on a request property that had none")

    /// `request-property-max-items-decreased` (ERR).
    public static let requestPropertyMaxItemsDecreased = SpecDiffRule(
        id: "request-property-max-items-decreased", level: .error, area: .boundsAndPatterns,
        summary: "`maxItems` of a request property decreased")

    /// `request-property-max-items-increased` (INFO).
    public static let requestPropertyMaxItemsIncreased = SpecDiffRule(
        id: "request-property-max-items-increased", level: .info, area: .boundsAndPatterns,
        summary: "`maxItems` of a request property increased")

    /// `request-property-min-items-set` (WARN).
    public static let requestPropertyMinItemsSet = SpecDiffRule(
        id: "request-property-min-items-set", level: .warning, area: .boundsAndPatterns,
        summary: "`minItems` set on a request property that had none")

    /// `request-property-min-items-decreased` (INFO).
    public static let requestPropertyMinItemsDecreased = SpecDiffRule(
        id: "request-property-min-items-decreased", level: .info, area: .boundsAndPatterns,
        summary: "`minItems` of a request property decreased")

    /// `request-property-min-items-increased` (ERR).
    public static let requestPropertyMinItemsIncreased = SpecDiffRule(
        id: "request-property-min-items-increased", level: .error, area: .boundsAndPatterns,
        summary: "`minItems` of a request property increased")

    /// `request-property-pattern-added` (WARN).
    public static let requestPropertyPatternAdded = SpecDiffRule(
        id: "request-property-pattern-added", level: .warning, area: .boundsAndPatterns,
        summary: "a `pattern` set on a request property that had none")

    /// `request-property-pattern-changed` (WARN).
    public static let requestPropertyPatternChanged = SpecDiffRule(
        id: "request-property-pattern-changed", level: .warning, area: .boundsAndPatterns,
        summary: "the `pattern` of a request property changed")

    /// `request-property-pattern-removed` (INFO).
    public static let requestPropertyPatternRemoved = SpecDiffRule(
        id: "request-property-pattern-removed", level: .info, area: .boundsAndPatterns,
        summary: "the `pattern` of a request property removed")

    /// `request-body-max-set` (WARN).
    public static let requestBodyMaxSet = SpecDiffRule(
        id: "request-body-max-set", level: .warning, area: .boundsAndPatterns,
        summary: "`maximum` set on a request body that had none")

    /// `request-body-max-decreased` (ERR).
    public static let requestBodyMaxDecreased = SpecDiffRule(
        id: "request-body-max-decreased", level: .error, area: .boundsAndPatterns,
        summary: "`maximum` of a request body decreased")

    /// `request-body-max-increased` (INFO).
    public static let requestBodyMaxIncreased = SpecDiffRule(
        id: "request-body-max-increased", level: .info, area: .boundsAndPatterns,
        summary: "`maximum` of a request body increased")

    /// `request-body-min-set` (WARN).
    public static let requestBodyMinSet = SpecDiffRule(
        id: "request-body-min-set", level: .warning, area: .boundsAndPatterns,
        summary: "`minimum` set on a request body that had none")

    /// `request-body-min-decreased` (INFO).
    public static let requestBodyMinDecreased = SpecDiffRule(
        id: "request-body-min-decreased", level: .info, area: .boundsAndPatterns,
        summary: "`minimum` of a request body decreased")

    /// `request-body-min-increased` (ERR).
    public static let requestBodyMinIncreased = SpecDiffRule(
        id: "request-body-min-increased", level: .error, area: .boundsAndPatterns,
        summary: "`minimum` of a request body increased")

    /// `request-body-max-length-set` (WARN).
    public static let requestBodyMaxLengthSet = SpecDiffRule(
        id: "request-body-max-length-set", level: .warning, area: .boundsAndPatterns,
        summary: "`maxLength` set on a request body that had none")

    /// `request-body-max-length-decreased` (ERR).
    public static let requestBodyMaxLengthDecreased = SpecDiffRule(
        id: "request-body-max-length-decreased", level: .error, area: .boundsAndPatterns,
        summary: "`maxLength` of a request body decreased")

    /// `request-body-max-length-increased` (INFO).
    public static let requestBodyMaxLengthIncreased = SpecDiffRule(
        id: "request-body-max-length-increased", level: .info, area: .boundsAndPatterns,
        summary: "`maxLength` of a request body increased")

    /// `request-body-min-length-set` (WARN).
    public static let requestBodyMinLengthSet = SpecDiffRule(
        id: "request-body-min-length-set", level: .warning, area: .boundsAndPatterns,
        summary: "`minLength` set on a request body that had none")

    /// `request-body-min-length-decreased` (INFO).
    public static let requestBodyMinLengthDecreased = SpecDiffRule(
        id: "request-body-min-length-decreased", level: .info, area: .boundsAndPatterns,
        summary: "`minLength` of a request body decreased")

    /// `request-body-min-length-increased` (ERR).
    public static let requestBodyMinLengthIncreased = SpecDiffRule(
        id: "request-body-min-length-increased", level: .error, area: .boundsAndPatterns,
        summary: "`minLength` of a request body increased")

    /// `request-body-max-items-set` (WARN).
    public static let requestBodyMaxItemsSet = SpecDiffRule(
        id: "request-body-max-items-set", level: .warning, area: .boundsAndPatterns,
        summary: "`maxItems` set on a request body that had none")

    /// `request-body-max-items-decreased` (ERR).
    public static let requestBodyMaxItemsDecreased = SpecDiffRule(
        id: "request-body-max-items-decreased", level: .error, area: .boundsAndPatterns,
        summary: "`maxItems` of a request body decreased")

    /// `request-body-max-items-increased` (INFO).
    public static let requestBodyMaxItemsIncreased = SpecDiffRule(
        id: "request-body-max-items-increased", level: .info, area: .boundsAndPatterns,
        summary: "`maxItems` of a request body increased")

    /// `request-body-min-items-set` (WARN).
    public static let requestBodyMinItemsSet = SpecDiffRule(
        id: "request-body-min-items-set", level: .warning, area: .boundsAndPatterns,
        summary: "`minItems` set on a request body that had none")

    /// `request-body-min-items-decreased` (INFO).
    public static let requestBodyMinItemsDecreased = SpecDiffRule(
        id: "request-body-min-items-decreased", level: .info, area: .boundsAndPatterns,
        summary: "`minItems` of a request body decreased")

    /// `request-body-min-items-increased` (ERR).
    public static let requestBodyMinItemsIncreased = SpecDiffRule(
        id: "request-body-min-items-increased", level: .error, area: .boundsAndPatterns,
        summary: "`minItems` of a request body increased")

    /// `request-body-pattern-added` (WARN).
    public static let requestBodyPatternAdded = SpecDiffRule(
        id: "request-body-pattern-added", level: .warning, area: .boundsAndPatterns,
        summary: "a `pattern` set on a request body that had none")

    /// `request-body-pattern-changed` (WARN).
    public static let requestBodyPatternChanged = SpecDiffRule(
        id: "request-body-pattern-changed", level: .warning, area: .boundsAndPatterns,
        summary: "the `pattern` of a request body changed")

    /// `request-body-pattern-removed` (INFO).
    public static let requestBodyPatternRemoved = SpecDiffRule(
        id: "request-body-pattern-removed", level: .info, area: .boundsAndPatterns,
        summary: "the `pattern` of a request body removed")

    /// `api-security-added` (INFO).
    public static let apiSecurityAdded = SpecDiffRule(
        id: "api-security-added", level: .info, area: .security,
        summary: "a security requirement added (a public operation that starts to need a credential fails for shipped clients that send none: read these)")

    /// `api-security-removed` (INFO).
    public static let apiSecurityRemoved = SpecDiffRule(
        id: "api-security-removed", level: .info, area: .security,
        summary: "a security requirement removed")

    /// `swift-result-type-changed` (WARN).
    public static let swiftResultTypeChanged = SpecDiffRule(
        id: "swift-result-type-changed", level: .warning, area: .generatedSwift,
        summary: "a new success status with another body turns the return type into a per-status enum")

    /// `swift-error-type-changed` (WARN).
    public static let swiftErrorTypeChanged = SpecDiffRule(
        id: "swift-error-type-changed", level: .warning, area: .generatedSwift,
        summary: "a new error status with another body changes `APIError<Body>`: existing `catch` clauses stop matching")

    /// Every rule, in the order the documentation lists them.
    public static let all: [SpecDiffRule] = [
        .apiPathRemovedWithoutDeprecation, .apiPathRemovedWithDeprecation, .apiPathRemovedBeforeSunset,
        .apiRemovedWithoutDeprecation, .apiRemovedWithDeprecation, .apiRemovedBeforeSunset, .endpointAdded,
        .apiOperationIdRemoved, .newRequiredRequestParameter, .newRequestPathParameter, .newOptionalRequestParameter,
        .requestParameterRemoved, .requestParameterBecameRequired, .requestParameterBecameOptional,
        .requestBodyAddedRequired, .requestBodyAddedOptional, .requestBodyBecameRequired, .requestBodyBecameOptional,
        .requestBodyMediaTypeRemoved, .requestBodyMediaTypeAdded, .newRequiredRequestProperty,
        .newRequiredRequestPropertyWithDefault, .newOptionalRequestProperty, .requestPropertyBecameRequired,
        .requestPropertyBecameRequiredWithDefault, .requestPropertyBecameOptional, .requestPropertyRemoved,
        .responseSuccessStatusRemoved, .responseNonSuccessStatusRemoved, .responseSuccessStatusAdded,
        .responseNonSuccessStatusAdded, .responseMediaTypeRemoved, .requiredResponseHeaderRemoved,
        .optionalResponseHeaderRemoved, .responseRequiredPropertyRemoved, .responseOptionalPropertyRemoved,
        .responsePropertyBecameOptional, .responsePropertyBecameOptionalWithDefault, .responseRequiredPropertyAdded,
        .responseOptionalPropertyAdded, .responsePropertyBecameRequired, .requestParameterTypeChanged,
        .requestPropertyTypeChanged, .requestBodyTypeChanged, .responsePropertyTypeChanged, .responseBodyTypeChanged,
        .requestParameterListOfTypesNarrowed, .requestParameterListOfTypesWidened,
        .requestPropertyListOfTypesNarrowed, .requestPropertyListOfTypesWidened, .requestBodyListOfTypesNarrowed,
        .requestBodyListOfTypesWidened, .responsePropertyListOfTypesNarrowed, .responsePropertyListOfTypesWidened,
        .responseBodyListOfTypesNarrowed, .responseBodyListOfTypesWidened, .requestParameterBecameEnum,
        .requestParameterEnumValueRemoved, .requestParameterEnumValueAdded, .requestPropertyBecameEnum,
        .requestPropertyEnumValueRemoved, .requestPropertyEnumValueAdded, .requestBodyBecameEnum,
        .requestBodyEnumValueRemoved, .requestBodyEnumValueAdded, .responsePropertyEnumValueAdded,
        .responsePropertyEnumValueRemoved, .responseBodyEnumValueAdded, .responseBodyEnumValueRemoved,
        .requestPropertyBecameNotNullable, .requestPropertyBecameNullable, .requestBodyBecameNotNullable,
        .requestBodyBecameNullable, .responsePropertyBecameNullable, .responseBodyBecameNullable,
        .requestPropertyOneOfAdded, .requestPropertyOneOfRemoved, .requestPropertyAnyOfAdded,
        .requestPropertyAnyOfRemoved, .requestPropertyAllOfAdded, .requestPropertyAllOfRemoved,
        .requestBodyOneOfAdded, .requestBodyOneOfRemoved, .requestBodyAnyOfAdded, .requestBodyAnyOfRemoved,
        .requestBodyAllOfAdded, .requestBodyAllOfRemoved, .responsePropertyOneOfAdded, .responsePropertyOneOfRemoved,
        .responsePropertyAnyOfAdded, .responsePropertyAnyOfRemoved, .responsePropertyAllOfAdded,
        .responsePropertyAllOfRemoved, .responseBodyOneOfAdded, .responseBodyOneOfRemoved, .responseBodyAnyOfAdded,
        .responseBodyAnyOfRemoved, .responseBodyAllOfAdded, .responseBodyAllOfRemoved, .requestParameterMaxSet,
        .requestParameterMaxDecreased, .requestParameterMaxIncreased, .requestParameterMinSet,
        .requestParameterMinDecreased, .requestParameterMinIncreased, .requestParameterMaxLengthSet,
        .requestParameterMaxLengthDecreased, .requestParameterMaxLengthIncreased, .requestParameterMinLengthSet,
        .requestParameterMinLengthDecreased, .requestParameterMinLengthIncreased, .requestParameterMaxItemsSet,
        .requestParameterMaxItemsDecreased, .requestParameterMaxItemsIncreased, .requestParameterMinItemsSet,
        .requestParameterMinItemsDecreased, .requestParameterMinItemsIncreased, .requestParameterPatternAdded,
        .requestParameterPatternChanged, .requestParameterPatternRemoved, .requestPropertyMaxSet,
        .requestPropertyMaxDecreased, .requestPropertyMaxIncreased, .requestPropertyMinSet,
        .requestPropertyMinDecreased, .requestPropertyMinIncreased, .requestPropertyMaxLengthSet,
        .requestPropertyMaxLengthDecreased, .requestPropertyMaxLengthIncreased, .requestPropertyMinLengthSet,
        .requestPropertyMinLengthDecreased, .requestPropertyMinLengthIncreased, .requestPropertyMaxItemsSet,
        .requestPropertyMaxItemsDecreased, .requestPropertyMaxItemsIncreased, .requestPropertyMinItemsSet,
        .requestPropertyMinItemsDecreased, .requestPropertyMinItemsIncreased, .requestPropertyPatternAdded,
        .requestPropertyPatternChanged, .requestPropertyPatternRemoved, .requestBodyMaxSet, .requestBodyMaxDecreased,
        .requestBodyMaxIncreased, .requestBodyMinSet, .requestBodyMinDecreased, .requestBodyMinIncreased,
        .requestBodyMaxLengthSet, .requestBodyMaxLengthDecreased, .requestBodyMaxLengthIncreased,
        .requestBodyMinLengthSet, .requestBodyMinLengthDecreased, .requestBodyMinLengthIncreased,
        .requestBodyMaxItemsSet, .requestBodyMaxItemsDecreased, .requestBodyMaxItemsIncreased,
        .requestBodyMinItemsSet, .requestBodyMinItemsDecreased, .requestBodyMinItemsIncreased,
        .requestBodyPatternAdded, .requestBodyPatternChanged, .requestBodyPatternRemoved, .apiSecurityAdded,
        .apiSecurityRemoved, .swiftResultTypeChanged, .swiftErrorTypeChanged
    ]
}
