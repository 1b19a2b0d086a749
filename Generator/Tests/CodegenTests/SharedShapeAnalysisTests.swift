import Testing

@testable import Codegen

/// Which repeated shapes become typealiases, and which must not.
@Suite struct SharedShapeAnalysisTests {
    private func property(_ name: String, _ type: SwiftType, documentation: String? = nil, isDeprecated: Bool = false, isRequired: Bool = true) -> PropertyDeclaration {
        PropertyDeclaration(
            name: name, wireName: name, type: type, documentation: documentation, isDeprecated: isDeprecated, defaultValue: nil, isRequired: isRequired,
            constraints: nil, elementConstraints: nil, initializerDefault: nil)
    }

    private func structure(
        _ name: String, _ properties: [PropertyDeclaration], documentation: String? = nil, nested: [TypeDeclaration] = [], isRecursive: Bool = false
    ) -> TypeDeclaration {
        TypeDeclaration(
            name: name, documentation: documentation, isDeprecated: false,
            kind: .structure(StructureShape(properties: properties, additionalProperties: nil, isRecursive: isRecursive, isInRequests: false)), nested: nested)
    }

    /// Name -> what it aliases, for every declaration (nested ones by qualified name).
    private func aliases(_ declarations: [TypeDeclaration]) -> [String: String] {
        var result: [String: String] = [:]
        func visit(_ declaration: TypeDeclaration, prefix: String?) {
            let qualified = prefix.map { "\($0).\(declaration.name)" } ?? declaration.name
            if case .alias(let type) = declaration.kind { result[qualified] = type.description }
            declaration.nested.forEach { visit($0, prefix: qualified) }
        }
        declarations.forEach { visit($0, prefix: nil) }
        return result
    }

    @Test func theShorterNameStaysAndKeepsItsDocumentation() {
        let shared = SharedShapeAnalysis.aliasingRepeatedShapes([
            structure("NullableUser", [property("login", .named("String"))], documentation: "A user, or none."),
            structure("User", [property("login", .named("String"))], documentation: "A user."),
        ])
        #expect(aliases(shared) == ["NullableUser": "User"])
        #expect(shared[0].documentation == "A user, or none.")
        #expect(shared[1].documentation == "A user.")
    }

    @Test func shapesThatDifferInAnythingButTheirNamesStayApart() {
        let login = property("login", .named("String"))
        let shared = SharedShapeAnalysis.aliasingRepeatedShapes([
            structure("User", [login]),
            structure("Documented", [property("login", .named("String"), documentation: "The handle.")]),
            structure("Optional", [property("login", .named("String"), isRequired: false)]),
            structure("Deprecated", [property("login", .named("String"), isDeprecated: true)]),
            structure("Renamed", [property("handle", .named("String"))]),
            structure("Recursive", [login], isRecursive: true),
        ])
        #expect(aliases(shared).isEmpty)
    }

    @Test func typesThatReferToSharedShapesAreSharedToo() {
        // Owner and Holder share a shape, so Repo and Project do, through
        // their nested types, which keep their names for `Project.Settings`.
        let settings = structure("Settings", [property("admin", .named("Bool"))])
        let shared = SharedShapeAnalysis.aliasingRepeatedShapes([
            structure("Owner", [property("login", .named("String"))]),
            structure("Holder", [property("login", .named("String"))]),
            structure("Repo", [property("owner", .named("Owner")), property("settings", .named("Repo.Settings"))], nested: [settings]),
            structure("Project", [property("owner", .named("Holder")), property("settings", .named("Project.Settings"))], nested: [settings]),
        ])
        #expect(aliases(shared) == ["Holder": "Owner", "Project": "Repo"])
    }

    @Test func aNestedTypeBecomesAnAliasOfTheTopLevelOne() {
        let shared = SharedShapeAnalysis.aliasingRepeatedShapes([
            structure("Repo", [property("owner", .named("Repo.Owner"))], nested: [structure("Owner", [property("login", .named("String"))])]),
            structure("User", [property("login", .named("String"))]),
        ])
        #expect(aliases(shared) == ["Repo.Owner": "User"])
    }

    @Test func anAliasIsNotWrittenWhereItsTargetNameMeansAnotherType() {
        // Inside Repo, `Owner` is Repo's own nested type: `typealias Holder
        // = Owner` there would name it, not the top-level Owner.
        let login = property("login", .named("String"))
        let shared = SharedShapeAnalysis.aliasingRepeatedShapes([
            structure("Owner", [login]),
            structure(
                "Repo", [property("holder", .named("Repo.Holder")), property("owner", .named("Repo.Owner"))],
                nested: [structure("Holder", [login]), structure("Owner", [property("id", .named("Int"))])]),
        ])
        #expect(aliases(shared).isEmpty)
    }

    @Test func nestedTypesOfAnAliasAreNotDeclaredAgain() {
        let settings = structure("Settings", [property("admin", .named("Bool"))])
        let shared = SharedShapeAnalysis.aliasingRepeatedShapes([
            structure("Repo", [property("settings", .named("Repo.Settings"))], nested: [settings]),
            structure("NullableRepo", [property("settings", .named("NullableRepo.Settings"))], nested: [settings]),
        ])
        #expect(aliases(shared) == ["NullableRepo": "Repo"])
        #expect(shared[1].nested.isEmpty)
        #expect(shared[0].nested.count == 1)
    }
}
