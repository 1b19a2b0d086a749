/// The rules that come in families, looked up by what changed where.
extension SpecDiffRule {
    /// Where a schema sits, for the rules that differ by place.
    public enum Subject: Sendable, Hashable {
        /// A parameter's schema (or its array items).
        case requestParameter
        /// A property inside a request body.
        case requestProperty
        /// A request body's top-level schema.
        case requestBody
        /// A property inside a response body.
        case responseProperty
        /// A response body's top-level schema.
        case responseBody
    }

    /// A numeric bound of JSON Schema.
    public enum Bound: Sendable, Hashable, CaseIterable {
        /// `maximum`.
        case max
        /// `minimum`.
        case min
        /// `maxLength`.
        case maxLength
        /// `minLength`.
        case minLength
        /// `maxItems`.
        case maxItems
        /// `minItems`.
        case minItems
    }

    /// How a bound or pattern changed.
    public enum Change: Sendable, Hashable {
        /// It was absent and is now set.
        case set
        /// Its value went up.
        case increased
        /// Its value went down.
        case decreased
        /// It was replaced (patterns).
        case changed
        /// It was removed (patterns).
        case removed
    }

    /// A composition keyword.
    public enum Composition: Sendable, Hashable, CaseIterable {
        /// `oneOf`.
        case oneOf
        /// `anyOf`.
        case anyOf
        /// `allOf`.
        case allOf
    }

    /// The type or format of a schema changed.
    public static func typeChanged(_ subject: Subject) -> SpecDiffRule {
        switch subject {
        case .requestParameter: return .requestParameterTypeChanged
        case .requestProperty: return .requestPropertyTypeChanged
        case .requestBody: return .requestBodyTypeChanged
        case .responseProperty: return .responsePropertyTypeChanged
        case .responseBody: return .responseBodyTypeChanged
        }
    }

    /// Types removed from (narrowed) or added to a list of types.
    public static func listOfTypes(_ subject: Subject, narrowed: Bool) -> SpecDiffRule {
        switch (subject, narrowed) {
        case (.requestParameter, true): return .requestParameterListOfTypesNarrowed
        case (.requestParameter, false): return .requestParameterListOfTypesWidened
        case (.requestProperty, true): return .requestPropertyListOfTypesNarrowed
        case (.requestProperty, false): return .requestPropertyListOfTypesWidened
        case (.requestBody, true): return .requestBodyListOfTypesNarrowed
        case (.requestBody, false): return .requestBodyListOfTypesWidened
        case (.responseProperty, true): return .responsePropertyListOfTypesNarrowed
        case (.responseProperty, false): return .responsePropertyListOfTypesWidened
        case (.responseBody, true): return .responseBodyListOfTypesNarrowed
        case (.responseBody, false): return .responseBodyListOfTypesWidened
        }
    }

    /// A request value restricted to a list of enum values; nil for responses (not breaking, not reported).
    public static func becameEnum(_ subject: Subject) -> SpecDiffRule? {
        switch subject {
        case .requestParameter: return .requestParameterBecameEnum
        case .requestProperty: return .requestPropertyBecameEnum
        case .requestBody: return .requestBodyBecameEnum
        default: return nil
        }
    }

    /// An enum value added or removed.
    public static func enumValue(_ subject: Subject, added: Bool) -> SpecDiffRule {
        switch (subject, added) {
        case (.requestParameter, true): return .requestParameterEnumValueAdded
        case (.requestParameter, false): return .requestParameterEnumValueRemoved
        case (.requestProperty, true): return .requestPropertyEnumValueAdded
        case (.requestProperty, false): return .requestPropertyEnumValueRemoved
        case (.requestBody, true): return .requestBodyEnumValueAdded
        case (.requestBody, false): return .requestBodyEnumValueRemoved
        case (.responseProperty, true): return .responsePropertyEnumValueAdded
        case (.responseProperty, false): return .responsePropertyEnumValueRemoved
        case (.responseBody, true): return .responseBodyEnumValueAdded
        case (.responseBody, false): return .responseBodyEnumValueRemoved
        }
    }

