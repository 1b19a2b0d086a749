/// One part of a `multipart/form-data` body whose type is a declared
/// structure: which property it comes from and how it is appended.
public struct MultipartPart: Sendable, Hashable {
    /// How the property's value becomes parts.
    public enum Kind: Sendable, Hashable {
        /// `Data` or `Data?`: one file part (none for nil).
        case file
        /// `Nullable<Data>?`: one file part for `.value`, none otherwise.
        case nullableFile
        /// `[Data]`: a file part per element.
        case files
        /// `[Data]?`: a file part per element, none for nil.
        case optionalFiles
        /// Anything else: a text part with the value's JSON (or its text).
        case value
    }

    /// The part name (the property's wire name).
    public var name: String
    /// The stored property read (``PropertyDeclaration/storageName``).
    public var member: String
    /// How it is appended.
    public var kind: Kind
    /// The part's media type from the spec's `encoding`; nil for the default.
    package var contentType: String? = nil
}
