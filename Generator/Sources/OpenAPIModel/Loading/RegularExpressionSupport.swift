import Foundation

/// Whether a schema's `pattern` can be checked by generated clients, which
/// run patterns on `NSRegularExpression` (ICU), and whether checking it can
/// take time that grows exponentially with the value.
public enum RegularExpressionSupport {
    /// Whether `pattern` compiles as an `NSRegularExpression`.
    public static func compiles(_ pattern: String) -> Bool {
        (try? NSRegularExpression(pattern: pattern)) != nil
    }

    /// A shape of `pattern` whose matching time a backtracking engine (ICU,
    /// like most) lets grow exponentially with the value, in words; nil when
    /// none is found. Two shapes are looked for, the causes of nearly every
    /// catastrophic pattern seen in the wild:
    ///
    /// - a repeated group one of whose alternatives can match with nothing
    ///   but a repetition of its own (`(a+)+`, `(\w+\s?)*`, `([a-z]+-?)*`):
    ///   the engine tries every way of sharing the value between the two
    ///   repetitions. A group with a part that must match besides its
    ///   repetition (`(-[a-z]+)*`, `(\d+,)*`) has one way to split a value,
    ///   and is not named;
    /// - a repeated group of alternatives one of which is the same as, or a
    ///   literal prefix of, another (`(a|aa)+`, `(x|x)*`).
    ///
    /// It is a lint, not a proof: other slow shapes exist (`(a+a)*`), which
    /// is why the runtime also stops any check at a time limit.
    public static func slowShape(of pattern: String) -> String? {
        var parser = ShapeParser(Array(pattern.unicodeScalars))
        return parser.findSlowShape()
    }
}

/// One pass over a pattern's groups, atoms and quantifiers (an escape or a
/// character class is one atom).
private struct ShapeParser {
    /// One alternative of a group, as far as read.
    private struct Alternative {
        /// A part repeats without bound.
        var repeats = false
        /// A part must match besides the repetitions.
        var hasMandatoryPart = false
        /// The text, while every part is a plain character.
        var literal: String? = ""

        /// Whether a value can be matched by repetitions alone.
        var isRepetitionOnly: Bool { repeats && !hasMandatoryPart }
    }

    private struct Group {
        let start: Int
        var alternatives: [Alternative] = [Alternative()]
    }

    /// An atom read but not yet placed (a quantifier may follow).
    private struct Atom {
        let start: Int
        /// Zero-width (`^`, `$`, `\b`, a lookaround): never mandatory.
        var isAnchor = false
        /// A closed group.
        var group: Group?
        /// Its text, when a plain character.
        var literal: String?
    }

    private let scalars: [Unicode.Scalar]
    private var index = 0
    private var groups: [Group] = [Group(start: 0)]
    private var pending: Atom?

    init(_ scalars: [Unicode.Scalar]) {
        self.scalars = scalars
    }

    mutating func findSlowShape() -> String? {
        while index < scalars.count {
            let scalar = scalars[index]
            switch scalar {
            case "*", "+", "?", "{":
                let start = index
                if let (minimumIsZero, unbounded) = readQuantifier() {
                    if let shape = quantify(until: start, minimumIsZero: minimumIsZero, unbounded: unbounded) { return shape }
                } else {
                    // A brace that starts no quantifier is a literal character.
                    index = start + 1
                    place(Atom(start: start, literal: "{"))
                }
            case "\\":
                let start = index
                index += min(2, scalars.count - index)
                let escaped = index - start == 2 ? scalars[start + 1] : "\\"
                let isAnchor = "bBAzZG".unicodeScalars.contains(escaped)
                let isLiteral = !isAnchor && !"dDwWsShHvVpPXRN".unicodeScalars.contains(escaped) && !("1"..."9").contains(escaped)
                place(Atom(start: start, isAnchor: isAnchor, literal: isLiteral ? String(escaped) : nil))
            case "[":
                let start = index
                index += 1
                if index < scalars.count, scalars[index] == "^" { index += 1 }
                if index < scalars.count, scalars[index] == "]" { index += 1 }
                while index < scalars.count, scalars[index] != "]" {
                    index += scalars[index] == "\\" ? 2 : 1
                }
                index = min(index + 1, scalars.count)
                place(Atom(start: start))
            case "(":
                place(nil)
                let start = index
                index += 1
                var isLookaround = false
                if index < scalars.count, scalars[index] == "?" {
                    index += 1
                    if index < scalars.count, scalars[index] == "=" || scalars[index] == "!" { isLookaround = true }
                    if index < scalars.count, scalars[index] == "<" {
                        if index + 1 < scalars.count, scalars[index + 1] == "=" || scalars[index + 1] == "!" {
                            isLookaround = true
                        } else {
                            while index < scalars.count, scalars[index] != ">" { index += 1 }
                        }
                    }
                    index = min(index + 1, scalars.count)
                }
                groups.append(Group(start: isLookaround ? -start - 1 : start))
            case ")":
                index += 1
                place(nil)
                guard groups.count > 1 else { continue }
                let group = groups.removeLast()
                pending = group.start < 0 ? Atom(start: -group.start - 1, isAnchor: true) : Atom(start: group.start, group: group)
            case "|":
                index += 1
                place(nil)
                groups[groups.count - 1].alternatives.append(Alternative())
            case "^", "$":
                place(Atom(start: index, isAnchor: true))
                index += 1
            default:
                place(Atom(start: index, literal: scalar == "." ? nil : String(scalar)))
                index += 1
            }
        }
        place(nil)
        return nil
    }

