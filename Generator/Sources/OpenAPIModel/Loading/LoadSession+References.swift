import YAMLReader

/// `$ref` resolution: inside a file, into other files relative to the
/// referencing file, following chains of references, detecting cycles that
/// never reach a definition. Targets are parsed once each, after the
/// document itself, so recursive schemas simply stay references.
extension LoadSession {
    /// Reads either a `$ref` or an inline value of type `T`.
    func refOr<T: Referenceable>(_ node: Node, _ objectName: String, _ parse: @escaping (Node) -> T) -> RefOr<T>? {
        guard expectObject(node, objectName) else { return nil }
        guard let refNode = node.child("$ref") else { return .value(parse(node)) }
        for key in node.keys where key != "$ref" && key != "summary" && key != "description" && !key.hasPrefix("x-") {
            report(
                .refSiblingIgnored, "'\(key)' next to '$ref' is ignored: a reference replaces the whole object",
                at: node.keyNode(key) ?? node, hint: "move '\(key)' into the referenced \(T.kindName)")
        }
        guard let reference = reference(refNode, of: node, expecting: T.self, parse: parse) else { return nil }
        return .reference(reference)
    }

    /// Builds the ``Reference`` for the `$ref` value `refNode` inside `holder`,
    /// resolves it and queues its target for parsing with `parse`.
    func reference<T: Referenceable>(_ refNode: Node, of holder: Node, expecting type: T.Type, parse: @escaping (Node) -> T) -> Reference? {
        guard refNode.kind == .scalar, let ref = refNode.text else {
            report(.wrongKind, "'$ref' must be a string, found \(describe(refNode))", at: refNode)
            return nil
        }
        let target = resolve(ref, at: refNode, expecting: type, parse: parse)
        return Reference(
            ref: ref, target: target, location: refNode.location,
            summary: holder.child("summary").flatMap { string($0) },
            description: holder.child("description").flatMap { string($0) })
    }

    /// Resolves `ref` written at `refNode` to its final target and queues it.
    func resolve<T: Referenceable>(_ ref: String, at refNode: Node, expecting type: T.Type, parse: @escaping (Node) -> T) -> ReferenceTarget? {
        switch finalTarget(of: ref, from: refNode.file, at: refNode) {
        case .resolved(let node, let target):
            checkKind(of: target, at: refNode, expecting: type)
            enqueue(target, node: node, parse: parse)
            return target
        case .cycle(let path):
            report(
                .refCycle, "$ref cycle never reaches a definition: \(path)", at: refNode,
                hint: "make one of these a real \(T.kindName) instead of another $ref")
            return nil
        case .unresolved:
            return nil
        }
    }

    /// Where a reference ends once the pure references it passes through are
    /// followed. Each reference's end is worked out once and remembered
    /// (`finalTargets`): a chain of n references costs n steps however many
    /// places refer into it, and a cycle is found with a set.
    private func finalTarget(of ref: String, from file: SourceFile, at refNode: Node) -> FinalTarget {
        var walked: [LocatedKey] = []
        var chain: [ReferenceTarget] = []
        var seen: Set<ReferenceTarget> = []
        var currentRef = ref
        var base = file
        var result: FinalTarget
        while true {
            referenceSteps += 1
            let key = LocatedKey(file: base.name, ref: currentRef)
            if let known = finalTargets[key] {
                result = known
                break
            }
            guard let (file, node, target) = locate(currentRef, from: base, at: refNode) else {
                // Not remembered: an unresolvable reference is reported again
                // where else it is written.
                return .unresolved
            }
            walked.append(key)
            guard seen.insert(target).inserted else {
                result = .cycle((chain + [target]).map(\.description).joined(separator: " -> "))
                break
            }
            chain.append(target)
            if node.kind == .mapping, let next = node.child("$ref"), isPureReference(node), let nextRef = next.text {
                currentRef = nextRef
                base = file
                continue
            }
            result = .resolved(node, target)
            break
        }
        for key in walked { finalTargets[key] = result }
        return result
    }

