/// Finds types whose declarations are the same but for their names, and
/// declares all but one of them as a `typealias` of that one.
///
/// Specs repeat shapes: GitHub's has `nullable-repository` beside
/// `repository`, the same `owner` object inline in a dozen schemas, the
/// same `package_type` enum in every package operation. Each copy used to be
/// a struct of its own, compiled, documented and converted between by hand.
/// Now one declaration of a shape is the type and every other one is a
/// typealias of it, `typealias NullableRepository = Repository`: every name
/// a caller used still exists, values of the two pass for each other, and
/// the module compiles one struct where it compiled several.
///
/// Two declarations share a shape when, with their own names and doc
/// comments set aside, they declare the same thing: the same kind,
/// properties (Swift names, JSON names, types, doc comments, defaults,
/// constraints, deprecation, required-ness), members, cases, nested types
/// (names and doc comments included, so every `A.Nested` still names a type),
/// mutability and conformances. A type they refer to counts as the same
/// when its own declaration shares a shape, found by refining until nothing
/// changes; a reference to the declaration itself or to its nested types
/// counts as the same as the other's reference to itself. The refinement
/// starts from "all different" and merges only what it has shown the same,
/// so nothing that differs is ever merged; the price is that copies of
/// types referring to each other in a cycle (`A` -> `B` -> `A` beside
/// `A2` -> `B2` -> `A2`) stay apart.
///
/// The type kept is the least nested one, then the one with the shortest
/// name, then the first in document order: `Repository.TemplateRepository.Owner`
/// and `NullableSimpleUser` become typealiases of `SimpleUser`.
enum SharedShapeAnalysis {
    /// `declarations` with every repeated shape but the one kept declared as
    /// a `typealias` of it. The alias keeps its own name, doc comment,
    /// deprecation and `Validatable` mark; its nested types go (they are the
    /// kept type's, reached through the alias).
    static func aliasingRepeatedShapes(_ declarations: [TypeDeclaration]) -> [TypeDeclaration] {
        let entries = flatten(declarations)
        let rank = preferenceOrder(entries)
        let classes = equivalenceClasses(entries, rank: rank)
        let targets = aliasTargets(entries, rank: rank, classes: classes)
        guard !targets.isEmpty else { return declarations }

        var index = 0
        func rebuild(_ declaration: TypeDeclaration) -> TypeDeclaration {
            let own = index
            index += 1
            var declaration = declaration
            if let target = targets[own] {
                // The nested declarations are skipped, not rebuilt.
                index += entries[own].descendants
                declaration.kind = .alias(.named(entries[target].qualified))
                declaration.nested = []
                return declaration
            }
            declaration.nested = declaration.nested.map(rebuild)
            return declaration
        }
        return declarations.map(rebuild)
    }

    /// A declaration with where it sits: one per type, nested ones after
    /// their parent (pre-order).
    struct Entry {
        /// `Repository.TemplateRepository.Owner`.
        let qualified: String
        /// 0 for a top-level type.
        let depth: Int
        /// The entry of the type it is nested in.
        let parent: Int?
        /// How many entries follow for its nested types, at any depth.
        var descendants: Int
        let declaration: TypeDeclaration
    }

    static func flatten(_ declarations: [TypeDeclaration]) -> [Entry] {
        var entries: [Entry] = []
        func visit(_ declaration: TypeDeclaration, prefix: String?, depth: Int, parent: Int?) {
            let qualified = prefix.map { "\($0).\(declaration.name)" } ?? declaration.name
            let own = entries.count
            entries.append(Entry(qualified: qualified, depth: depth, parent: parent, descendants: 0, declaration: declaration))
            for nested in declaration.nested { visit(nested, prefix: qualified, depth: depth + 1, parent: own) }
            entries[own].descendants = entries.count - own - 1
        }
        for declaration in declarations { visit(declaration, prefix: nil, depth: 0, parent: nil) }
        return entries
    }

    /// The class of each entry: the index of the class's first entry in
    /// ``preferenceOrder(_:)``. Starts with every entry alone and merges
    /// entries whose keys agree until no class changes. Each declaration is
    /// read once into a template; a round compares templates and the classes
    /// of what they refer to, as integers.
    static func equivalenceClasses(_ entries: [Entry], rank: [Int]) -> [Int] {
        var entryOfName: [String: Int] = [:]
        entryOfName.reserveCapacity(entries.count)
        for (offset, entry) in entries.enumerated() { entryOfName[entry.qualified] = offset }
        var templateIDs: [ShapeTemplate: Int] = [:]
        templateIDs.reserveCapacity(entries.count)
        var shapes: [(template: Int, references: [Int])] = []
        shapes.reserveCapacity(entries.count)
        for (offset, entry) in entries.enumerated() {
            let (template, references) = shapeTemplate(entry, entryOfName: entryOfName)
            // Its nested types' entries: each after the previous one's own.
            var nested: [Int] = []
            var child = offset + 1
            for _ in entry.declaration.nested {
                nested.append(child)
                child += 1 + entries[child].descendants
            }
            let id = templateIDs[template] ?? templateIDs.count
            templateIDs[template] = id
            shapes.append((id, references + nested))
        }
        var classes = Array(entries.indices)
        while true {
            var firstOfKey: [ShapeKey: Int] = [:]
            firstOfKey.reserveCapacity(entries.count)
            var next = classes
            for offset in rank {
                let key = ShapeKey(template: shapes[offset].template, references: shapes[offset].references.map { classes[$0] })
                if let first = firstOfKey[key] {
                    next[offset] = first
                } else {
                    firstOfKey[key] = offset
                    next[offset] = offset
                }
            }
            if next == classes { return classes }
            classes = next
        }
    }

