/// Hands out names that are unique within one declaration scope: a second
/// `status` becomes `status2`, and reserved names get a suffix.
struct NameScope {
    /// Names taken before the scope opened, shared between scopes (never
    /// copied: the set's storage is shared until mutated, and it is not).
    private let reserved: Set<String>
    /// Names claimed in this scope.
    private var used: Set<String> = []

    /// A scope in which `reserved` are already taken.
    init(reserved: Set<String> = []) {
        self.reserved = reserved
    }

    /// `name`, or `name2`, `name3`, ... when taken.
    mutating func claim(_ name: String) -> String {
        let bare = SwiftName.unescaped(name)
        if !reserved.contains(bare), used.insert(bare).inserted { return name }
        var index = 2
        while reserved.contains("\(bare)\(index)") || !used.insert("\(bare)\(index)").inserted { index += 1 }
        return "\(bare)\(index)"
    }

    /// Marks a name as taken without claiming a variant.
    mutating func reserve(_ name: String) {
        used.insert(SwiftName.unescaped(name))
    }

    /// Whether the name is taken.
    func contains(_ name: String) -> Bool {
        let bare = SwiftName.unescaped(name)
        return reserved.contains(bare) || used.contains(bare)
    }
}
