import Testing

@testable import Codegen

/// Which per-status enums become typealiases of an earlier one, and which must not.
@Suite struct SharedResultAnalysisTests {
    private func operation(_ id: String, success: ResultDeclaration = .empty, failure: ResultDeclaration?) -> OperationDeclaration {
        OperationDeclaration(
            id: id, methodName: id, responseMethodName: id + "WithResponse", method: .get, path: "/" + id, documentation: nil,
            isDeprecated: false, parameters: [], body: nil, success: success, failure: failure, responses: [], security: [],
            accept: nil, isIdempotent: true)
    }

    private let notFound = StatusCase(name: "notFound", type: .named("Problem"), documentation: "Not found.")
    private let invalid = StatusCase(name: "unprocessableContent", type: .named("ValidationProblem"), documentation: "Invalid.")

    @Test func laterEnumsWithTheSameCasesAliasTheFirst() {
        let repeated = SharedResultAnalysis.repeatedResults(
            [
                operation("getRepo", failure: .perStatus(name: "GetRepoErrorBody", cases: [notFound, invalid])),
                operation("deleteRepo", failure: .perStatus(name: "DeleteRepoErrorBody", cases: [notFound, invalid])),
                operation("archiveRepo", failure: .perStatus(name: "ArchiveRepoErrorBody", cases: [notFound, invalid])),
            ], typeAliases: [:])
        #expect(repeated == ["DeleteRepoErrorBody": "GetRepoErrorBody", "ArchiveRepoErrorBody": "GetRepoErrorBody"])
    }

    @Test func enumsThatDifferInAnyCaseStayApart() {
        var documented = notFound
        documented.documentation = "No such repository."
        var renamed = notFound
        renamed.name = "gone"
        var otherPayload = notFound
        otherPayload.type = .array(.named("Problem"))
        var noPayload = notFound
        noPayload.type = nil
        let repeated = SharedResultAnalysis.repeatedResults(
            [
                operation("a", failure: .perStatus(name: "AErrorBody", cases: [notFound, invalid])),
                operation("b", failure: .perStatus(name: "BErrorBody", cases: [documented, invalid])),
                operation("c", failure: .perStatus(name: "CErrorBody", cases: [renamed, invalid])),
                operation("d", failure: .perStatus(name: "DErrorBody", cases: [otherPayload, invalid])),
                operation("e", failure: .perStatus(name: "EErrorBody", cases: [noPayload, invalid])),
                operation("f", failure: .perStatus(name: "FErrorBody", cases: [invalid, notFound])),
                operation("g", failure: .perStatus(name: "GErrorBody", cases: [notFound])),
            ], typeAliases: [:])
        #expect(repeated.isEmpty)
    }

    @Test func payloadsThatAliasOneTypeCountAsTheSame() {
        var inlineCopy = invalid
        inlineCopy.type = .named("ArchiveRepoError422")
        let repeated = SharedResultAnalysis.repeatedResults(
            [
                operation("getRepo", failure: .perStatus(name: "GetRepoErrorBody", cases: [notFound, invalid])),
                operation("archiveRepo", failure: .perStatus(name: "ArchiveRepoErrorBody", cases: [notFound, inlineCopy])),
            ], typeAliases: ["ArchiveRepoError422": "ValidationProblem"])
        #expect(repeated == ["ArchiveRepoErrorBody": "GetRepoErrorBody"])
    }

    @Test func successEnumsAreSharedAsErrorBodiesAre() {
        let created = StatusCase(name: "created", type: .named("Repo"), documentation: "Created.")
        let accepted = StatusCase(name: "accepted", type: nil, documentation: "Queued.")
        let repeated = SharedResultAnalysis.repeatedResults(
            [
                operation("createRepo", success: .perStatus(name: "CreateRepoResult", cases: [created, accepted]), failure: nil),
                operation("forkRepo", success: .perStatus(name: "ForkRepoResult", cases: [created, accepted]), failure: nil),
            ], typeAliases: [:])
        #expect(repeated == ["ForkRepoResult": "CreateRepoResult"])
    }

    @Test func aliasesOfAliasesResolveToTheDeclaredType() {
        let user = TypeDeclaration(
            name: "User", documentation: nil, isDeprecated: false,
            kind: .structure(StructureShape(properties: [], additionalProperties: nil, isRecursive: false, isInRequests: false)), nested: [])
        let declarations = [
            user,
            TypeDeclaration(name: "Owner", documentation: nil, isDeprecated: false, kind: .alias(.named("User")), nested: []),
            TypeDeclaration(name: "Holder", documentation: nil, isDeprecated: false, kind: .alias(.named("Owner")), nested: []),
            TypeDeclaration(name: "Users", documentation: nil, isDeprecated: false, kind: .alias(.array(.named("User"))), nested: []),
        ]
        #expect(SharedResultAnalysis.typeAliases(in: declarations) == ["Owner": "User", "Holder": "User"])
    }
}
