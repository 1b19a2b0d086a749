/// Hands out names that are unique within one declaration scope: a second
/// `status` becomes `status2`, and reserved names get a suffix.
struct NameScope {
    private var used: Set<String>

    /// A scope in which `reserved` are already taken.
    init(reserved: Set<String> = []) {
        used = reserved
    }

    /// `name`, or `name2`, `name3`, ... when taken.
    mutating func claim(_ name: String) -> String {
        let bare = SwiftName.unescaped(name)
        if used.insert(bare).inserted { return name }
        var index = 2
        while !used.insert("\(bare)\(index)").inserted { index += 1 }
        return "\(bare)\(index)"
    }

    /// Marks a name as taken without claiming a variant.
    mutating func reserve(_ name: String) {
        used.insert(SwiftName.unescaped(name))
    }

    /// Whether the name is taken.
    func contains(_ name: String) -> Bool { used.contains(SwiftName.unescaped(name)) }
}
