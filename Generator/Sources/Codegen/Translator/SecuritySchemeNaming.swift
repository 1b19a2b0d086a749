import OpenAPIModel

/// Names the security schemes the operations use as members of
/// `Client.SecuritySchemes`: as in `components/securitySchemes`, made Swift
/// names, `all` kept for the list of every name, a clash numbered. A
/// translate-stage decision, so the renderer only prints the names.
enum SecuritySchemeNaming {
    /// Each scheme the operations use, in order of first use, with its member name.
    static func names(of operations: [OperationDeclaration], in document: OpenAPIDocument? = nil) -> [SecuritySchemeName] {
        var uses: [SecurityUse] = []
        for use in operations.flatMap({ $0.security.joined() }) where !uses.contains(where: { $0.name == use.name }) {
            uses.append(use)
        }
        var taken: Set<String> = ["all"]
        let named = uses.map { use in
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
        // A device authorization flow's endpoints, named after their scheme,
        // once every scheme has its name.
        return named.map { entry in
            guard let document, let scheme = document.components.securitySchemes[entry.use.name].flatMap({ document.resolve($0) }) else { return entry }
            var entry = entry
            entry.isDeprecated = scheme.deprecated
            guard let flow = scheme.flows["deviceAuthorization"], let device = flow.deviceAuthorizationURL, let token = flow.tokenURL
            else { return entry }
            var base = SwiftName.unescaped(entry.member) + "DeviceFlow"
            while taken.contains(base) { base += "_" }
            taken.insert(base)
            entry.deviceFlow = DeviceFlowDeclaration(member: base, deviceAuthorizationURL: device, tokenURL: token, scopes: flow.scopes.keys)
            return entry
        }
    }
}
