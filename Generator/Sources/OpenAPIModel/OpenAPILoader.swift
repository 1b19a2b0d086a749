import YAMLReader

/// What loading a spec produced: the document (when it could be built) and
/// every diagnostic, sorted by file and position.
public struct OpenAPILoadResult: Sendable {
    /// The typed document; `nil` when the file could not be read as OpenAPI at all.
    public let document: OpenAPIDocument?
    /// Errors and warnings, sorted by file, line and column.
    public let diagnostics: [Diagnostic]
    /// The bytes of every file read (the spec and the files its `$ref`s name).
    public var sourceBytes = 0
    /// The YAML nodes of every file read (aliases not expanded).
    public var sourceNodes = 0
    /// How many steps resolving the references took (tests).
    var referenceSteps = 0

    /// The error diagnostics.
    public var errors: [Diagnostic] { diagnostics.filter { $0.severity == .error } }
    /// The warning diagnostics.
    public var warnings: [Diagnostic] { diagnostics.filter { $0.severity == .warning } }
    /// Whether any diagnostic is an error.
    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
}

/// Loads OpenAPI 3.0, 3.1 and 3.2 documents (YAML or JSON) into ``OpenAPIDocument``.
///
/// ```swift
/// let result = OpenAPILoader.load(path: "specs/soul.yaml")
/// for diagnostic in result.diagnostics { print(diagnostic) }
/// guard let document = result.document, !result.hasErrors else { exit(1) }
/// ```
///
/// Problems are collected, not thrown: a document with warnings (a common
/// real-world mistake such as `type: int`) is still built, read the way its
/// authors meant; errors mark what cannot be read (a YAML syntax error, a
/// `$ref` that resolves nowhere, a missing `openapi` field).
public enum OpenAPILoader {
    /// Loads the spec at `path`. `$ref`s to other files resolve relative to
    /// the folder of the file that holds them, and must stay inside
    /// `referenceRoot`: by default the spec's own folder (and below), so
    /// that a spec cannot read a file elsewhere on the machine that runs the
    /// generator (`ref-outside-root`).
    public static func load(path: String, referenceRoot: String? = nil) -> OpenAPILoadResult {
        let session = LoadSession()
        session.referenceRoot = ReferenceRoot(folder: referenceRoot ?? directory(of: normalize(path)))
        // One name per file: `$ref`s back to the root resolve to the same file.
        let file = session.file(named: normalize(path), referencedFrom: nil)
        return finish(session, file: file)
    }

    /// Loads a spec from text (tests, or a spec held in memory). `fileName`
    /// names it in diagnostics and is the base for relative `$ref`s.
    public static func load(string: String, fileName: String, referenceRoot: String? = nil) -> OpenAPILoadResult {
        let session = LoadSession()
        session.referenceRoot = ReferenceRoot(folder: referenceRoot ?? directory(of: normalize(fileName)))
        do {
            let tree = try YAMLReader.read(string: string, fileName: normalize(fileName))
            return finish(session, file: session.register(tree))
        } catch {
            session.diagnostics.append(
                Diagnostic(
                    LoadSession.code(of: error), message: error.message, file: error.file,
                    line: error.mark.line, column: error.mark.column, pointer: nil, hint: error.hint))
            return finish(session, file: nil)
        }
    }

    /// The folder part of a path (`specs/` of `specs/api.yaml`; "" for a bare name).
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[...slash])
    }

    private static func finish(_ session: LoadSession, file: SourceFile?) -> OpenAPILoadResult {
        var document: OpenAPIDocument?
        if let file {
            if let root = file.root {
                document = session.document(root)
                session.drainPending()
                if var built = document {
                    built.references = session.references
                    session.validate(built, root: root)
                    document = built
                }
            } else {
                session.diagnostics.append(
                    Diagnostic(
                        .emptyDocument, message: "the file is empty: it holds no YAML document",
                        file: file.name, line: 1, column: 1, pointer: nil,
                        hint: "an OpenAPI document starts with 'openapi: 3.1.0' followed by 'info:' and 'paths:'"))
            }
        }
        var seen = Set<Diagnostic>()
        let diagnostics = session.diagnostics.filter { seen.insert($0).inserted }.sorted {
            ($0.file, $0.line, $0.column, $0.message) < ($1.file, $1.line, $1.column, $1.message)
        }
        var result = OpenAPILoadResult(document: document, diagnostics: diagnostics)
        result.referenceSteps = session.referenceSteps
        for file in session.files.values {
            result.sourceBytes += file.tree.byteCount
            result.sourceNodes += file.tree.nodeCount
        }
        return result
    }
}