    /// A mapping that is nothing but a `$ref` (plus annotations), which a
    /// reference to it can look through.
    private func isPureReference(_ node: Node) -> Bool {
        node.keys.allSatisfy { $0 == "$ref" || $0 == "summary" || $0 == "description" || $0.hasPrefix("x-") }
    }

    /// Finds the node a reference names: the file (relative to `base`), then the JSON pointer.
    private func locate(_ ref: String, from base: SourceFile, at refNode: Node) -> (SourceFile, Node, ReferenceTarget)? {
        // Only references that resolved are remembered: one that does not
        // is reported again where else it is written.
        let key = LocatedKey(file: base.name, ref: ref)
        if let known = locatedReferences[key] { return known }
        guard let located = locateUncached(ref, from: base, at: refNode) else { return nil }
        locatedReferences[key] = located
        return located
    }

    private func locateUncached(_ ref: String, from base: SourceFile, at refNode: Node) -> (file: SourceFile, node: Node, target: ReferenceTarget)? {
        var (filePart, fragment) = split(ref)
        var base = base
        // A reference by the document's own URI (`$self`), or to one beside
        // it, is to the local file of the same place.
        if let selfReference, let rootFile, filePart.contains("://") {
            let directory = selfReference.range(of: "/", options: .backwards).map { String(selfReference[..<$0.upperBound]) } ?? selfReference
            if filePart == selfReference {
                filePart = ""
                base = rootFile
            } else if filePart.hasPrefix(directory), !directory.hasSuffix("://") {
                filePart = String(filePart.dropFirst(directory.count))
                base = rootFile
            }
        }
        if filePart.utf8.contains(UInt8(ascii: ":")) && filePart.contains("://") {
            report(
                .unsupportedRef, "remote reference '\(ref)' is not fetched", at: refNode,
                hint: "download the document next to this one and reference it by relative path")
            return nil
        }
        let file: SourceFile
        if filePart.isEmpty {
            file = base
        } else {
            let path = normalize(filePart.hasPrefix("/") ? filePart : base.directory + filePart)
            if let root = referenceRoot, !root.contains(path) {
                // Refused before the file is opened: neither its content nor
                // whether it exists shows in the message.
                report(
                    .refOutsideRoot, "'\(ref)' names a file outside \(root.folder.isEmpty ? "the spec's folder" : "'\(root.folder)'"), which references may not leave",
                    at: refNode,
                    hint: "copy the file into the spec's folder (or below) and reference it by relative path, or name a wider folder with --reference-root")
                return nil
            }
            guard let loaded = self.file(named: path, referencedFrom: refNode) else { return nil }
            file = loaded
        }
        guard fragment.isEmpty || fragment.hasPrefix("/") else {
            report(
                .unsupportedRef, "'\(ref)' names a plain-name fragment ('$anchor'), which is not supported", at: refNode,
                hint: "use a JSON pointer such as '#/components/schemas/Name'")
            return nil
        }
        guard let root = file.root else {
            report(.unresolvedRef, "'\(ref)' points into '\(file.name)', which is empty", at: refNode)
            return nil
        }
        guard let id = file.node(atPointer: fragment, from: root.id) else {
            report(.unresolvedRef, "'\(ref)' does not resolve: \(missingStep(fragment, in: root))", at: refNode,
                  hint: suggestion(for: fragment, in: root, file: filePart))
            return nil
        }
        let pointer = JSONPointer(encoded: fragment)
        return (file, Node(file: file, id: id, pointer: pointer), ReferenceTarget(file: file.name, pointer: pointer))
    }

    private func split(_ ref: String) -> (file: String, fragment: String) {
        guard let hash = ref.firstIndex(of: "#") else { return (ref, "") }
        return (String(ref[..<hash]), percentDecoded(String(ref[ref.index(after: hash)...])))
    }

