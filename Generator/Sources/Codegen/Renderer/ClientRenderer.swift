import Foundation
import OpenAPIModel

/// Renders the `Client` type: its initialisers, named servers, operation
/// descriptors, and one pair of methods per operation.
struct ClientRenderer {
    /// `public`, `package` or `internal`.
    let access: AccessLevel
    /// Renders constraint checks.
    let validation: ValidationRenderer
    /// Per-status enum name -> the enum with the same cases it is a
    /// typealias of (``SharedResultAnalysis``).
    let repeatedResults: [String: String]

    func renderClient(_ client: ClientRepresentation, into writer: inout SwiftWriter) {
        writer.documentation((client.documentation.map { $0 + "\n\n" } ?? "") + Self.errorsDocumentation)
        writer.block("\(access) struct Client: Sendable") { writer in
            writer.line("/// Sends the requests: server URL, transport and middlewares.")
            writer.line("\(access) let core: ClientCore")
            writer.line("")
            if !client.servers.isEmpty {
                writer.line("/// A client of one of the servers the spec names.")
                writer.block("\(access) init(server: Server, transport: any ClientTransport, middlewares: [any ClientMiddleware] = [], constraintChecks: ConstraintChecks = .requests)") { writer in
                    writer.line("self.init(serverURL: server.url, transport: transport, middlewares: middlewares, constraintChecks: constraintChecks)")
                }
                writer.line("")
            }
            writer.line("/// A client of the server at `serverURL`; middlewares run in order, the first outermost.")
            writer.line("/// `constraintChecks` says what is checked against the spec's constraints: requests, by default.")
            writer.block("\(access) init(serverURL: URL, transport: any ClientTransport, middlewares: [any ClientMiddleware] = [], constraintChecks: ConstraintChecks = .requests)") { writer in
                writer.line("self.core = ClientCore(serverURL: serverURL, transport: transport, middlewares: middlewares, constraintChecks: constraintChecks)")
            }
            writer.line("")
            writer.line("/// A client over a configured core.")
            writer.block("\(access) init(core: ClientCore)") { writer in
                writer.line("self.core = core")
            }
        }
        ValidationRenderer.renderPatterns(client.patterns, into: &writer)
        if !client.overrideTypeNames.isEmpty {
            writer.line("")
            writer.block("extension Client") { writer in
                writer.line("/// The app's types this client uses in place of the spec's (type overrides):")
                writer.line("/// each must be Codable, Hashable and Sendable, as the generated types")
                writer.line("/// holding them are. One that is not fails to compile here, naming it.")
                writer.block("private enum TypeOverrideRequirements") { writer in
                    writer.line("static func require<Value: Codable & Hashable & Sendable>(_: Value.Type) {}")
                    writer.block("static func check()") { writer in
                        for name in client.overrideTypeNames { writer.line("require(\(name).self)") }
                    }
                }
            }
        }
        renderProtocol(client, into: &writer)
        if !client.servers.isEmpty {
            writer.line("")
            writer.block("extension Client") { writer in
                writer.line("/// The servers the spec names.")
                writer.block("\(access) enum Server: String, Sendable, CaseIterable") { writer in
                    for server in client.servers {
                        writer.documentation(server.documentation)
                        writer.line("case \(server.name) = \(SwiftLiteral.string(server.url))")
                    }
                    writer.line("")
                    writer.line("/// The base URL.")
                    writer.line("\(access) var url: URL { ClientCore.serverURL(named: rawValue) }")
                }
            }
        }
        writer.line("")
        writer.block("extension Client") { writer in
            writer.line("/// Every operation with its method, path, security requirements and whether")
            writer.line("/// a retry may repeat it; ``OperationDescriptor/current`` holds the one being sent.")
            writer.block("\(access) enum Operations") { writer in
                for operation in client.operations {
                    writer.line("/// " + SwiftComment.code("\(operation.method.wireName) \(operation.path)"))
                    let security = operation.security.map { requirement in
                        "[" + requirement.map { use in
                            let scopes = use.scopes.isEmpty ? "" : ", scopes: [" + use.scopes.map(SwiftLiteral.string).joined(separator: ", ") + "]"
                            return "SecuritySchemeDescriptor(name: \(SwiftLiteral.string(use.name)), kind: \(Self.expression(use.kind))\(scopes))"
                        }.joined(separator: ", ") + "]"
                    }
                    // The runtime infers idempotency from the method; only an `x-idempotent` that differs is written.
                    let idempotent = operation.isIdempotent == operation.isIdempotentByMethod ? "" : ", isIdempotent: \(operation.isIdempotent)"
                    let deprecated = operation.isDeprecated ? ", isDeprecated: true" : ""
                    let offline = Self.offlineArguments(operation)
                    writer.line("\(access) static let \(operation.methodName) = OperationDescriptor(id: \(SwiftLiteral.string(operation.id)), method: \(Self.methodExpression(operation.method)), pathTemplate: \(SwiftLiteral.string(operation.path)), security: [\(security.joined(separator: ", "))]\(idempotent)\(deprecated)\(offline), memberNames: memberNames)")
                }
                writer.line("")
                writer.line("/// Every property name the spec's bodies declare: a log shows an object's key only when it is one of them.")
                writer.line("\(access) static let memberNames: Set<String> = [\(client.memberNames.map(SwiftLiteral.string).joined(separator: ", "))]")
                writer.line("")
                writer.line("/// Every operation, by `operationId`.")
                // Built from an array: a dictionary literal of hundreds of
                // entries takes the type checker seconds.
                writer.line("\(access) static let byID: [String: OperationDescriptor] = Dictionary(all.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })")
                writer.line("")
                writer.line("/// Every operation, in the spec's order.")
                writer.line("\(access) static let all: [OperationDescriptor] = [\(client.operations.map(\.methodName).joined(separator: ", "))]")
            }
            renderSecuritySchemes(client, into: &writer)
        }
    }

