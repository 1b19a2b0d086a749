import Testing

@testable import Codegen

/// Generated code writes a number only through ``SwiftLiteral``: a literal
/// that reads back as the value, never a bare word such as `inf`, which a
/// property named `inf` would stand in for (`ValueConstraints(maximum: inf)`
/// compiled, bounding a value by the instance's own field).
@Suite struct SwiftLiteralTests {
    @Test func finiteNumbersAreLiteralsThatReadBackExactly() {
        for value in [0, 1, -1, 0.01, 1e20, -2.5e-7, 1.7976931348623157e308, 5e-324, 9_007_199_254_740_993, 123_456_789_012_345.6] as [Double] {
            let literal = SwiftLiteral.double(value)
            #expect(Double(literal) == value, "\(literal)")
            #expect(literal.allSatisfy { $0.isNumber || "-+.e".contains($0) }, "\(literal)")
        }
        #expect(SwiftLiteral.integer(Int.min) == "-9223372036854775808")
    }

    @Test func aValueThatIsNoLiteralIsTheStandardLibrarysConstantNeverABareWord() {
        #expect(SwiftLiteral.double(.infinity) == "Swift.Double.infinity")
        #expect(SwiftLiteral.double(-.infinity) == "-Swift.Double.infinity")
        #expect(SwiftLiteral.double(.nan) == "Swift.Double.nan")
        #expect(ValidationRenderer.expression(ConstraintDeclaration(maximum: .infinity)) == "ValueConstraints(maximum: Swift.Double.infinity)")
    }
}