    /// The first step of the pointer that does not exist, in words.
    private func missingStep(_ fragment: String, in root: Node) -> String {
        var current = root
        for token in JSONPointer(encoded: fragment).tokens {
            let next: Node?
            switch current.kind {
            case .mapping: next = current.child(token)
            case .sequence: next = Int(token).flatMap { $0 >= 0 && $0 < current.items.count ? current.items[$0] : nil }
            case .scalar: next = nil
            }
            guard let next else {
                let at = current.pointer.encoded.isEmpty ? "the document root" : "'\(current.pointer.fragment)'"
                return "\(at) has no '\(token)'"
            }
            current = next
        }
        return "the pointer is invalid"
    }

    private func suggestion(for fragment: String, in root: Node, file: String) -> String? {
        let tokens = JSONPointer(encoded: fragment).tokens
        guard let last = tokens.last else { return nil }
        let parentPointer = "/" + tokens.dropLast().map { JSONPointer.escape($0) }.joined(separator: "/")
        guard let parentID = root.file.node(atPointer: tokens.count == 1 ? "" : parentPointer, from: root.id),
            root.tree.kind(parentID) == .mapping
        else { return nil }
        let parent = Node(file: root.file, id: parentID, pointer: JSONPointer(encoded: parentPointer))
        guard let match = closest(to: last, in: parent.keys) else { return nil }
        return "did you mean '\(file)#\(tokens.count == 1 ? "" : parentPointer)/\(JSONPointer.escape(match))'?"
    }

    /// Warns when a reference to `/components/<kind>/...` is used where another kind is expected.
    private func checkKind<T: Referenceable>(of target: ReferenceTarget, at refNode: Node, expecting type: T.Type) {
        guard let kind = target.componentKind, kind != T.componentsKey else { return }
        report(
            .refKindMismatch, "this $ref points into components/\(kind) but a \(T.kindName) is expected here", at: refNode,
            hint: "reference '#/components/\(T.componentsKey)/...' instead")
    }

    private func enqueue<T: Referenceable>(_ target: ReferenceTarget, node: Node, parse: @escaping (Node) -> T) {
        let key = PendingKey(kind: ObjectIdentifier(T.self), target: target)
        guard queued.insert(key).inserted else { return }
        pending.append { session in
            guard T.resolved(target, in: session.references) == nil else { return }
            session.store(parse(node), at: target)
        }
    }

    /// Marks a target as parsed (components parse their entries directly).
    func markQueued<T: Referenceable>(_ type: T.Type, _ target: ReferenceTarget) {
        queued.insert(PendingKey(kind: ObjectIdentifier(T.self), target: target))
    }

    /// Parses every queued target; parsing may queue more.
    func drainPending() {
        while !pending.isEmpty {
            let batch = pending
            pending.removeAll()
            for parse in batch { parse(self) }
        }
    }

    func store<T: Referenceable>(_ value: T, at target: ReferenceTarget) {
        references[keyPath: T.referenceStore][target] = value
    }
}

/// Removes `.` and `..` segments from a relative or absolute path.
func normalize(_ path: String) -> String {
    var parts: [Substring] = []
    let absolute = path.hasPrefix("/")
    for part in path.split(separator: "/", omittingEmptySubsequences: true) {
        if part == "." { continue }
        if part == "..", let last = parts.last, last != ".." {
            parts.removeLast()
            continue
        }
        if part == "..", absolute { continue }
        parts.append(part)
    }
    return (absolute ? "/" : "") + parts.joined(separator: "/")
}

/// Decodes `%XX` escapes in a URI fragment.
func percentDecoded(_ text: String) -> String {
    guard text.utf8.contains(UInt8(ascii: "%")) else { return text }
    var bytes: [UInt8] = []
    var utf8 = Array(text.utf8)[...]
    while let byte = utf8.first {
        utf8 = utf8.dropFirst()
        if byte == UInt8(ascii: "%"), utf8.count >= 2,
            let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16)
        {
            bytes.append(value)
            utf8 = utf8.dropFirst(2)
        } else {
            bytes.append(byte)
        }
    }
    return String(decoding: bytes, as: UTF8.self)
}
