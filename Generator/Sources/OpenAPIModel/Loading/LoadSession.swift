import YAMLReader

/// The state of one load: the files read so far, the diagnostics, the
/// resolved references and the `$ref` targets still to parse.
///
/// Used by one thread during ``OpenAPILoader/load(path:displayName:)`` and
/// never shared.
final class LoadSession {
    var files: [String: SourceFile] = [:]
    var diagnostics: [Diagnostic] = []
    var version = OpenAPIVersion("3.0.3")!
    var references = ResolvedReferences()
    /// Parses of `$ref` targets still to run (each stores its result).
    var pending: [(LoadSession) -> Void] = []
    var queued: Set<PendingKey> = []
    /// Files whose reading failed, so that each failure is reported once.
    var unreadableFiles: Set<String> = []
    /// Where each `$ref` written in a file points, by the file's name and the
    /// reference: a large spec refers to the same component thousands of
    /// times, and walking its pointer each time scanned the component map.
    var locatedReferences: [LocatedKey: (file: SourceFile, node: Node, target: ReferenceTarget)] = [:]

    /// Where each `$ref` written in a file ends, once the pure references it
    /// passes through are followed (``resolve(_:at:expecting:parse:)``).
    var finalTargets: [LocatedKey: FinalTarget] = [:]
    /// The folder `$ref`s to other files must stay in (nil: anywhere; only
    /// tests that build a session by hand leave it so).
    var referenceRoot: ReferenceRoot?
    /// How many steps resolving references took (each a reference looked
    /// up or followed): the tests hold it to a few per reference written.
    var referenceSteps = 0
    /// The root document's file and its `$self` (3.2): a reference to that
    /// URI, or to a document beside it, is read from here.
    var rootFile: SourceFile?
    var selfReference: String?

    /// Where a reference ends.
    enum FinalTarget {
        /// At a definition.
        case resolved(Node, ReferenceTarget)
        /// In a cycle of references that never reaches one (the path, in words).
        case cycle(String)
        /// Nowhere: a step did not resolve (already reported).
        case unresolved
    }

    /// A `$ref` as written in one file.
    struct LocatedKey: Hashable {
        let file: String
        let ref: String
    }

    struct PendingKey: Hashable {
        let kind: ObjectIdentifier
        let target: ReferenceTarget
    }

    // MARK: Diagnostics

    /// Reports a problem at a node, with the severity its code has.
    func report(_ code: DiagnosticCode, _ message: String, at node: Node, hint: String? = nil) {
        diagnostics.append(Diagnostic(code, message, at: node.location, hint: hint))
    }

    /// Reports `name` when it holds a hidden character (``HiddenCharacters``):
    /// `what` says what the name is (`path`, `operationId`), `node` where it is.
    func checkVisible(_ name: String, _ what: String, at node: Node) {
        guard HiddenCharacters.contains(in: name), let first = HiddenCharacters.firstDescribed(in: name) else { return }
        report(
            .hiddenCharacter, "\(what) '\(HiddenCharacters.visible(name))' holds \(first), a character that is not shown as itself",
            at: node, hint: "remove it: control characters, line breaks and Unicode format characters (bidi overrides) have no place in a name")
    }

    /// ``checkVisible(_:_:at:)``, and reports `/*` or `*/` in a path or operationId.
    func checkPathOrOperationID(_ name: String, _ what: String, at node: Node) {
        checkVisible(name, what, at: node)
        guard name.contains("/*") || name.contains("*/") else { return }
        report(
            .commentDelimiter, "\(what) '\(HiddenCharacters.visible(name))' holds a comment delimiter ('/*' or '*/')", at: node,
            hint: "rename it without '/*' and '*/'")
    }

    /// ``checkVisible(_:_:at:)``, and reports a header name that is not an
    /// HTTP token (RFC 9110 section 5.1), which no request can carry.
    func checkHeaderName(_ name: String, _ what: String, at node: Node) {
        checkVisible(name, what, at: node)
        guard !HiddenCharacters.contains(in: name) else { return }
        let tokenPunctuation = Set("!#$%&'*+-.^_`|~".utf8)
        let isToken = !name.isEmpty && name.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || tokenPunctuation.contains(byte)
        }
        guard !isToken else { return }
        report(
            .invalidHeaderName, "\(what) '\(name)' is not an HTTP header name (letters, digits and !#$%&'*+-.^_`|~ only)", at: node,
            hint: "use the header's name as it goes on the wire, such as 'X-Request-ID'")
    }

    // MARK: Files

    /// Reads a file once; reports a failure at `referencedFrom` (or at 1:1 of
    /// the file itself for the root).
    func file(named name: String, referencedFrom: Node?) -> SourceFile? {
        if let file = files[name] { return file }
        if unreadableFiles.contains(name) { return nil }
        do {
            let tree = try YAMLReader.read(contentsOfFile: name)
            let file = SourceFile(name: name, tree: tree)
            files[name] = file
            reportYAMLIssues(of: file)
            return file
        } catch {
            unreadableFiles.insert(name)
            let hint = error.hint
            if let referencedFrom, case .unreadable(_, let reason) = error {
                self.report(.unresolvedRef, "cannot read '\(name)' referenced here: \(reason)", at: referencedFrom, hint: "check the path; it is relative to the folder of the file that holds the $ref")
            } else {
                diagnostics.append(
                    Diagnostic(
                        Self.code(of: error), message: error.message, file: error.file,
                        line: error.mark.line, column: error.mark.column, pointer: nil, hint: hint))
            }
            return nil
        }
    }

    /// Registers an already read tree (the root document read from memory).
    func register(_ tree: YAMLTree) -> SourceFile {
        let file = SourceFile(name: tree.fileName, tree: tree)
        files[tree.fileName] = file
        reportYAMLIssues(of: file)
        return file
    }

    static func code(of error: YAMLError) -> DiagnosticCode {
        switch error {
        case .unreadable: return .unreadableFile
        case .binaryContent: return .binaryFile
        case .syntax: return .yamlSyntax
        case .undefinedAlias: return .yamlUndefinedAlias
        case .aliasExpansionTooLarge: return .yamlAliasExpansion
        case .nestingTooDeep: return .yamlNestingTooDeep
        }
    }

    private func reportYAMLIssues(of file: SourceFile) {
        for issue in file.tree.issues {
            let node = Node(file: file, id: issue.node, pointer: .root)
            switch issue.kind {
            case .duplicateKey(let key, let first):
                diagnostics.append(
                    Diagnostic(
                        .yamlDuplicateKey,
                        message: "key '\(key)' appears twice in this mapping (first at line \(first.line), column \(first.column))",
                        file: file.name, line: issue.mark.line, column: issue.mark.column, pointer: nil,
                        hint: "remove or rename one of them; YAML keys must be unique"))
            case .extraDocuments(let count):
                report(
                    .yamlExtraDocuments, "the file holds \(count) YAML documents; only the first is read", at: node,
                    hint: "remove the '---' separators or split the file")
            }
        }
    }
}
