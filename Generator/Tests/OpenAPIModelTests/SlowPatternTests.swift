import Testing

@testable import OpenAPIModel

/// `slow-pattern`: patterns whose matching time a backtracking engine lets
/// grow exponentially are named at their place; the patterns real specs use
/// (slugs, phone numbers, dates, versions) are not.
@Suite struct SlowPatternTests {
    @Test(arguments: [
        "^(a+)+$", "(a*)*", "^(\\w+\\s?)*$", "^([a-z0-9]+[-_]?)+$", "(\\d+\\.?)+", "((ab)+)+", "(?:x+)*", "(a+){2,}",
        "^(a|aa)+$", "(x|x)*", "(foo|foobar)*",
    ])
    func catastrophicShapesAreNamed(_ pattern: String) {
        #expect(RegularExpressionSupport.slowShape(of: pattern) != nil, "\(pattern)")
    }

    @Test(arguments: [
        "^[a-z]+(-[a-z]+)*$", "^\\+[1-9]\\d{1,14}$", "^\\d{4}-\\d{2}-\\d{2}$", "^v\\d+(\\.\\d+)*$", "(\\d+,)*\\d+", "^[A-Z]{3}$",
        "^(a+)$", "(ab|cd)+", "^(a+)?$", "(a++)+", "a{2,5}", "^[^\\s]+$", "(a|b)*", "(?=a+)", "^\\w+@\\w+\\.\\w+$",
    ])
    func everydayPatternsAreNotNamed(_ pattern: String) {
        #expect(RegularExpressionSupport.slowShape(of: pattern) == nil, "\(pattern)")
    }

    @Test(arguments: ["{", "a{", "a{1", "a{1,", "{1,2}", "x{,3}", "(", ")", "[", "\\", "(?<", "[a-", "((((", "a|||b", "{{{{"])
    func anyTextEndsTheWalk(_ pattern: String) {
        // Malformed or odd patterns end the walk (`pattern-not-checked` says what does not compile).
        _ = RegularExpressionSupport.slowShape(of: pattern)
    }

    @Test func theLintNamesThePatternAtItsPlace() throws {
        let result = load("""
            openapi: 3.0.3
            info: {title: Patterns, version: "1"}
            paths: {}
            components:
              schemas:
                Name: {type: string, pattern: "^(\\\\w+\\\\s?)*$"}
                Slug: {type: string, pattern: "^[a-z]+(-[a-z]+)*$"}
            """)
        let warning = try only("slow-pattern", in: result)
        #expect(warning.line == 6)
        #expect(warning.pointer == "#/components/schemas/Name/pattern")
        #expect(warning.message.contains("stop a check after 50 ms"))
    }
}
