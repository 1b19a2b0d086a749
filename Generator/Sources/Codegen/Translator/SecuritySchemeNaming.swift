/// Names the security schemes the operations use as members of
/// `Client.SecuritySchemes`: as in `components/securitySchemes`, made Swift
/// names, `all` kept for the list of every name, a clash numbered. A
/// translate-stage decision, so the renderer only prints the names.
enum SecuritySchemeNaming {
    /// Each scheme the operations use, in order of first use, with its member name.
    static func names(of operations: [OperationDeclaration]) -> [SecuritySchemeName] {
        var uses: [SecurityUse] = []
        for use in operations.flatMap({ $0.security.joined() }) where !uses.contains(where: { $0.name == use.name }) {
            uses.append(use)
        }
        var taken: Set<String> = ["all"]
        return uses.map { use in
            let base = SwiftName.memberName(use.name, fallback: "scheme")
            var name = base
            var number = 2
            while taken.contains(SwiftName.unescaped(name)) {
                name = SwiftName.unescaped(base) + String(number)
                number += 1
            }
            taken.insert(SwiftName.unescaped(name))
            return SecuritySchemeName(use: use, member: name)
        }
    }
}
