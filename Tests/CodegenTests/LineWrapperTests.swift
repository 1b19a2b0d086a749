import Testing

@testable import Codegen

/// Generated code stays within 120 columns without changing what it means.
@Suite struct LineWrapperTests {
    @Test func aLongParameterListGoesOnePerLine() {
        let line = "    public init(serverURL: URL, transport: any ClientTransport, middlewares: [any ClientMiddleware] = [], constraintChecks: ConstraintChecks = .requests) {"
        #expect(LineWrapper.code(line, indent: "    ") == [
            "    public init(",
            "        serverURL: URL,",
            "        transport: any ClientTransport,",
            "        middlewares: [any ClientMiddleware] = [],",
            "        constraintChecks: ConstraintChecks = .requests",
            "    ) {",
        ])
    }

    @Test func shortLinesAndUnbreakableOnesStayAsTheyAre() {
        #expect(LineWrapper.code("let a = f(x, y)", indent: "") == ["let a = f(x, y)"])
        let pattern = "static let p = ValidationPattern(#\"" + String(repeating: "[a-z]", count: 30) + "\"#)"
        #expect(LineWrapper.code(pattern, indent: "").count == 3, "one argument: it moves to its own line, whole")
        // Commas and parentheses inside string literals are not structure.
        let literal = "x(\"" + String(repeating: "a, (b", count: 30) + "\")"
        #expect(LineWrapper.code(literal, indent: "") == ["x(", "    \"" + String(repeating: "a, (b", count: 30) + "\"", ")"])
        // An interpolation is not read: the line is left alone.
        let interpolated = "f(\"\\(g(a, b))\", " + String(repeating: "c", count: 120) + ")"
        #expect(LineWrapper.code(interpolated, indent: "") == [interpolated])
    }

    @Test func nestedListsBreakInTurnAndArrayLiteralsBreakByElement() {
        let line = "throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: decoder.codingPath, debugDescription: NoMatchingMemberError(typeName: \"Shape\").description))"
        let lines = LineWrapper.code(line, indent: "")
        #expect(lines.first == "throw DecodingError.dataCorrupted(" && lines.last == ")")
        #expect(lines.allSatisfy { $0.count <= LineWrapper.width })
        let array = "public static let all: [OperationDescriptor] = [" + (1...20).map { "operationNumber\($0)" }.joined(separator: ", ") + "]"
        let elements = LineWrapper.code(array, indent: "")
        #expect(elements.first == "public static let all: [OperationDescriptor] = [" && elements.count == 22 && elements[1] == "    operationNumber1,")
    }

    @Test func docCommentsWrapBetweenWordsAndKeepListItemsTogether() {
        let text = "- Throws: `APIError<ErrorDetail>` for a documented error status (400, 429, 500); `UndocumentedResponseError` for another status."
        let lines = LineWrapper.comment(text, indent: "    ")
        #expect(lines.count == 2 && lines.allSatisfy { $0.count <= LineWrapper.width })
        #expect(lines[0].hasPrefix("    /// - Throws:") && lines[1].hasPrefix("    ///   "))
        #expect(LineWrapper.comment("| a | b |" + String(repeating: " x", count: 80), indent: "").count == 1, "tables are not wrapped")
        var writer = SwiftWriter()
        writer.documentation("```swift\nlet veryLongExample = " + String(repeating: "value + ", count: 20) + "1\n```")
        #expect(writer.lines.count == 3, "code blocks are not wrapped")
    }
}