    /// Places the pending atom, unquantified, in the current alternative,
    /// and makes `next` the pending one.
    private mutating func place(_ next: Atom?) {
        defer { pending = next }
        guard let atom = pending else { return }
        let last = groups.count - 1
        var alternative = groups[last].alternatives[groups[last].alternatives.count - 1]
        if !atom.isAnchor {
            if let group = atom.group {
                // A group that can match with repetitions alone counts as one.
                if group.alternatives.contains(where: \.isRepetitionOnly) {
                    alternative.repeats = true
                } else {
                    alternative.hasMandatoryPart = true
                }
                alternative.literal = nil
            } else {
                alternative.hasMandatoryPart = true
                if let text = atom.literal, let so = alternative.literal { alternative.literal = so + text } else { alternative.literal = nil }
            }
        }
        groups[last].alternatives[groups[last].alternatives.count - 1] = alternative
    }

    /// Applies the quantifier that ended at `index` (starting at `start`)
    /// to the pending atom; returns the slow shape it makes, if any.
    private mutating func quantify(until start: Int, minimumIsZero: Bool, unbounded: Bool) -> String? {
        guard let atom = pending else { return nil }
        pending = nil
        let last = groups.count - 1
        var alternative = groups[last].alternatives[groups[last].alternatives.count - 1]
        defer { groups[last].alternatives[groups[last].alternatives.count - 1] = alternative }
        alternative.literal = nil
        if unbounded, let group = atom.group {
            let quantified = String(String.UnicodeScalarView(scalars[atom.start..<start]))
            if group.alternatives.contains(where: \.isRepetitionOnly) {
                return "'\(quantified)' repeats a group that can match with a repetition of its own: the engine tries every way of sharing the value between them"
            }
            if let overlap = Self.overlappingAlternatives(group.alternatives.compactMap(\.literal)) {
                return "'\(quantified)' repeats alternatives that match the same text ('\(overlap.0)' and '\(overlap.1)'): the engine tries every way of choosing between them"
            }
        }
        if atom.isAnchor { return nil }
        if unbounded {
            alternative.repeats = true
        } else if !minimumIsZero {
            alternative.hasMandatoryPart = true
        }
        return nil
    }

    /// Reads the quantifier at `index`: nil when `{` starts none (it is then
    /// a literal brace), else whether it may match nothing and whether it
    /// is unbounded.
    private mutating func readQuantifier() -> (minimumIsZero: Bool, unbounded: Bool)? {
        let scalar = scalars[index]
        var minimumIsZero = scalar == "*" || scalar == "?"
        var unbounded = scalar == "*" || scalar == "+"
        if scalar == "{" {
            var cursor = index + 1
            var before = ""
            var after = ""
            var sawComma = false
            while cursor < scalars.count, scalars[cursor] != "}" {
                let current = scalars[cursor]
                if current == "," && !sawComma {
                    sawComma = true
                } else if ("0"..."9").contains(current) {
                    if sawComma { after.unicodeScalars.append(current) } else { before.unicodeScalars.append(current) }
                } else {
                    return nil
                }
                cursor += 1
            }
            guard cursor < scalars.count, !before.isEmpty else { return nil }
            index = cursor + 1
            minimumIsZero = Int(before) == 0
            unbounded = sawComma && after.isEmpty
        } else {
            index += 1
        }
        // A lazy mark changes nothing here; a possessive one never backtracks.
        if index < scalars.count, scalars[index] == "?" || scalars[index] == "+" {
            if scalars[index] == "+" { unbounded = false }
            index += 1
        }
        return (minimumIsZero, unbounded)
    }

    /// Two alternatives of which one is the other or begins it.
    private static func overlappingAlternatives(_ alternatives: [String]) -> (String, String)? {
        for (position, first) in alternatives.enumerated() where !first.isEmpty {
            for second in alternatives[(position + 1)...] where !second.isEmpty {
                if first.hasPrefix(second) || second.hasPrefix(first) { return (first, second) }
            }
        }
        return nil
    }
}
