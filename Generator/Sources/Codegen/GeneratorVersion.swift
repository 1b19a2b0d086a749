/// The generator's version (semantic versioning; `CHANGELOG.md` says what
/// each release changed). `clientgen --version` prints it and every
/// generated file's header names it, so a diff of generated code shows
/// which generator wrote it.
public enum GeneratorVersion {
    /// `MAJOR.MINOR.PATCH`.
    public static let current = "0.9.0"
}