    /// A property or body that started or stopped accepting null; nil where that breaks nothing and is not reported.
    public static func nullability(_ subject: Subject, becameNullable: Bool) -> SpecDiffRule? {
        switch (subject, becameNullable) {
        case (.requestProperty, true): return .requestPropertyBecameNullable
        case (.requestProperty, false): return .requestPropertyBecameNotNullable
        case (.requestBody, true): return .requestBodyBecameNullable
        case (.requestBody, false): return .requestBodyBecameNotNullable
        case (.responseProperty, true): return .responsePropertyBecameNullable
        case (.responseBody, true): return .responseBodyBecameNullable
        default: return nil
        }
    }

    /// A member added to or removed from a composition; nil for parameters.
    public static func composition(_ subject: Subject, _ keyword: Composition, added: Bool) -> SpecDiffRule? {
        switch (subject, keyword, added) {
        case (.requestProperty, .oneOf, true): return .requestPropertyOneOfAdded
        case (.requestProperty, .oneOf, false): return .requestPropertyOneOfRemoved
        case (.requestProperty, .anyOf, true): return .requestPropertyAnyOfAdded
        case (.requestProperty, .anyOf, false): return .requestPropertyAnyOfRemoved
        case (.requestProperty, .allOf, true): return .requestPropertyAllOfAdded
        case (.requestProperty, .allOf, false): return .requestPropertyAllOfRemoved
        case (.requestBody, .oneOf, true): return .requestBodyOneOfAdded
        case (.requestBody, .oneOf, false): return .requestBodyOneOfRemoved
        case (.requestBody, .anyOf, true): return .requestBodyAnyOfAdded
        case (.requestBody, .anyOf, false): return .requestBodyAnyOfRemoved
        case (.requestBody, .allOf, true): return .requestBodyAllOfAdded
        case (.requestBody, .allOf, false): return .requestBodyAllOfRemoved
        case (.responseProperty, .oneOf, true): return .responsePropertyOneOfAdded
        case (.responseProperty, .oneOf, false): return .responsePropertyOneOfRemoved
        case (.responseProperty, .anyOf, true): return .responsePropertyAnyOfAdded
        case (.responseProperty, .anyOf, false): return .responsePropertyAnyOfRemoved
        case (.responseProperty, .allOf, true): return .responsePropertyAllOfAdded
        case (.responseProperty, .allOf, false): return .responsePropertyAllOfRemoved
        case (.responseBody, .oneOf, true): return .responseBodyOneOfAdded
        case (.responseBody, .oneOf, false): return .responseBodyOneOfRemoved
        case (.responseBody, .anyOf, true): return .responseBodyAnyOfAdded
        case (.responseBody, .anyOf, false): return .responseBodyAnyOfRemoved
        case (.responseBody, .allOf, true): return .responseBodyAllOfAdded
        case (.responseBody, .allOf, false): return .responseBodyAllOfRemoved
        default: return nil
        }
    }