    /// What every operation method throws, said once on `Client` rather
    /// than on each of its methods.
    static let errorsDocumentation = """
        Every method throws `UndocumentedResponseError` for a status its operation does not document and
        `ResponseDecodingError` for a body that does not match the spec, besides what the transport and the
        middlewares throw; a method's `- Throws:` names the error bodies its operation documents.
        """

    /// The descriptor's `cache:`, `isOfflineQueueable:`, `secretFields:`,
    /// `secretPathParameters:` and `loggablePaths:` arguments, written only
    /// when the spec's `x-cache`, `x-offline-queue`, secret or loggable
    /// marks depart from the default
    /// (so specs without them generate what they always did).
    static func offlineArguments(_ operation: OperationDeclaration) -> String {
        var arguments = ""
        switch operation.cache {
        case .byHeaders: break
        case .never: arguments += ", cache: .never"
        case .maxAge(let seconds): arguments += ", cache: .maxAge(seconds: \(seconds))"
        }
        if operation.isOfflineQueueable { arguments += ", isOfflineQueueable: true" }
        if !operation.secretFields.isEmpty {
            arguments += ", secretFields: [" + operation.secretFields.map(SwiftLiteral.string).joined(separator: ", ") + "]"
        }
        if !operation.secretPathParameters.isEmpty {
            arguments += ", secretPathParameters: [" + operation.secretPathParameters.map(SwiftLiteral.string).joined(separator: ", ") + "]"
        }
        if !operation.loggablePaths.isEmpty {
            arguments += ", loggablePaths: [" + operation.loggablePaths.map(SwiftLiteral.string).joined(separator: ", ") + "]"
        }
        return arguments
    }

    /// `.get` for a method swift-http-types names; `.named("QUERY")` for
    /// one it does not (3.2's `query`, an additional operation's).
    static func methodExpression(_ method: HTTPMethod) -> String {
        let named: Set<HTTPMethod> = [.get, .put, .post, .delete, .options, .head, .patch, .trace]
        return named.contains(method) ? "." + method.rawValue : ".named(\(SwiftLiteral.string(method.wireName)))"
    }
}

extension String {
    /// The text on one line, for a `- Parameters:` entry.
    func replacingNewlines() -> String {
        split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
    }
}