    /// A declaration with its own name and doc comment blanked, its nested
    /// types reduced to their names and doc comments, and each type it
    /// mentions written as `Self` (itself, `Self.Nested`), `#` (another
    /// declared type, whose class the key lists) or as spelled (`String`).
    struct ShapeTemplate: Hashable {
        var declaration: TypeDeclaration
        var nested: [String?]
    }

    /// A template and the classes of the types it mentions, in order, then
    /// of its nested types.
    struct ShapeKey: Hashable {
        var template: Int
        var references: [Int]
    }

    /// The entries, the one to keep as a type first: the least nested, then
    /// the shortest name (`SimpleUser` before `NullableSimpleUser`), then
    /// document order.
    static func preferenceOrder(_ entries: [Entry]) -> [Int] {
        entries.indices.sorted {
            (entries[$0].depth, entries[$0].qualified.utf8.count, $0) < (entries[$1].depth, entries[$1].qualified.utf8.count, $1)
        }
    }

    /// The template of an entry and the entries it mentions.
    static func shapeTemplate(_ entry: Entry, entryOfName: [String: Int]) -> (ShapeTemplate, [Int]) {
        let own = entry.qualified
        var references: [Int] = []
        func rename(_ name: String) -> String {
            if name == own { return "Self" }
            if name.hasPrefix(own), name.dropFirst(own.count).first == "." { return "Self" + name.dropFirst(own.count) }
            // The longest declared prefix: `A.B.C` is `A.B` plus `.C` when
            // only `A.B` is declared (an alias of a type with `C` in it).
            if let found = entryOfName[name] {
                references.append(found)
                return "#"
            }
            var end = name.endIndex
            while let dot = name[..<end].lastIndex(of: ".") {
                if let found = entryOfName[String(name[..<dot])] {
                    references.append(found)
                    return "#" + name[dot...]
                }
                end = dot
            }
            return name
        }
        var declaration = entry.declaration
        let nested = declaration.nested.flatMap { [$0.name, $0.documentation] }
        declaration.nested = []
        declaration = renamed(declaration, rename)
        declaration.name = ""
        declaration.documentation = nil
        return (ShapeTemplate(declaration: declaration, nested: nested), references)
    }

    /// `declaration` with every type reference of its own passed through
    /// `rename` (not those of its nested declarations).
    static func renamed(_ declaration: TypeDeclaration, _ rename: (String) -> String) -> TypeDeclaration {
        var declaration = declaration
        switch declaration.kind {
        case .structure(var shape):
            shape.properties = shape.properties.map { property in
                var property = property
                property.type = property.type.renamingReferences(rename)
                return property
            }
            shape.additionalProperties = shape.additionalProperties?.renamingReferences(rename)
            declaration.kind = .structure(shape)
        case .union(var shape):
            shape.members = shape.members.map { member in
                var member = member
                member.type = member.type.renamingReferences(rename)
                return member
            }
            declaration.kind = .union(shape)
        case .alias(let type):
            declaration.kind = .alias(type.renamingReferences(rename))
        case .openEnum:
            break
        }
        return declaration
    }

    /// Entry -> the entry it becomes an alias of. The first entry of each
    /// class that is still declared (no enclosing type became an alias)
    /// stays a type; later ones become aliases of it, unless the alias
    /// would sit where the target's first name component means something
    /// else (a nested type of the same name in an enclosing scope).
    static func aliasTargets(_ entries: [Entry], rank: [Int], classes: [Int]) -> [Int: Int] {
        var targets: [Int: Int] = [:]
        var kept: [Int: Int] = [:]  // class -> the entry declared as the type
        var declared = [Bool](repeating: false, count: entries.count)
        for offset in rank {
            let entry = entries[offset]
            if let parent = entry.parent, !declared[parent] || targets[parent] != nil { continue }
            declared[offset] = true
            // An alias already names another type; one more hop saves nothing.
            if case .alias = entry.declaration.kind { continue }
            let classID = classes[offset]
            guard let target = kept[classID] else {
                kept[classID] = offset
                continue
            }
            if isShadowed(entries[target].qualified, at: offset, in: entries) {
                continue
            }
            targets[offset] = target
        }
        return targets
    }

    /// Whether, written at `offset`'s place, the first component of `name`
    /// would find a type other than the top-level one: the alias's own name,
    /// or a type declared in (or as) an enclosing scope.
    static func isShadowed(_ name: String, at offset: Int, in entries: [Entry]) -> Bool {
        let first = String(name.prefix { $0 != "." })
        guard entries[offset].depth > 0 else { return false }
        if entries[offset].declaration.name == first { return true }
        var scope = entries[offset].parent
        while let current = scope {
            let declaration = entries[current].declaration
            if declaration.name == first || declaration.nested.contains(where: { $0.name == first }) { return true }
            scope = entries[current].parent
        }
        return false
    }
}