    /// A bound set, increased or decreased on a request value; nil for responses and for pattern-only changes.
    public static func bound(_ subject: Subject, _ bound: Bound, _ change: Change) -> SpecDiffRule? {
        switch (subject, bound, change) {
        case (.requestParameter, .max, .set): return .requestParameterMaxSet
        case (.requestParameter, .max, .increased): return .requestParameterMaxIncreased
        case (.requestParameter, .max, .decreased): return .requestParameterMaxDecreased
        case (.requestParameter, .min, .set): return .requestParameterMinSet
        case (.requestParameter, .min, .increased): return .requestParameterMinIncreased
        case (.requestParameter, .min, .decreased): return .requestParameterMinDecreased
        case (.requestParameter, .maxLength, .set): return .requestParameterMaxLengthSet
        case (.requestParameter, .maxLength, .increased): return .requestParameterMaxLengthIncreased
        case (.requestParameter, .maxLength, .decreased): return .requestParameterMaxLengthDecreased
        case (.requestParameter, .minLength, .set): return .requestParameterMinLengthSet
        case (.requestParameter, .minLength, .increased): return .requestParameterMinLengthIncreased
        case (.requestParameter, .minLength, .decreased): return .requestParameterMinLengthDecreased
        case (.requestParameter, .maxItems, .set): return .requestParameterMaxItemsSet
        case (.requestParameter, .maxItems, .increased): return .requestParameterMaxItemsIncreased
        case (.requestParameter, .maxItems, .decreased): return .requestParameterMaxItemsDecreased
        case (.requestParameter, .minItems, .set): return .requestParameterMinItemsSet
        case (.requestParameter, .minItems, .increased): return .requestParameterMinItemsIncreased
        case (.requestParameter, .minItems, .decreased): return .requestParameterMinItemsDecreased
        case (.requestProperty, .max, .set): return .requestPropertyMaxSet
        case (.requestProperty, .max, .increased): return .requestPropertyMaxIncreased
        case (.requestProperty, .max, .decreased): return .requestPropertyMaxDecreased
        case (.requestProperty, .min, .set): return .requestPropertyMinSet
        case (.requestProperty, .min, .increased): return .requestPropertyMinIncreased
        case (.requestProperty, .min, .decreased): return .requestPropertyMinDecreased
        case (.requestProperty, .maxLength, .set): return .requestPropertyMaxLengthSet
        case (.requestProperty, .maxLength, .increased): return .requestPropertyMaxLengthIncreased
        case (.requestProperty, .maxLength, .decreased): return .requestPropertyMaxLengthDecreased
        case (.requestProperty, .minLength, .set): return .requestPropertyMinLengthSet
        case (.requestProperty, .minLength, .increased): return .requestPropertyMinLengthIncreased
        case (.requestProperty, .minLength, .decreased): return .requestPropertyMinLengthDecreased
        case (.requestProperty, .maxItems, .set): return .requestPropertyMaxItemsSet
        case (.requestProperty, .maxItems, .increased): return .requestPropertyMaxItemsIncreased
        case (.requestProperty, .maxItems, .decreased): return .requestPropertyMaxItemsDecreased
        case (.requestProperty, .minItems, .set): return .requestPropertyMinItemsSet
        case (.requestProperty, .minItems, .increased): return .requestPropertyMinItemsIncreased
        case (.requestProperty, .minItems, .decreased): return .requestPropertyMinItemsDecreased
        case (.requestBody, .max, .set): return .requestBodyMaxSet
        case (.requestBody, .max, .increased): return .requestBodyMaxIncreased
        case (.requestBody, .max, .decreased): return .requestBodyMaxDecreased
        case (.requestBody, .min, .set): return .requestBodyMinSet
        case (.requestBody, .min, .increased): return .requestBodyMinIncreased
        case (.requestBody, .min, .decreased): return .requestBodyMinDecreased
        case (.requestBody, .maxLength, .set): return .requestBodyMaxLengthSet
        case (.requestBody, .maxLength, .increased): return .requestBodyMaxLengthIncreased
        case (.requestBody, .maxLength, .decreased): return .requestBodyMaxLengthDecreased
        case (.requestBody, .minLength, .set): return .requestBodyMinLengthSet
        case (.requestBody, .minLength, .increased): return .requestBodyMinLengthIncreased
        case (.requestBody, .minLength, .decreased): return .requestBodyMinLengthDecreased
        case (.requestBody, .maxItems, .set): return .requestBodyMaxItemsSet
        case (.requestBody, .maxItems, .increased): return .requestBodyMaxItemsIncreased
        case (.requestBody, .maxItems, .decreased): return .requestBodyMaxItemsDecreased
        case (.requestBody, .minItems, .set): return .requestBodyMinItemsSet
        case (.requestBody, .minItems, .increased): return .requestBodyMinItemsIncreased
        case (.requestBody, .minItems, .decreased): return .requestBodyMinItemsDecreased
        default: return nil
        }
    }

    /// A pattern added, changed or removed on a request value; nil for responses.
    public static func pattern(_ subject: Subject, _ change: Change) -> SpecDiffRule? {
        switch (subject, change) {
        case (.requestParameter, .set): return .requestParameterPatternAdded
        case (.requestParameter, .changed): return .requestParameterPatternChanged
        case (.requestParameter, .removed): return .requestParameterPatternRemoved
        case (.requestProperty, .set): return .requestPropertyPatternAdded
        case (.requestProperty, .changed): return .requestPropertyPatternChanged
        case (.requestProperty, .removed): return .requestPropertyPatternRemoved
        case (.requestBody, .set): return .requestBodyPatternAdded
        case (.requestBody, .changed): return .requestBodyPatternChanged
        case (.requestBody, .removed): return .requestBodyPatternRemoved
        default: return nil
        }
    }
}
